"""The correlation statistics, each computed by SciPy where SciPy has it.

Every function takes two equally long sequences (metric scores, human scores) and
returns one number; :data:`STATISTICS` names them for the command line.

- ``pearson``, ``spearman``: :func:`scipy.stats.pearsonr`, :func:`scipy.stats.spearmanr`;
- ``kendall-b``, ``kendall-c``: :func:`scipy.stats.kendalltau` with ``variant="b"``/``"c"``;
- ``kendall-wmt``: the WMT metrics tasks' Kendall's tau-like formulation (WMT17-20
  DARR): ``(concordant - discordant) / (concordant + discordant)`` over the pairs whose
  human scores differ, a metric tie counting as discordant;
- ``accuracy``: pairwise ranking accuracy (Kocmi et al. 2021): the share of all pairs
  whose metric difference has the sign of their human difference.

>>> round(kendall_wmt([1, 2, 3, 3], [1, 2, 4, 3]), 4)  # 5 concordant, 1 metric tie
0.6667
>>> accuracy([1, 2, 3], [1, 3, 2])
0.6666666666666666
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy.errors import InputError, import_extra

Scores = Sequence[float] | NDArray[np.float64]
"""A list or an array of scores."""

Statistic = Callable[[Scores, Scores], float]


def scipy_stats() -> Any:
    """``scipy.stats``, or the error naming the ``stats`` extra."""
    return import_extra("scipy.stats", "correlations need SciPy: pip install 'understudy-mt[stats]'")


def _arrays(x: Scores, y: Scores) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    a, b = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise InputError(f"two equally long lists of scores are needed, got {a.shape} and {b.shape}")
    if len(a) < 2:
        raise InputError(f"a correlation needs at least 2 items, got {len(a)}")
    return a, b


def pearson(x: Scores, y: Scores) -> float:
    """Pearson's r."""
    a, b = _arrays(x, y)
    return float(scipy_stats().pearsonr(a, b).statistic)


def spearman(x: Scores, y: Scores) -> float:
    """Spearman's rho."""
    a, b = _arrays(x, y)
    return float(scipy_stats().spearmanr(a, b).statistic)


def kendall_b(x: Scores, y: Scores) -> float:
    """Kendall's tau-b (ties adjusted)."""
    a, b = _arrays(x, y)
    return float(scipy_stats().kendalltau(a, b, variant="b").statistic)


def kendall_c(x: Scores, y: Scores) -> float:
    """Kendall's tau-c (Stuart's, for tables that are not square)."""
    a, b = _arrays(x, y)
    return float(scipy_stats().kendalltau(a, b, variant="c").statistic)


def _pair_signs(x: Scores, y: Scores) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    a, b = _arrays(x, y)
    i, j = np.triu_indices(len(a), k=1)
    return np.sign(a[j] - a[i]), np.sign(b[j] - b[i])


def kendall_wmt(x: Scores, y: Scores) -> float:
    """WMT's Kendall's tau-like: pairs with human ties left out, metric ties discordant."""
    metric, human = _pair_signs(x, y)
    judged = human != 0
    concordant = int(np.sum(judged & (metric == human)))
    discordant = int(np.sum(judged)) - concordant
    if concordant + discordant == 0:
        return float("nan")
    return (concordant - discordant) / (concordant + discordant)


def accuracy(x: Scores, y: Scores) -> float:
    """Pairwise ranking accuracy: the share of pairs ordered alike (Kocmi et al. 2021)."""
    metric, human = _pair_signs(x, y)
    return float(np.mean(metric == human))


STATISTICS: dict[str, Statistic] = {
    "pearson": pearson,
    "spearman": spearman,
    "kendall-b": kendall_b,
    "kendall-c": kendall_c,
    "kendall-wmt": kendall_wmt,
    "accuracy": accuracy,
}
"""Every statistic by the name the command line and results give it."""

__all__ = [
    "STATISTICS",
    "accuracy",
    "kendall_b",
    "kendall_c",
    "kendall_wmt",
    "pearson",
    "scipy_stats",
    "spearman",
]
