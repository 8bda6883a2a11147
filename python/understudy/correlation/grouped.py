"""Segment-level statistics averaged over groups, as mt-metrics-eval's ``AverageCorrelation`` does.

``average_by`` (mt-metrics-eval's ``avg_by``) groups a systems x segments matrix of scores:
``none``, one group of every score; ``system``, each system's segments; ``item``, each segment's
systems (WMT24's setting). Within a group, the cells without a human score (NaN) are left out; a
group with fewer than two cells, or (Pearson, Spearman) with constant human or metric scores, has
no value and is not counted; the statistic is the plain mean of the groups' values, summed in
order as mt-metrics-eval sums them.

>>> human = [[0.0, -1.0, -3.0], [-2.0, -1.0, -2.0]]
>>> metric = [[0.9, 0.8, 0.1], [0.2, 0.5, 0.3]]
>>> grouped_statistic("pearson", metric, human, "system") > 0.9  # each system's segments ordered alike
True
>>> grouped_statistic("pearson", metric, human, "item")  # 2 points each; the 2nd segment's tie: left out
1.0
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from understudy.correlation.matrices import score_matrix
from understudy.correlation.statistics import STATISTICS
from understudy.correlation.ties import groups
from understudy.errors import ConfigError, InputError

_CONSTANT_IS_UNDEFINED = ("pearson", "spearman")


def grouped_statistic(statistic: str, metric: ArrayLike, human: ArrayLike, average_by: str) -> float:
    """``statistic`` (a name of :data:`STATISTICS`) within each group, averaged over the groups."""
    if statistic not in STATISTICS:
        raise ConfigError(f"unknown statistic {statistic!r}; known: {', '.join(STATISTICS)}")
    h = score_matrix(human, "human", missing=True)
    m = score_matrix(metric, "metric", missing=False)
    if h.shape != m.shape:
        raise InputError(f"human scores of shape {h.shape} and metric scores of shape {m.shape}")
    total, counted = 0.0, 0
    for gold, scores in zip(groups(h, average_by), groups(m, average_by), strict=True):
        kept = ~np.isnan(gold)
        g, s = gold[kept], scores[kept]
        if len(g) < 2:
            continue
        if statistic in _CONSTANT_IS_UNDEFINED and (np.all(g == g[0]) or np.all(s == s[0])):
            continue
        value = STATISTICS[statistic](s, g)
        if not np.isnan(value):
            total += value
            counted += 1
    return total / counted if counted else 0.0


__all__ = ["grouped_statistic"]
