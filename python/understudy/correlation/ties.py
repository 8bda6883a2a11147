"""Tie-calibrated pairwise accuracy (acc_eq; Deutsch et al. 2023), WMT24's segment-level statistic.

Every pair of scores in a group is a comparison: the metric gets it right when it orders the pair
as the humans do, or ties a pair the humans tie. A metric with continuous scores never ties, so a
threshold is chosen: pairs whose metric scores differ by at most it count as tied. The threshold
that maximises the accuracy (mean over the groups) is searched over every pair's difference and
reported with it. This is mt-metrics-eval's ``KendallWithTiesOpt`` with ``variant="acc23"`` and
``sample_rate=1.0``, to the bit: the search sorts the pairs by their metric difference (stably,
in the order mt-metrics-eval enumerates them) and keeps its running float64 sum, so even the
rounding of the mean, and so the threshold chosen among equal accuracies, is the same.

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

from understudy.correlation.spa import _matrix
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


@dataclass
class _Pairs:
    """Every pair of every group, in mt-metrics-eval's order: its metric difference, its group,
    and what tying it does to the group's count of right comparisons (-1, 0 or +1)."""

    diff: NDArray[np.float64]
    group: NDArray[np.int64]
    change: NDArray[np.int8]
    right: NDArray[np.int64]  # per group: right comparisons with no threshold
    pairs: NDArray[np.int64]  # per group: the number of pairs


def _pairs_of(
    h: NDArray[np.float64], m: NDArray[np.float64], changing_only: bool
) -> tuple[NDArray[np.float64], NDArray[np.int8], int, int]:
    """One group's pairs ``i < j``: differences, changes; its right count and pair count."""
    i, j = np.triu_indices(len(h), 1)
    dh, dm = h[i] - h[j], m[i] - m[j]
    human_tie, metric_tie = dh == 0, dm == 0
    concordant = ~human_tie & ~metric_tie & (np.sign(dh) == np.sign(dm))
    change = np.where(concordant, -1, np.where(human_tie & ~metric_tie, 1, 0)).astype(np.int8)
    right = int(np.sum(concordant) + np.sum(human_tie & metric_tie))
    diff = np.abs(dm)
    if changing_only:
        diff, change = diff[change != 0], change[change != 0]
    return diff, change, right, len(i)


def _enumerate(human: NDArray[np.float64], metric: NDArray[np.float64], changing_only: bool) -> _Pairs:
    diffs: list[NDArray[np.float64]] = []
    groups_: list[NDArray[np.int64]] = []
    changes: list[NDArray[np.int8]] = []
    right: list[int] = []
    pairs: list[int] = []
    for h, m in zip(human, metric, strict=True):
        rated = ~np.isnan(h)
        if rated.sum() < 2:
            continue
        diff, change, r, p = _pairs_of(h[rated], m[rated], changing_only)
        diffs.append(diff)
        changes.append(change)
        groups_.append(np.full(len(diff), len(right), dtype=np.int64))
        right.append(r)
        pairs.append(p)
    if not right:
        raise InputError("no group has two scores with human scores: there is no pair to compare")
    return _Pairs(
        np.concatenate(diffs),
        np.concatenate(groups_),
        np.concatenate(changes),
        np.array(right, dtype=np.int64),
        np.array(pairs, dtype=np.int64),
    )


def _search_one(p: _Pairs) -> TieCalibrated:
    """One group: every count is exact, so the best threshold is the smallest difference at which
    the count of right comparisons is largest."""
    gains = np.sort(p.diff[p.change > 0])
    losses = np.sort(p.diff[p.change < 0])
    right = int(p.right[0])
    best, threshold = right, 0.0
    if len(gains):
        candidates = np.unique(gains)
        counts = (
            right + np.searchsorted(gains, candidates, "right") - np.searchsorted(losses, candidates, "right")
        )
        k = int(np.argmax(counts))
        if counts[k] > best:
            best, threshold = int(counts[k]), float(candidates[k])
    return TieCalibrated(best / int(p.pairs[0]), threshold, 1)


def _search_many(p: _Pairs) -> TieCalibrated:
    """Several groups: the mean accuracy is a running float64 sum, replayed operation by operation
    as mt-metrics-eval does it (a group's accuracy subtracted, the pair tied, the new one added)."""
    order = np.argsort(p.diff, kind="stable")
    diff, group, change = p.diff[order], p.group[order], p.change[order].astype(np.int64)
    by_group = np.argsort(group, kind="stable")
    running = np.empty_like(change)
    running[by_group] = np.cumsum(change[by_group])
    starts = np.searchsorted(group[by_group], np.arange(len(p.right)))
    offsets = np.concatenate([[0], np.cumsum(change[by_group])])[starts]
    after = p.right[group] + running - offsets[group]
    old = (after - change) / p.pairs[group]
    new = after / p.pairs[group]
    steps = np.empty(2 * len(diff))
    steps[0::2], steps[1::2] = -old, new
    first = p.right / p.pairs
    totals = np.cumsum(np.concatenate([[0.0], first, steps]))
    rows = len(p.right)
    initial = totals[rows] / rows
    after_pair = totals[rows + 2 :: 2] / rows
    last = np.append(diff[1:] != diff[:-1], True)
    thresholds, taus = diff[last], after_pair[last]
    if not (len(thresholds) and thresholds[0] == 0.0):  # pairs tied already keep the threshold 0
        thresholds, taus = np.append(0.0, thresholds), np.append(initial, taus)
    k = int(np.argmax(taus))
    return TieCalibrated(float(taus[k]), float(thresholds[k]), rows)


def tie_calibrated_accuracy(metric: ArrayLike, human: ArrayLike, average_by: str = "item") -> TieCalibrated:
    """acc_eq of ``metric`` against ``human`` (systems x segments; NaN for a missing human score),
    with the optimised tie threshold."""
    h = _matrix(human, "human", missing=True)
    m = _matrix(metric, "metric", missing=False)
    if h.shape != m.shape:
        raise InputError(f"human scores of shape {h.shape} and metric scores of shape {m.shape}")
    hg, mg = groups(h, average_by), groups(m, average_by)
    with_pairs = int(np.sum(np.sum(~np.isnan(hg), axis=1) >= 2))
    p = _enumerate(hg, mg, changing_only=with_pairs == 1)
    return _search_one(p) if len(p.right) == 1 else _search_many(p)


__all__ = ["AVERAGE_BY", "TieCalibrated", "groups", "tie_calibrated_accuracy"]
