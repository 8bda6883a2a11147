"""Tie-calibrated pairwise accuracy (acc_eq; Deutsch et al. 2023), WMT24's segment-level statistic.

Every pair of scores in a group is a comparison: the metric gets it right when it orders the pair
as the humans do, or ties a pair the humans tie. A metric with continuous scores never ties, so a
threshold is chosen: pairs whose metric scores differ by at most it count as tied. The threshold
that maximises the accuracy (mean over the groups) is searched over every pair's difference and
reported with it. This is mt-metrics-eval's ``KendallWithTiesOpt`` with ``variant="acc23"`` and
``sample_rate=1.0``, to the bit: the search (in Rust, ``understudy-core``'s ``ties``) sorts the
pairs by their metric difference (stably, in the order mt-metrics-eval enumerates them) and keeps
its running float64 sum, so even the rounding of the mean, and so the threshold chosen among
equal accuracies, is the same. (mt-metrics-eval's first sum is Python's ``sum()``, plain in
Python 3.11, where the fixtures were made; 3.12's ``sum()`` compensates rounding, which can move
its last bit.)

Groups (``average_by``, mt-metrics-eval's ``avg_by``): ``none``, every score of every system one
group; ``system``, each system's segments; ``item``, each segment's systems (WMT24's setting). A
missing human score (NaN) leaves its pairs out; a group with fewer than two scores has no pairs and
is not counted. With a single group the running sum is exact, so only the pairs that change the
count are kept and sorted: ``none`` on 13 systems x 529 segments (23.6 million pairs, beyond
mt-metrics-eval's Python lists) takes seconds.

>>> human = [[0.0, -1.0, 0.0], [0.0, -2.0, -5.0], [-1.0, -2.0, -5.0]]
>>> metric = [[0.91, 0.7, 0.9], [0.9, 0.5, 0.2], [0.6, 0.45, 0.1]]

Each segment (column) has one pair the humans tie, with metric differences 0.01, 0.05 and 0.1,
and two pairs the metric orders as the humans do, each differing by 0.2 or more: a threshold of
0.1 ties the first three and none of the others, so every comparison is right. (The running
sum, mt-metrics-eval's, ends a last bit off here: 1.0000000000000002.)

>>> result = tie_calibrated_accuracy(metric, human, "item")
>>> round(result.value, 12), round(result.threshold, 4)
(1.0, 0.1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from understudy import _core
from understudy.correlation.matrices import score_matrix
from understudy.errors import ConfigError, InputError

AVERAGE_BY = ("none", "system", "item")
"""How segment scores are grouped before the statistic is averaged over the groups."""


@dataclass(frozen=True)
class TieCalibrated:
    """The accuracy at the best threshold, the threshold, and the number of groups averaged."""

    value: float
    threshold: float
    groups: int


def groups(matrix: NDArray[Any], average_by: str) -> NDArray[Any]:
    """``matrix`` (systems x segments) as rows of the groups ``average_by`` names."""
    if average_by == "none":
        return matrix.reshape(1, -1)
    if average_by == "system":
        return matrix
    if average_by == "item":
        return matrix.T
    raise ConfigError(f"average_by must be one of {', '.join(AVERAGE_BY)}, got {average_by!r}")


def tie_calibrated_accuracy(metric: ArrayLike, human: ArrayLike, average_by: str = "item") -> TieCalibrated:
    """acc_eq of ``metric`` against ``human`` (systems x segments; NaN for a missing human score),
    with the optimised tie threshold."""
    h = score_matrix(human, "human", missing=True)
    m = score_matrix(metric, "metric", missing=False)
    if h.shape != m.shape:
        raise InputError(f"human scores of shape {h.shape} and metric scores of shape {m.shape}")
    found = _core.metaeval.tie_search(
        np.ascontiguousarray(groups(h, average_by)), np.ascontiguousarray(groups(m, average_by))
    )
    if found is None:
        raise InputError("no group has two scores with human scores: there is no pair to compare")
    return TieCalibrated(*found)


__all__ = ["AVERAGE_BY", "TieCalibrated", "groups", "tie_calibrated_accuracy"]
