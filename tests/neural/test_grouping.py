"""Why the routes agree to float32's last bits and not to the bit (docs/neural.md, "Where the
models run"): a segment's score moves with the segments that share its call, even one at a time."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from understudy.neural import COMET

import tests.support.neural_checkpoints as nc


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return nc.build_regression(tmp_path_factory.mktemp("grouping") / "comet", 1)


def _texts(n: int) -> tuple[list[str], list[str], list[str]]:
    def lines(xs: list[str]) -> list[str]:
        return [f"{xs[k % len(xs)]} {k}" for k in range(n)]

    return lines(nc.MT), lines(nc.REF), lines(nc.SRC)


@pytest.mark.parametrize("batch_size", [1, 16])
def test_one_call_and_two_calls_agree_within_the_tolerance(model: Path, batch_size: int) -> None:
    mt, ref, src = _texts(120)
    whole = COMET(model, cache=None, batch_size=batch_size).sentence_scores(mt, ref, sources=src)
    parts: list[float] = []
    for lo, hi in ((0, 37), (37, 120)):
        metric = COMET(model, cache=None, batch_size=batch_size)
        parts += metric.sentence_scores(mt[lo:hi], ref[lo:hi], sources=src[lo:hi])
    difference = np.abs(np.asarray(whole) - np.asarray(parts))
    assert difference.max() <= 1e-6
    # Each call's own: the same call again gives the same scores, bit for bit.
    again = COMET(model, cache=None, batch_size=batch_size).sentence_scores(mt, ref, sources=src)
    assert again == whole
