"""MBR with COMET as the utility, on a tiny checkpoint, against the reference code: mbrs 0.1.8's COMET
metric, which embeds with unbabel-comet 2.2.7 and runs its estimator on every candidate x
pseudo-reference pair (tests/fixtures/mbr/comet-mbr-tiny.json, made by
scripts/comet_mbr_fixtures.py in the reference code's environment). The issue's bound: 2e-6."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy.mbr import select
from understudy.neural import COMET

import tests.support.neural_checkpoints as nc
from tests.support.comet_mbr import CANDIDATES, SOURCES, VARIANT
from tests.support.paths import FIXTURES

FIXTURE: dict[str, Any] = json.loads((FIXTURES / "mbr" / "comet-mbr-tiny.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    seed, overrides = nc.REGRESSION_VARIANTS[VARIANT]
    return nc.build_regression(tmp_path_factory.mktemp("comet-mbr") / VARIANT, seed, **overrides)


def test_the_fixture_is_of_these_lists() -> None:
    assert FIXTURE["variant"] == VARIANT
    assert FIXTURE["versions"]["unbabel-comet"] == "2.2.7" and FIXTURE["versions"]["mbrs"] == "0.1.8"
    assert [len(s["utilities"]) for s in FIXTURE["sources"]] == [len(c) for c in CANDIDATES]


def test_comet_utilities_equal_the_reference_codes(
    checkpoint: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    embedded: list[str] = []
    real = COMET._embed

    def counted(self: COMET, model: Any, texts: list[str], progress: Any) -> dict[str, Any]:
        embedded.extend(texts)
        return real(self, model, texts, progress)

    monkeypatch.setattr(COMET, "_embed", counted)
    metric = COMET(checkpoint, batch_size=8, cache=str(tmp_path / "cache"))
    choices = select(CANDIDATES, metric, sources=SOURCES, utilities=True)
    for k, (choice, theirs) in enumerate(zip(choices, FIXTURE["sources"], strict=True)):
        assert choice.utilities is not None
        assert np.max(np.abs(choice.utilities - np.asarray(theirs["utilities"]))) <= 2e-6, k
        assert np.max(np.abs(np.asarray(choice.expected) - theirs["expected"])) <= 2e-6, k
        best = max(theirs["expected"])
        assert choice.index == theirs["chosen"] or abs(theirs["expected"][choice.index] - best) <= 2e-6, k
    # Each distinct sentence (the candidates, the sources) is embedded once, all sources in one
    # call; only the estimator sees the N x N pairs.
    distinct = len({*SOURCES, *(h for hyps in CANDIDATES for h in hyps)})
    assert len(embedded) == distinct


def test_a_second_run_computes_nothing(
    checkpoint: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = str(tmp_path / "cache")
    first = select(CANDIDATES, COMET(checkpoint, batch_size=8, cache=cache), sources=SOURCES)
    again = COMET(checkpoint, batch_size=8, cache=cache)

    def no_model() -> None:
        raise AssertionError("the model was read: something was computed again")

    monkeypatch.setattr(again, "begin", no_model)
    assert select(CANDIDATES, again, sources=SOURCES) == first
