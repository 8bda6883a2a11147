"""Metric scores against human judgments: correlations with bootstrap intervals, and the
significance of the difference between two metrics' correlations.

:func:`correlate` takes each metric's scores and the human scores of the same items
(systems, or segments) and gives every statistic of
:mod:`understudy.correlation.statistics` with a 95% bootstrap interval (items resampled
with replacement, seeded). A metric where lower is better (TER) is negated first, so
that a good metric correlates positively whatever it measures. Human scores far from
the others (more than 3.5 robust standard deviations from their median) are named, and
the correlations are given without them too: one item can carry or sink a correlation
of a dozen systems. :func:`compare` tests whether two metrics correlate differently by
paired permutation (Deutsch et al. 2021): each item's two standardized metric scores
are swapped at random.

Needs SciPy (``pip install 'understudy-mt[stats]'``).

>>> result = correlate({"BLEU": [20.1, 25.3, 30.2, 28.0]}, [-3.0, -2.1, -1.2, -1.9], ["a", "b", "c", "d"],
...                    statistics=("pearson", "kendall-b"), n_bootstrap=200)
>>> [(c.statistic, round(c.value, 3)) for c in result.correlations]
[('pearson', 0.981), ('kendall-b', 1.0)]
>>> result.signature.startswith("level:system|items:4|bs:200|resample:systems|seed:12345|")
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy._version import __version__
from understudy.correlation.statistics import STATISTICS, Scores
from understudy.errors import ConfigError, InputError
from understudy.inputs.human import HumanScores, mqm_weight, read_human, read_mqm
from understudy.stats import Stats

DEFAULT_STATISTICS = ("pearson", "spearman", "kendall-b")
"""What :func:`correlate` computes unless asked otherwise."""

DEFAULT_SEED = 12345
OUTLIER_SPREAD = 3.5
"""Robust standard deviations (1.4826 x the median absolute deviation) beyond which a human
score is called an outlier."""


@dataclass(frozen=True)
class Correlation:
    """One statistic of one metric against the human scores, with its 95% bootstrap interval."""

    metric: str
    statistic: str
    value: float
    low: float | None = None
    high: float | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    """What a statistic reports beside its value (acc-eq's tie threshold, SPA's p-values)."""

    def to_dict(self) -> dict[str, Any]:
        """``metric``, ``statistic``, ``value``, ``low``, ``high`` and the statistic's own fields."""
        return {
            "metric": self.metric,
            "statistic": self.statistic,
            "value": self.value,
            "low": self.low,
            "high": self.high,
            **self.extra,
        }

    def format(self, width: int = 3) -> str:
        """``0.912 [0.801, 0.970]``."""
        text = f"{self.value:.{width}f}"
        if self.low is not None and self.high is not None:
            text += f" [{self.low:.{width}f}, {self.high:.{width}f}]"
        return text


@dataclass(frozen=True)
class CorrelationResult:
    """Every metric's correlations with the human scores of the same items.

    ``scores`` holds each metric's scores as given (not negated); ``outliers`` names the
    items whose human score is far from the others, and ``without_outliers`` repeats the
    correlations without them (empty when there are none).
    """

    level: str
    items: tuple[str, ...]
    human: tuple[float, ...]
    scores: Mapping[str, tuple[float, ...]]
    correlations: tuple[Correlation, ...]
    n_bootstrap: int
    seed: int
    signature: str
    outliers: tuple[str, ...] = ()
    without_outliers: tuple[Correlation, ...] = ()
    metric_signatures: Mapping[str, str] = field(default_factory=dict)

    def get(self, metric: str, statistic: str) -> Correlation:
        """The correlation of ``metric`` by ``statistic``."""
        for c in self.correlations:
            if (c.metric, c.statistic) == (metric, statistic):
                return c
        raise KeyError((metric, statistic))

    def to_dict(self) -> dict[str, Any]:
        """Every number, the items and the signatures."""
        return {
            "level": self.level,
            "items": list(self.items),
            "human": list(self.human),
            "scores": {m: list(s) for m, s in self.scores.items()},
            "correlations": [c.to_dict() for c in self.correlations],
            "outliers": list(self.outliers),
            "without_outliers": [c.to_dict() for c in self.without_outliers],
            "n_bootstrap": self.n_bootstrap,
            "seed": self.seed,
            "signature": self.signature,
            "metric_signatures": dict(self.metric_signatures),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)


@dataclass(frozen=True)
class Comparison:
    """Whether metric ``a`` correlates with the human scores differently from metric ``b``."""

    a: str
    b: str
    statistic: str
    difference: float
    p_value: float
    n: int
    seed: int
    signature: str

    def to_dict(self) -> dict[str, Any]:
        """Every field."""
        return asdict(self)

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)


def _oriented(scores: Mapping[str, Scores], higher: Mapping[str, bool]) -> dict[str, NDArray[np.float64]]:
    return {
        m: np.asarray(s, dtype=np.float64) * (1.0 if higher.get(m, True) else -1.0) for m, s in scores.items()
    }


def _check_statistics(statistics: Sequence[str]) -> None:
    unknown = [s for s in statistics if s not in STATISTICS]
    if unknown or not statistics:
        name = repr(unknown[0]) if unknown else "(none)"
        raise ConfigError(f"unknown statistic {name}; known: {', '.join(STATISTICS)}")


Resampler = Callable[[np.random.Generator], tuple[dict[str, NDArray[np.float64]], NDArray[np.float64]]]
"""One bootstrap draw: every metric's (oriented) scores and the human scores of the resampled data."""


def _items_resampler(scores: dict[str, NDArray[np.float64]], human: NDArray[np.float64]) -> Resampler:
    """Draws the items (systems or segments) with replacement."""

    def draw(rng: np.random.Generator) -> tuple[dict[str, NDArray[np.float64]], NDArray[np.float64]]:
        pick = rng.integers(0, len(human), len(human))
        return {m: v[pick] for m, v in scores.items()}, human[pick]

    return draw


def _correlations(
    scores: dict[str, NDArray[np.float64]],
    human: NDArray[np.float64],
    statistics: Sequence[str],
    n_bootstrap: int,
    seed: int,
    resample: Resampler | None = None,
) -> tuple[Correlation, ...]:
    # Every metric and statistic sees the same draws, so their intervals are comparable.
    draw = resample or _items_resampler(scores, human)
    rng = np.random.default_rng(seed)
    samples: dict[tuple[str, str], list[float]] = {(m, s): [] for m in scores for s in statistics}
    for _ in range(n_bootstrap):
        drawn, h = draw(rng)
        if np.ptp(h) == 0:
            continue  # a draw of one repeated item has no correlation
        for metric, values in drawn.items():
            if np.ptp(values) == 0:
                continue
            for statistic in statistics:
                value = STATISTICS[statistic](values, h)
                if np.isfinite(value):
                    samples[(metric, statistic)].append(value)
    out = []
    for metric, values in scores.items():
        for statistic in statistics:
            found = samples[(metric, statistic)]
            low, high = (float(v) for v in np.percentile(found, [2.5, 97.5])) if found else (None, None)
            out.append(Correlation(metric, statistic, STATISTICS[statistic](values, human), low, high))
    return tuple(out)


def segment_resampler(
    stats: Mapping[str, Sequence[Stats[Any, Any]]],
    human: HumanScores,
    systems: Sequence[str],
    higher_is_better: Mapping[str, bool] | None = None,
) -> Resampler:
    """Draws the segments with replacement and rescores every system on them: its corpus score
    from the drawn segments' statistics, its human score the mean of its drawn judged segments
    (or its system score, when the human scores are system-level only)."""
    higher = higher_is_better or {}
    rows = {m: np.stack([s.rows for s in per_system]) for m, per_system in stats.items()}
    n_segments = next(iter(rows.values())).shape[1]
    judged = np.full((len(systems), n_segments), np.nan)
    if human.has_segments:
        for k, name in enumerate(systems):
            for segment, value in human.segments.get(name, {}).items():
                if segment <= n_segments:
                    judged[k, segment - 1] = value
    fixed = np.array([human.system[name] for name in systems], dtype=np.float64)

    def draw(rng: np.random.Generator) -> tuple[dict[str, NDArray[np.float64]], NDArray[np.float64]]:
        counts = np.bincount(rng.integers(0, n_segments, n_segments), minlength=n_segments)
        drawn = {}
        for metric, r in rows.items():
            totals = np.einsum("n,snw->sw", counts, r)
            sign = 1.0 if higher.get(metric, True) else -1.0
            drawn[metric] = sign * np.asarray(stats[metric][0].scores_of(totals), dtype=np.float64)
        if not human.has_segments:
            return drawn, fixed
        weight = np.where(np.isnan(judged), 0, counts[None, :])
        with np.errstate(invalid="ignore", divide="ignore"):
            h = np.nansum(judged * counts[None, :], axis=1) / weight.sum(axis=1)
        return drawn, np.where(np.isfinite(h), h, fixed)

    return draw


def outliers(human: Scores, names: Sequence[str]) -> tuple[str, ...]:
    """The items whose human score lies more than :data:`OUTLIER_SPREAD` robust standard
    deviations from the median of the others' scores."""
    values = np.asarray(human, dtype=np.float64)
    found = []
    for k, name in enumerate(names):
        others = np.delete(values, k)
        if len(others) < 3:
            return ()
        median = np.median(others)
        spread = 1.4826 * np.median(np.abs(others - median))
        if spread > 0 and abs(values[k] - median) > OUTLIER_SPREAD * spread:
            found.append(name)
    return tuple(found)


def correlate(
    scores: Mapping[str, Scores],
    human: Scores,
    items: Sequence[str],
    level: str = "system",
    statistics: Sequence[str] = DEFAULT_STATISTICS,
    n_bootstrap: int = 1000,
    seed: int = DEFAULT_SEED,
    higher_is_better: Mapping[str, bool] | None = None,
    human_name: str = "",
    metric_signatures: Mapping[str, str] | None = None,
    resample: Resampler | None = None,
) -> CorrelationResult:
    """Correlations of each metric's ``scores`` with ``human`` over the same ``items``.

    Intervals come from drawing the items with replacement, or from ``resample`` (for
    example :func:`segment_resampler`: segments drawn, systems rescored); the correlations
    without outliers always draw the items.
    """
    _check_statistics(statistics)
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, int) or n_bootstrap < 0:
        raise ConfigError(f"n_bootstrap must be a whole number of at least 0, got {n_bootstrap!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed must be a whole number of at least 0, got {seed!r}")
    h = np.asarray(human, dtype=np.float64)
    if len(items) != len(h) or any(len(s) != len(h) for s in scores.values()):
        raise InputError(f"{len(items)} items, {len(h)} human scores and metric scores of other lengths")
    if len(h) < 3:
        raise InputError(f"a correlation with an interval needs at least 3 items, got {len(h)}")
    oriented = _oriented(scores, higher_is_better or {})
    found = outliers(h, items)
    kept = np.array([name not in found for name in items])
    without = (
        _correlations({m: v[kept] for m, v in oriented.items()}, h[kept], statistics, n_bootstrap, seed)
        if found and kept.sum() >= 3
        else ()
    )
    unit = "segments" if resample is not None else ("systems" if level == "system" else "segments")
    pairs = [("level", level), ("items", str(len(h))), ("bs", str(n_bootstrap)), ("resample", unit)]
    pairs += [("seed", str(seed))]
    pairs += [("human", human_name)] if human_name else []
    pairs += [("version", f"understudy-{__version__}")]
    return CorrelationResult(
        level=level,
        items=tuple(items),
        human=tuple(float(v) for v in h),
        scores={m: tuple(float(v) for v in s) for m, s in scores.items()},
        correlations=_correlations(oriented, h, statistics, n_bootstrap, seed, resample),
        n_bootstrap=n_bootstrap,
        seed=seed,
        signature="|".join(f"{k}:{v}" for k, v in pairs),
        outliers=found,
        without_outliers=without,
        metric_signatures=dict(metric_signatures or {}),
    )


def compare(
    a: tuple[str, Scores],
    b: tuple[str, Scores],
    human: Scores,
    statistic: str = "pearson",
    n: int = 1000,
    seed: int = DEFAULT_SEED,
    higher_is_better: Mapping[str, bool] | None = None,
) -> Comparison:
    """Paired permutation test of ``corr(a) - corr(b)``: each item's standardized scores of the
    two metrics are swapped at random ``n`` times; the p-value counts differences at least as
    large as the one observed (plus one, over ``n + 1``)."""
    _check_statistics([statistic])
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"n (permutations) must be a whole number of at least 1, got {n!r}")
    oriented = _oriented({a[0]: a[1], b[0]: b[1]}, higher_is_better or {})
    h = np.asarray(human, dtype=np.float64)
    for name in (a[0], b[0]):
        _check_defined(name, oriented[name], h, statistic)
    za, zb = (_standardized(oriented[name]) for name in (a[0], b[0]))
    compute = STATISTICS[statistic]
    observed = compute(za, h) - compute(zb, h)
    rng = np.random.default_rng(seed)
    extreme = 0
    for _ in range(n):
        swap = rng.random(len(h)) < 0.5
        pa, pb = np.where(swap, zb, za), np.where(swap, za, zb)
        if abs(compute(pa, h) - compute(pb, h)) >= abs(observed) - 1e-12:
            extreme += 1
    pairs = [("stat", statistic), ("items", str(len(h))), ("perm", str(n)), ("seed", str(seed))]
    signature = "|".join(f"{k}:{v}" for k, v in [*pairs, ("version", f"understudy-{__version__}")])
    return Comparison(a[0], b[0], statistic, float(observed), (extreme + 1) / (n + 1), n, seed, signature)


def compare_all(
    scores: Mapping[str, Scores],
    human: Scores,
    statistic: str = "pearson",
    n: int = 1000,
    seed: int = DEFAULT_SEED,
    higher_is_better: Mapping[str, bool] | None = None,
) -> list[Comparison]:
    """:func:`compare` of each pair of metrics, in the order given.

    >>> found = compare_all({"a": [1, 2, 3, 4], "b": [1, 3, 2, 4], "c": [4, 3, 2, 1]}, [1, 2, 3, 4], n=10)
    >>> [(c.a, c.b) for c in found]
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    names = list(scores)
    return [
        compare((a, scores[a]), (b, scores[b]), human, statistic, n, seed, higher_is_better)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]


def _check_defined(
    name: str, values: NDArray[np.float64], human: NDArray[np.float64], statistic: str
) -> None:
    """Refuses a metric whose correlation is undefined: no difference, so no p-value, exists."""
    if len(values) != len(human):
        raise InputError(f"{name!r} has {len(values)} scores for {len(human)} human scores")
    why = ""
    if not np.isfinite(human).all():
        why = "a human score is not a number"
    elif not np.isfinite(values).all():
        why = f"a score of {name!r} is not a number"
    elif len(human) and np.ptp(human) == 0:
        why = "the human scores are all equal"
    elif len(values) and np.ptp(values) == 0:
        why = f"the scores of {name!r} are all equal"
    elif not np.isfinite(STATISTICS[statistic](values, human)):
        why = f"{statistic} is undefined on these scores"
    if why:
        raise InputError(
            f"cannot compare correlations: the {statistic} correlation of {name!r} is undefined ({why})"
        )


def _standardized(values: NDArray[np.float64]) -> NDArray[np.float64]:
    spread = float(values.std())
    centred: NDArray[np.float64] = values - values.mean()
    return centred / spread if spread > 0 else centred


def unscored_notes(human: Scores, unscored: Mapping[str, float], width: int = 3) -> list[str]:
    """What a human file scores that was not scored here (a reference, often), and whether it is
    judged worse than every scored system: then the choice of reference matters.

    >>> unscored_notes([-2.0, -1.5], {"ref-A": -5.5})
    ['Also in the human file, not scored here: ref-A (-5.500).', \
'Judged worse than every scored system: ref-A (a reference? then the choice of reference matters).']
    """
    if not unscored:
        return []
    listed = ", ".join(f"{n} ({v:.{width}f})" for n, v in sorted(unscored.items(), key=lambda kv: kv[1]))
    notes = [f"Also in the human file, not scored here: {listed}."]
    worse = [n for n, v in unscored.items() if v < min(human)]
    if worse:
        notes.append(
            f"Judged worse than every scored system: {', '.join(worse)} (a reference? then "
            "the choice of reference matters)."
        )
    return notes


__all__ = [
    "DEFAULT_STATISTICS",
    "STATISTICS",
    "Comparison",
    "Correlation",
    "CorrelationResult",
    "HumanScores",
    "compare",
    "compare_all",
    "correlate",
    "mqm_weight",
    "outliers",
    "read_human",
    "read_mqm",
    "segment_resampler",
    "unscored_notes",
]
