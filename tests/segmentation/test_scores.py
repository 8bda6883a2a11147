"""What resegmentation costs a score (``scripts/resegmented_scores.py``, the documentation's
table): every WMT17 system, its line breaks removed and cut back, scores a little below its
score as submitted (a word at a boundary that matches nothing lands on either side, breaking an
n-gram or two), and the systems keep their order."""

from __future__ import annotations

import sys

from scipy import stats

from tests.support.paths import REPO, SHARED

sys.path.insert(0, str(REPO / "scripts"))

from resegmented_scores import rows


def test_every_system_loses_little_and_the_ranking_holds() -> None:
    found = rows(SHARED)
    assert len(found) == 16
    for name, _, d_bleu, _, d_chrf, same in found:
        assert -0.5 < d_bleu < 0 and -1.5 < d_chrf < 0, name
        assert 0.35 < same < 0.65, name  # the rest moved by a word or two at a boundary
    bleu, cut = [r[1] for r in found], [r[1] + r[2] for r in found]
    assert stats.kendalltau(bleu, cut).statistic == 1.0
