"""PEAR against pear-mt 1.1.1 on a tiny checkpoint in its layout.

The reference numbers are tests/fixtures/pear_tiny.json, made by scripts/pear_fixtures.py running
pear-mt (transformers 4.57, pytorch-lightning) in its own environment on the checkpoint
tests/support/neural_checkpoints.build_pear makes (here, the same weights): 40 WMT17 segments and a
hostile group, and the MBR utility matrices of 10 sources' 4 candidates, full and half. pear-mt's
own spread between batch sizes 1 and 8 is 2.2e-7 there; understudy is held to 5e-7.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy import Pear
from understudy.errors import ConfigError, InputError, ModelError
from understudy.mbr import select
from understudy.neural.base import layouts
from understudy.neural.comet import CometCheckpoint

import tests.support.neural_checkpoints as nc
from tests.support.cli import run_cli
from tests.support.paths import FIXTURES

FIXTURE = json.loads((FIXTURES / "pear_tiny.json").read_text(encoding="utf-8"))
SRC, A, B = (FIXTURE["samples"][k] for k in ("src", "a", "b"))
LISTS = FIXTURE["mbr_lists"]
BOUND = 5e-7


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return nc.build_pear(tmp_path_factory.mktemp("pear") / "pear-tiny")


def test_fixture_is_of_these_samples() -> None:
    assert len(SRC) == len(A) == len(B) == 50 and FIXTURE["versions"]["pear-mt"] == "1.1.1"
    spread = max(abs(x - y) for x, y in zip(FIXTURE["scores"]["1"], FIXTURE["scores"]["8"], strict=True))
    assert spread <= BOUND
    # The model is not antisymmetric: half and full choose differently on these sources.
    full, half = (FIXTURE["mbr"][m]["chosen"] for m in ("full", "half"))
    assert [c[0] for c in full] != [c[0] for c in half]


@pytest.mark.parametrize("batch_size", [1, 16])
def test_pairwise_scores_are_pear_mts(model: Path, batch_size: int) -> None:
    metric = Pear(model, batch_size=batch_size, cache=None, device="cpu")
    got = metric.pairwise(SRC, A, B)
    assert max(abs(g - w) for g, w in zip(got, FIXTURE["scores"]["1"], strict=True)) <= BOUND
    # The 600-word translation and the long source, cut at the encoder's 512 positions.
    assert "2 input(s) longer than the model's limit" in metric.notices()[0]


@pytest.mark.parametrize("mode", ["full", "half"])
def test_utility_matrices_and_choices_are_pear_mts(model: Path, mode: str) -> None:
    metric = Pear(model, mbr=mode, cache=None, device="cpu")
    matrices = list(metric.utilities(LISTS["candidates"], LISTS["candidates"], LISTS["src"]))
    want = FIXTURE["mbr"][mode]
    for got, expected in zip(matrices, want["matrices"], strict=True):
        assert np.abs(got - np.asarray(expected)).max() <= BOUND
    chosen = select(LISTS["candidates"], metric, sources=LISTS["src"])
    # pear-mt's choice: the row sums' argmax (the diagonal 0 in both: n or n - 1 divides alike).
    assert [c.index for c in chosen] == [c[0] for c in want["chosen"]]
    for choice, (_, utility) in zip(chosen, want["chosen"], strict=True):
        n = len(LISTS["candidates"][0])
        assert choice.expected[choice.index] * n / (n - 1) == pytest.approx(utility, abs=1e-6)


def test_mbr_on_the_command_line_takes_the_mode(
    model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    cands, src = tmp_path / "cands.txt", tmp_path / "src.txt"
    cands.write_text("".join(c + "\n" for row in LISTS["candidates"] for c in row), encoding="utf-8")
    src.write_text("".join(s + "\n" for s in LISTS["src"]), encoding="utf-8")
    for mode in ("full", "half"):
        argv = ["mbr", "--candidates", str(cands), "-n", "4", "-m", "pear", "--source", str(src)]
        status, out, err = run_cli(capsys, *argv, "--pear-model", str(model), "--pear-mbr", mode)
        assert status == 0, err
        chosen = [
            row[c[0]] for row, c in zip(LISTS["candidates"], FIXTURE["mbr"][mode]["chosen"], strict=True)
        ]
        assert out.splitlines() == chosen


def test_scored_against_a_reference_and_its_errors(model: Path) -> None:
    metric = Pear(model, cache=None, device="cpu")
    anchored = metric.sentence_scores(A[:5], B[:5], sources=SRC[:5])  # pear-mt's reference-anchored mode
    assert anchored == pytest.approx(FIXTURE["scores"]["1"][:5], abs=BOUND)
    with pytest.raises(InputError, match="PEAR needs the source"):
        metric.sentence_scores(A[:2], B[:2])
    with pytest.raises(ConfigError, match="mbr must be one of full, half"):
        Pear(model, mbr="third", cache=None)
    with pytest.raises(ConfigError, match="half matrix needs the candidates as their own"):
        list(Pear(model, mbr="half", cache=None, device="cpu").utilities([["a", "b"]], [["c"]], ["s"]))


def test_its_layout_is_comets_and_a_comet_metric_refuses_it(model: Path) -> None:
    # hparams.yaml names the encoder: fetch-model fetches it beside, as for COMET.
    assert Pear not in layouts() and CometCheckpoint in layouts() and CometCheckpoint.recognises(model)
    from understudy.neural import COMET

    with pytest.raises(ModelError, match="of class 'pairwise_metric'"):
        COMET(model, cache=None, device="cpu").sentence_scores(["a"], ["b"], sources=["c"])
