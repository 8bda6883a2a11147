"""AutoRank as WMT25's preliminary ranking defines it (section "Automatic ranking" of its
``main.tex``): a metric's system score is the mean of its paragraph scores over the test set; each
metric's system scores are scaled by their median and their spread from the 25th to the 100th
percentile, ``z = (x - median) / max(eps, Q100 - Q25)``; a system's scaled scores are averaged with
equal weights; the averages are mapped linearly onto 1 (the best) to N (the worst).

The text gives no value of ``eps`` (only ``eps > 0``): it is :data:`EPSILON`, which matters only
where every system has the same score. Percentiles are NumPy's default (linear interpolation).

>>> system_score([1.0, None, 3.0])
2.0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from understudy.errors import InputError

EPSILON = 1e-9
"""The least spread a metric is divided by."""


def system_score(paragraphs: Sequence[float | None]) -> float:
    """The mean of the paragraph scores a metric gave (``null`` ones left out, as the organisers'
    system scores leave them out)."""
    given = [v for v in paragraphs if v is not None]
    if not given:
        raise InputError("a metric gave no paragraph score at all")
    return float(np.mean(np.asarray(given, dtype=np.float64)))


def scaled(values: Sequence[float] | np.ndarray, epsilon: float = EPSILON) -> np.ndarray:
    """Median-interpercentile scaling of one metric's system scores (along the first axis: one
    column of system scores for each resample, where there are several)."""
    x = np.asarray(values, dtype=np.float64)
    spread = np.maximum(epsilon, np.percentile(x, 100, axis=0) - np.percentile(x, 25, axis=0))
    return np.asarray((x - np.median(x, axis=0)) / spread)


def ranks_of(values: np.ndarray, epsilon: float = EPSILON) -> np.ndarray:
    """AutoRank of systems' scores ``values[system, metric, ...]`` (higher better; trailing axes,
    resamples say, ranked apart): the scaled metrics' mean, mapped onto 1 (best) to N."""
    count = values.shape[0]
    mean = np.mean(np.stack([scaled(values[:, m], epsilon) for m in range(values.shape[1])]), axis=0)
    best, worst = mean.max(axis=0), mean.min(axis=0)
    span = np.where(best > worst, best - worst, 1.0)
    return np.asarray(np.where(best > worst, 1.0 + (count - 1) * (best - mean) / span, 1.0))


def autorank(
    table: Mapping[str, Mapping[str, float]], metrics: Sequence[str], epsilon: float = EPSILON
) -> dict[str, float]:
    """Each system's AutoRank from its system scores (``table[system][metric]``, higher better)."""
    systems = list(table)
    if not systems or not metrics:
        raise InputError("AutoRank needs at least one system and one metric")
    missing = [(s, m) for s in systems for m in metrics if m not in table[s]]
    if missing:
        system, metric = missing[0]
        raise InputError(f"{system} has no {metric} scores ({len(missing)} system-metric pair(s) missing)")
    values = np.array([[table[s][m] for m in metrics] for s in systems], dtype=np.float64)
    return {s: float(r) for s, r in zip(systems, ranks_of(values, epsilon), strict=True)}
