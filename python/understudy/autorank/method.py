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


def scaled(values: Sequence[float], epsilon: float = EPSILON) -> np.ndarray:
    """Median-interpercentile scaling of one metric's system scores."""
    x = np.asarray(values, dtype=np.float64)
    spread = max(epsilon, float(np.percentile(x, 100) - np.percentile(x, 25)))
    return (x - float(np.median(x))) / spread


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
    columns = [scaled([table[s][m] for s in systems], epsilon) for m in metrics]
    mean = np.mean(np.vstack(columns), axis=0)
    best, worst = float(mean.max()), float(mean.min())
    if best == worst:
        return dict.fromkeys(systems, 1.0)
    ranks = 1.0 + (len(systems) - 1) * (best - mean) / (best - worst)
    return {s: float(r) for s, r in zip(systems, ranks, strict=True)}
