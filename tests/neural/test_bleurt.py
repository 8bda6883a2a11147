"""BLEURT-20 against bleurt-pytorch on a tiny checkpoint in lucadiliello/BLEURT-20's layout.

The reference numbers are tests/fixtures/bleurt_tiny.json, made by scripts/bleurt_fixtures.py
running bleurt-pytorch (transformers 4.57.6) in its own environment on the checkpoint
tests/support/neural_checkpoints.py builds (here, the same weights): 40 WMT17 segments and a
hostile group, at batch sizes 1 and 8, with the ids its tokenizer gave each row. Its own spread
between the batch sizes is 1.4e-6 (scores near 4, in float32); understudy is held to 2e-6.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy import BLEURT
from understudy.errors import InputError, ModelError
from understudy.neural.base import layouts
from understudy.neural.bertscore import BERTScore
from understudy.neural.metricx import MetricX

import tests.support.neural_checkpoints as nc
from tests.support.cli import run_cli
from tests.support.paths import FIXTURES

FIXTURE = json.loads((FIXTURES / "bleurt_tiny.json").read_text(encoding="utf-8"))
HYPS, REFS = FIXTURE["samples"]["hyps"], FIXTURE["samples"]["refs"]
BOUND = 2e-6


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return nc.build_bleurt(tmp_path_factory.mktemp("bleurt") / "bleurt-tiny")


def test_fixture_is_of_these_samples() -> None:
    assert len(HYPS) == len(REFS) == 50 and FIXTURE["tokenizer"] == "BleurtSPTokenizer"
    spread = max(abs(x - y) for x, y in zip(FIXTURE["scores"]["1"], FIXTURE["scores"]["8"], strict=True))
    assert 0 < spread <= BOUND
    assert max(FIXTURE["scores"]["1"]) - min(FIXTURE["scores"]["1"]) > 100 * BOUND  # rows told apart


def test_ids_are_the_reference_tokenizers(model: Path) -> None:
    tokenizer = BLEURT(model, cache=None, device="cpu").tokenizer
    got = [tokenizer.pair(r, h).ids for h, r in zip(HYPS, REFS, strict=True)]
    assert got == FIXTURE["input_ids"]
    # An empty hypothesis: [CLS] reference [SEP] [SEP]; the literal special tokens are their ids.
    assert got[40][-2:] == [tokenizer.sep, tokenizer.sep] and got[48][:2] == [tokenizer.cls, 156]
    assert max(len(ids) for ids in got) == 512  # the 600 words and the long reference, cut


@pytest.mark.parametrize("batch_size", [1, 16])
def test_scores_are_bleurt_pytorchs(model: Path, batch_size: int) -> None:
    metric = BLEURT(model, batch_size=batch_size, cache=None, device="cpu")
    got = metric.sentence_scores(HYPS, REFS)
    assert max(abs(g - w) for g, w in zip(got, FIXTURE["scores"]["1"], strict=True)) <= BOUND
    assert "2 input(s) longer than the model's limit" in metric.notices()[0]
    assert metric.name == "BLEURT" and metric.computed_by()["reference"] == "yes"


def test_score_prints_bleurt_and_reads_old_given_scores(
    model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    (tmp_path / "hyp.txt").write_text("".join(h + "\n" for h in HYPS[:40]), encoding="utf-8")
    (tmp_path / "ref.txt").write_text("".join(r + "\n" for r in REFS[:40]), encoding="utf-8")
    argv = ["score", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-f", "json"]
    status, out, err = run_cli(capsys, *argv, "-m", "bleurt", "--bleurt-model", str(model), "-w", "6")
    assert status == 0, err
    result = json.loads(out)
    want = FIXTURE["scores"]["1"][:40]
    assert result["name"] == "BLEURT" and result["score"] == pytest.approx(sum(want) / 40, abs=1e-6)
    assert "|model:bleurt-tiny|" in result["signature"] and "|ref:yes|" in result["signature"]
    given = tmp_path / "bleurt.txt"
    given.write_text("".join(f"{v}\n" for v in want), encoding="utf-8")
    status, out, err = run_cli(capsys, *argv, "-m", "bleu", "--scores", f"BLEURT-20={given}", "-w", "6")
    assert status == 0, err
    scored = json.loads(out)[1]
    assert scored["name"] == "BLEURT-20" and scored["score"] == pytest.approx(sum(want) / 40, abs=1e-6)


def test_its_layout_and_what_it_refuses(model: Path, tmp_path: Path) -> None:
    assert BLEURT in layouts() and BLEURT.recognises(model) and BLEURT.names_beside(model, "-") is None
    assert not BERTScore.recognises(model) and not MetricX.recognises(model)
    metricx = nc.build_metricx(tmp_path / "metricx", 1)
    assert not BLEURT.recognises(metricx)
    with pytest.raises(ModelError, match="not a BLEURT checkpoint"):
        BLEURT(metricx, cache=None, device="cpu")
    with pytest.raises(InputError, match="give one for every segment"):
        BLEURT(model, cache=None, device="cpu").sentence_scores(["a"], None)
