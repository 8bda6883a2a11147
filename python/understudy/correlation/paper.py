"""The BLEU paper's own analyses (Papineni et al. 2002, Sections 4-5), reproducible on any data.

- :func:`adjacent_differences`: the human scores of systems adjacent in the human
  ranking, compared segment by segment: mean difference with a 95% t interval
  (Figures 3-4);
- :func:`regression`: the least-squares line of human scores on a metric, its r and
  the residuals (Figures 5-6);
- :func:`range_normalized`: metric and human scores each scaled to [0, 1] by their
  range, side by side (Figure 7);
- :func:`reference_subsets`: a metric with every subset of the references, to see how
  the correlation depends on their number (the paper reports 1 to 4 references);
- :func:`analyses`: all of them on one correlation's scores, as ``correlate --paper`` gives them.

Distributions and fits are SciPy's (extra ``stats``).

>>> fit = regression([10.0, 20.0, 30.0], [1.0, 2.0, 3.5])
>>> round(fit.slope, 3), round(fit.r, 4), [round(e, 3) for e in fit.residuals]
(0.125, 0.9934, [0.083, -0.167, 0.083])
>>> range_normalized([2.0, 4.0, 3.0])
[0.0, 1.0, 0.5]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from understudy.correlation.statistics import STATISTICS, Scores, scipy_stats
from understudy.errors import ConfigError, InputError
from understudy.inputs.human import HumanScores

if TYPE_CHECKING:
    from understudy.correlation import CorrelationResult
    from understudy.metrics.protocol import MetricObject


@dataclass(frozen=True)
class AdjacentDifference:
    """How much better ``higher`` is judged than ``lower``, over their common segments."""

    lower: str
    higher: str
    segments: int
    mean: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """Whether the 95% interval excludes 0."""
        return self.low > 0 or self.high < 0


def adjacent_differences(
    human: HumanScores, systems: Sequence[str], confidence: float = 0.95
) -> list[AdjacentDifference]:
    """Each pair of systems adjacent in the human ranking (worst first), compared on the segments
    both were judged on: the mean of the per-segment differences and its t interval."""
    if not human.has_segments:
        raise InputError("adjacent differences need segment-level human scores")
    if not 0 < confidence < 1:
        raise ConfigError(f"confidence must be between 0 and 1, got {confidence!r}")
    ranked = sorted(systems, key=lambda s: human.system[s])
    t = scipy_stats().t
    out = []
    for lower, higher in itertools.pairwise(ranked):
        common = sorted(set(human.segments.get(lower, {})) & set(human.segments.get(higher, {})))
        if len(common) < 2:
            raise InputError(
                f"{lower} and {higher} share {len(common)} judged segments; at least 2 are needed"
            )
        diffs = np.array([human.segments[higher][k] - human.segments[lower][k] for k in common])
        mean = float(diffs.mean())
        half = float(t.ppf(0.5 + confidence / 2, len(diffs) - 1) * diffs.std(ddof=1) / math.sqrt(len(diffs)))
        out.append(AdjacentDifference(lower, higher, len(diffs), mean, mean - half, mean + half))
    return out


@dataclass(frozen=True)
class Regression:
    """The line ``human = intercept + slope * metric``, its r and each item's residual."""

    slope: float
    intercept: float
    r: float
    residuals: tuple[float, ...]


def regression(metric: Scores, human: Scores) -> Regression:
    """The least-squares regression of ``human`` on ``metric`` (``scipy.stats.linregress``)."""
    x, y = np.asarray(metric, dtype=np.float64), np.asarray(human, dtype=np.float64)
    if x.shape != y.shape or len(x) < 3:
        raise InputError(
            f"a regression needs two equally long lists of at least 3 scores, got {x.shape}, {y.shape}"
        )
    if np.ptp(x) == 0:
        raise InputError("no regression on metric scores that are all equal (identical systems?)")
    fit = scipy_stats().linregress(x, y)
    residuals = y - (fit.intercept + fit.slope * x)
    return Regression(
        float(fit.slope), float(fit.intercept), float(fit.rvalue), tuple(float(e) for e in residuals)
    )


def range_normalized(values: Scores) -> list[float]:
    """``values`` scaled so that the smallest is 0 and the largest 1 (all 0 when equal)."""
    a = np.asarray(values, dtype=np.float64)
    spread = float(a.max() - a.min()) if len(a) else 0.0
    return [float(v) for v in ((a - a.min()) / spread if spread > 0 else np.zeros_like(a))]


@dataclass(frozen=True)
class SubsetCorrelation:
    """The correlation of the metric computed with one subset of the references."""

    references: tuple[int, ...]
    value: float


EVERY_SUBSET_UP_TO = 6
"""Up to this many references every subset is scored (63 of 6); beyond, the 2^k - 1 subsets
would not finish (18 references: 262,143), so only each reference alone, each left out, and all."""


def subset_sizes(n_references: int) -> list[int]:
    """The subset sizes :func:`reference_subsets` scores.

    >>> subset_sizes(3), subset_sizes(10)
    ([1, 2, 3], [1, 9, 10])
    """
    if n_references <= EVERY_SUBSET_UP_TO:
        return list(range(1, n_references + 1))
    return [1, n_references - 1, n_references]


def reference_subsets(
    system_scores: Callable[[Sequence[int]], Sequence[float]],
    n_references: int,
    human: Scores,
    statistic: str = "pearson",
    higher_is_better: bool = True,
) -> dict[int, list[SubsetCorrelation]]:
    """For each number of references k in :func:`subset_sizes`, the correlation with every
    k-subset of them.

    ``system_scores(indices)`` gives every system's score with the references at
    ``indices`` (0-based); subsets are numbered 1-based in the results.
    """
    if statistic not in STATISTICS:
        raise ConfigError(f"unknown statistic {statistic!r}; known: {', '.join(STATISTICS)}")
    if n_references < 1:
        raise ConfigError("reference subsets need at least one reference")
    sign = 1.0 if higher_is_better else -1.0
    out: dict[int, list[SubsetCorrelation]] = {}
    for k in subset_sizes(n_references):
        out[k] = []
        for subset in itertools.combinations(range(n_references), k):
            scores = sign * np.asarray(system_scores(subset), dtype=np.float64)
            out[k].append(
                SubsetCorrelation(tuple(i + 1 for i in subset), STATISTICS[statistic](scores, human))
            )
    return out


def normalized_table(scores: Mapping[str, Scores], human: Scores) -> dict[str, list[float]]:
    """Figure 7's view: every metric's and the human scores, each range-normalized."""
    return {"human": range_normalized(human), **{m: range_normalized(s) for m, s in scores.items()}}


def analyses(
    result: CorrelationResult,
    human: HumanScores,
    names: Sequence[str],
    metrics: Sequence[MetricObject] = (),
    systems: Sequence[Sequence[str]] = (),
    references: Sequence[Sequence[str]] = (),
    reference_names: Sequence[str] = (),
    statistic: str = "pearson",
) -> dict[str, Any]:
    """The paper's analyses of ``result`` (its scores of the systems ``names``), as a JSON-ready
    record: each metric's regression, the range-normalized table (system level), the adjacent
    systems' human differences (when ``human`` scores segments) and, at system level with more
    than one stream of ``references`` (named ``reference_names``), each of ``metrics``'
    ``statistic`` with every subset of them (the ``systems``' outputs rescored).

    >>> from understudy.correlation import correlate
    >>> result = correlate({"m": [1.0, 2.0, 4.0]}, [1.0, 3.0, 4.0], ["a", "b", "c"], n_bootstrap=0)
    >>> record = analyses(result, HumanScores({"a": 1.0, "b": 3.0, "c": 4.0}), ["a", "b", "c"])
    >>> sorted(record), round(record["regression"]["m"]["slope"], 3)
    (['range_normalized', 'regression'], 0.929)
    """
    fits = {m: regression(s, result.human) for m, s in result.scores.items()}
    out: dict[str, Any] = {
        "regression": {m: asdict(f) for m, f in fits.items()},
        "range_normalized": normalized_table(result.scores, result.human) if result.level == "system" else {},
    }
    if human.has_segments:
        out["adjacent_differences"] = [asdict(d) for d in adjacent_differences(human, names)]
    if result.level == "system" and len(references) > 1:
        streams = list(references)
        by_metric = {}
        by_index = {str(k): hyps for k, hyps in enumerate(systems)}
        # Given scores cannot be rescored against fewer references: only the metrics that read them.
        for metric in (m for m in metrics if "reference" in m.inputs()):

            def scores(subset: Sequence[int], metric: MetricObject = metric) -> list[float]:
                stats = metric.statistics(by_index, [streams[i] for i in subset])
                return [s.score().score for s in stats]

            found = reference_subsets(scores, len(streams), result.human, statistic, metric.higher_is_better)
            by_metric[metric.name] = {k: [asdict(c) for c in v] for k, v in found.items()}
        out["reference_subsets"] = {
            "statistic": statistic,
            "names": list(reference_names),
            "metrics": by_metric,
        }
    return out


__all__ = [
    "AdjacentDifference",
    "Regression",
    "SubsetCorrelation",
    "adjacent_differences",
    "analyses",
    "normalized_table",
    "range_normalized",
    "reference_subsets",
    "regression",
    "subset_sizes",
]
