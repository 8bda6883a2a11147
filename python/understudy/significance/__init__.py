"""Is a difference in score real? Confidence intervals and paired tests, from segment statistics.

Every function takes the statistics of any metric (:class:`~understudy.stats.Stats`:
BLEU, chrF or TER) and scores resampled sums with that metric's one scoring function.

- :func:`bootstrap_ci`: a 95% interval for one system (sacrebleu's ``--confidence``).
- :func:`paired_test`: each system against a baseline by paired bootstrap resampling
  (``"bs"``) or approximate randomization (``"ar"``), sacrebleu's ``--paired-bs`` and
  ``--paired-ar``.
- :func:`all_pairs`: every system against every other, grouped into clusters.
- :func:`block_ttest`: the BLEU paper's own test (Section 3, Table 2): BLEU per block
  of consecutive segments, and paired t-statistics between systems.

Nothing is re-tokenized: every resampled corpus is a sum of the systems' statistics
rows, and all resamples are summed at once as one matrix product (exact: integer sums
far below 2**53). With the same seed, the resamples, intervals and p-values are
sacrebleu 2.6.0's, except where sacrebleu has a bug, fixed here under an explicit name:

- ``p_values="at-least"`` (the default) counts resamples at least as extreme as the
  observed difference, so identical systems get p = 1; ``p_values="sacrebleu"`` counts
  strictly greater ones, as sacrebleu does, which gives identical systems
  p = 1/(n+1) and a significance star.
- seed 0 is a seed; sacrebleu silently runs its paired tests unseeded for it.

The seed is always an argument (default 12345, sacrebleu's), never global state.

>>> from understudy import BLEU
>>> bleu = BLEU(references=[["the cat sat on the mat", "a dog", "it rains", "so it goes"]])
>>> a = bleu.segment_stats(["the cat sat on a mat", "a dog", "it rains", "so it goes"])
>>> result = paired_test([a, a], ["A", "A again"], test="bs", n=100)
>>> result.systems[0].p_value
1.0
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from understudy.config import MetricConfig
from understudy.errors import ConfigError, EmptyInputError, InputError, LengthMismatchError
from understudy.seeding import DEFAULT_SEED
from understudy.signature import Signature
from understudy.stats import Stats
from understudy.wording import counted

DEFAULT_SAMPLES = {"bs": 1000, "ar": 10000}
"""Default resamples (paired bootstrap, confidence intervals) and trials (randomization)."""
PValues = Literal["at-least", "sacrebleu"]
Test = Literal["bs", "ar"]


@dataclass(frozen=True)
class SystemScore:
    """One system's BLEU, with its resampled mean ± 95% half-width and its p-value
    against the baseline (``None`` where not computed, and for the baseline itself)."""

    name: str
    score: float
    mean: float | None = None
    ci: float | None = None
    p_value: float | None = None

    def significant(self, alpha: float = 0.05) -> bool:
        """True when the p-value is at most ``alpha``."""
        return self.p_value is not None and self.p_value <= alpha


@dataclass(frozen=True)
class ConfidenceResult:
    """:func:`bootstrap_ci` of one system."""

    system: SystemScore
    n: int
    seed: int
    signature: Signature

    def to_dict(self) -> dict[str, Any]:
        """Every number, and the signature."""
        return {**asdict(self.system), "n": self.n, "seed": self.seed, "signature": self.signature.format()}


@dataclass(frozen=True)
class PairedResult:
    """:func:`paired_test`: the baseline and every other system against it."""

    test: Test
    n: int
    seed: int
    p_values: PValues
    baseline: SystemScore
    systems: tuple[SystemScore, ...]
    signature: Signature

    def to_dict(self) -> dict[str, Any]:
        """Every number, and the signature."""
        return {
            "test": self.test,
            "n": self.n,
            "seed": self.seed,
            "p_values": self.p_values,
            "baseline": asdict(self.baseline),
            "systems": [asdict(s) for s in self.systems],
            "signature": self.signature.format(),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)


def _check(stats: Sequence[Stats[Any, Any]], names: Sequence[str]) -> MetricConfig:
    if len(stats) != len(names):
        raise ConfigError(f"{len(stats)} systems but {len(names)} names")
    if not stats:
        raise ConfigError("no systems to test")
    if len(stats[0]) == 0:
        raise EmptyInputError("no segments to resample: the statistics are empty")
    config: MetricConfig = stats[0].config
    for s, name in zip(stats, names, strict=True):
        if type(s) is not type(stats[0]) or s.config != config:
            raise ConfigError(f"{name} was counted with {s.config}, not {config}")
        if len(s) != len(stats[0]):
            raise LengthMismatchError(
                f"{name} has {counted(len(s), 'segment')} but {names[0]} has {len(stats[0])}"
            )
    return config


def _resample_counts(indices: NDArray[np.int64], n_segments: int) -> NDArray[np.float64]:
    """How often each segment is drawn in each resample: (resamples, segments)."""
    n = len(indices)
    flat = (indices + n_segments * np.arange(n)[:, None]).ravel()
    return np.bincount(flat, minlength=n * n_segments).reshape(n, n_segments).astype(np.float64)


def _sums(weights: NDArray[np.float64] | NDArray[np.bool_], rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """``weights @ rows``, exactly, a block of resamples at a time.

    Products and sums of integers are exact in floating point while they stay below
    2**24 (float32) or 2**53 (float64), whatever order BLAS adds them in; the bound
    picks the faster type that is exact for these inputs. Beyond 2**53 (fixed-point
    statistics of millions of segments) the product is taken in int64, exact and slower;
    beyond int64 it is refused.
    """
    # In floating point: an int64 sum could itself wrap. The margin covers its rounding.
    column_sums = np.abs(rows.astype(np.float64)).sum(axis=0).max(initial=0)
    bound = float(column_sums) * float(np.abs(weights).max(initial=0)) * (1 + 1e-9)
    if bound >= 2**63:
        raise InputError(
            f"resampled sums of these statistics reach {bound:.3g}, beyond int64: they cannot be "
            "summed exactly; score fewer segments at a time"
        )
    dtype: type[np.number[Any]] = np.float32 if bound < 2**24 else np.float64 if bound < 2**53 else np.int64
    table: NDArray[np.number[Any]] = rows.astype(dtype)
    out = np.empty((len(weights), rows.shape[1]), dtype=np.int64)
    for start in range(0, len(weights), 2048):
        block: NDArray[np.number[Any]] = weights[start : start + 2048].astype(dtype)
        product = np.matmul(block, table)
        out[start : start + 2048] = product if dtype is np.int64 else np.rint(product)
    return out


def _estimate(scores: NDArray[np.floating[Any]]) -> tuple[float, float]:
    """sacrebleu's ``estimate_ci``: mean of the sorted scores, half the 2.5%-97.5% range."""
    ordered = np.sort(scores)
    low = len(ordered) // 40
    return float(ordered.mean()), float(0.5 * (ordered[len(ordered) - low - 1] - ordered[low]))


BLOCK_CELLS = 1 << 23
"""Resample x segment cells drawn at a time (about 16 bytes each): memory stays bounded
whatever the number of segments or resamples."""


def _block_rows(n_segments: int) -> int:
    # A multiple of 32 rows: NumPy draws booleans 32 bits at a time, and blocks that end on
    # a 32-bit boundary give exactly the numbers of one large draw (as do choice's).
    return max(32, BLOCK_CELLS // max(1, n_segments) // 32 * 32)


def _bootstrap_sums(rng: np.random.Generator, n: int, rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """The row sums of ``n`` bootstrap resamples, drawn from ``rng`` exactly as sacrebleu's
    ``rng.choice(N, size=(n, N))``, a block of resamples at a time."""
    n_segments = len(rows)
    out = np.empty((n, rows.shape[1]), dtype=np.int64)
    step = _block_rows(n_segments)
    for start in range(0, n, step):
        size = min(step, n - start)
        indices: NDArray[np.int64] = rng.choice(n_segments, size=(size, n_segments), replace=True)
        out[start : start + size] = _sums(_resample_counts(indices, n_segments), rows)
    return out


def _mask_sums(rng: np.random.Generator, n: int, rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """``mask @ rows`` for sacrebleu's ``rng.integers(2, size=(n, N), dtype=bool)``, a block
    of trials at a time."""
    n_segments = len(rows)
    out = np.empty((n, rows.shape[1]), dtype=np.int64)
    step = _block_rows(n_segments)
    for start in range(0, n, step):
        size = min(step, n - start)
        out[start : start + size] = _sums(rng.integers(2, size=(size, n_segments), dtype=bool), rows)
    return out


def _side_by_side(
    stats: Sequence[Stats[Any, Any]], sums: Callable[[NDArray[np.int64]], NDArray[np.int64]]
) -> list[NDArray[np.int64]]:
    """``sums(rows)`` of every system, for systems side by side (one matrix product for
    many systems) in groups small enough to keep memory bounded."""
    width = stats[0].rows.shape[1]
    per_group = max(1, BLOCK_CELLS // max(1, len(stats[0]) * width))
    out = []
    for start in range(0, len(stats), per_group):
        group = stats[start : start + per_group]
        both = sums(np.hstack([s.rows for s in group]))
        out += [both[:, k * width : (k + 1) * width] for k in range(len(group))]
    return out


def _whole(name: str, value: object, minimum: int) -> int:
    """``value`` as an int, if it is a whole number of at least ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ConfigError(f"{name} must be a whole number of at least {minimum}, got {value!r}")
    return int(value)


def _signature(stats: Stats[Any, Any], extras: list[tuple[str, str]]) -> Signature:
    return replace(stats.signature, extras=tuple(extras))


def bootstrap_ci(
    stats: Stats[Any, Any], n: int = 1000, seed: int = DEFAULT_SEED, name: str = ""
) -> ConfidenceResult:
    """The resampled mean and 95% interval of one system's BLEU, as sacrebleu's ``--confidence``.

    >>> from understudy import BLEU
    >>> stats = BLEU().segment_stats(["a b c d e"] * 3 + ["x y"], [["a b c d e"] * 4])
    >>> r = bootstrap_ci(stats, n=200)
    >>> r.system.score > 0, r.signature.format().startswith("nrefs:1|bs:200|seed:12345|")
    (True, True)
    """
    _check([stats], [name])
    n, seed = _whole("n (bootstrap resamples)", n, 1), _whole("seed", seed, 0)
    scores = stats.scores_of(_bootstrap_sums(np.random.default_rng(seed), n, stats.rows), float32=True)
    # sacrebleu's single-system interval takes statistics.mean (exactly rounded) of its
    # scores as they are: Python floats for BLEU, NumPy float32 scalars for chrF and TER.
    ordered = sorted(scores.tolist() if scores.dtype == np.float64 else list(scores))
    low = n // 40
    half_width = 0.5 * (ordered[n - low - 1] - ordered[low])
    import statistics  # sacrebleu's exactly rounded mean; imported where it is needed

    system = SystemScore(name, stats.score().score, float(statistics.mean(ordered)), float(half_width))
    return ConfidenceResult(system, n, seed, _signature(stats, [("bs", str(n)), ("seed", str(seed))]))


def _samples(test: str, n: int | None) -> int:
    """The number of resamples or trials: ``n``, or the test's default; checked."""
    if test not in DEFAULT_SAMPLES:
        raise ConfigError(f"test must be 'bs' or 'ar', not {test!r}")
    return _whole("n (resamples or trials)", DEFAULT_SAMPLES[test] if n is None else n, 1)


def _ar_difference(
    baseline: Stats[Any, Any], system: Stats[Any, Any], swapped: NDArray[np.int64], observed: float
) -> tuple[NDArray[Any], float | int]:
    """|score(A) - score(B)| per trial, where A takes the baseline's segments where the mask
    is set and the system's elsewhere, and B the rest: with ``swapped`` = mask @ (baseline -
    system), A = total(system) + swapped and B = total(baseline) - swapped; and the ``observed``
    difference of the two scores. Where the family's scores are exact sums (given scores),
    both are exact integers, so that a trial ties the observed difference only when it does."""
    a, b = system.total() + swapped, baseline.total() - swapped
    exact_a = baseline.exact_sums(a)
    if exact_a is not None:
        exact_b = baseline.exact_sums(b)
        totals = baseline.exact_sums(np.stack([baseline.total(), system.total()]))
        assert exact_b is not None and totals is not None
        trials = np.array([abs(x - y) for x, y in zip(exact_a, exact_b, strict=True)], dtype=object)
        return trials, abs(totals[0] - totals[1])
    return np.abs(baseline.scores_of(a) - baseline.scores_of(b)), observed


def _p_value(extremes: NDArray[Any], observed: float | int, p_values: PValues) -> float:
    if p_values == "sacrebleu":
        count = int(np.sum(extremes > observed))
    elif p_values == "at-least":
        count = int(np.sum(extremes >= observed))
    else:
        raise ConfigError(f"p_values must be 'at-least' or 'sacrebleu', not {p_values!r}")
    return (count + 1) / (len(extremes) + 1)


def paired_test(
    stats: Sequence[Stats[Any, Any]],
    names: Sequence[str],
    test: Test = "bs",
    n: int | None = None,
    seed: int = DEFAULT_SEED,
    p_values: PValues = "at-least",
    ar_confidence: int = 1000,
    progress: Callable[[int, int], None] | None = None,
) -> PairedResult:
    """Every system against the first (the baseline), by paired bootstrap or randomization.

    ``n`` is the number of resamples (``bs``, default 1000) or trials (``ar``, default
    10000). Every system gets its resampled mean ± 95% interval (for ``ar`` from
    ``ar_confidence`` bootstrap resamples, sacrebleu's ``n_ar_confidence``; 0 turns it
    off) and its p-value against the baseline. ``progress(done, total)`` is called as
    systems are done.
    """
    _check(stats, names)
    if len(stats) < 2:
        raise ConfigError("a paired test needs a baseline and at least one other system")
    n = _samples(test, n)
    seed = _whole("seed", seed, 0)
    ar_confidence = _whole("ar_confidence", ar_confidence, 0)
    actual = [s.score().score for s in stats]
    confidence = n if test == "bs" else ar_confidence
    baseline_mean = baseline_ci = None
    if test == "ar" and confidence > 0:
        sums = _bootstrap_sums(np.random.default_rng(seed), confidence, stats[0].rows)
        baseline_mean, baseline_ci = _estimate(stats[0].scores_of(sums, True))
    systems = []
    if test == "bs":
        # One draw serves every system: sacrebleu reseeds per system with the same seed.
        all_sums = _side_by_side(stats, lambda rows: _bootstrap_sums(np.random.default_rng(seed), n, rows))
        scores = [stats[0].scores_of(sums, True) for sums in all_sums]
        baseline_mean, baseline_ci = _estimate(scores[0])
        for k in range(1, len(stats)):
            mean, ci = _estimate(scores[k])
            diffs = np.abs(scores[k] - scores[0])
            p = _p_value(diffs - diffs.mean(), abs(actual[0] - actual[k]), p_values)
            systems.append(SystemScore(names[k], actual[k], mean, ci, p))
    else:
        for k in range(1, len(stats)):
            systems.append(_ar_one(stats[0], stats[k], names[k], actual, k, n, seed, p_values, ar_confidence))
            if progress is not None:
                progress(k, len(stats) - 1)
    extras = [("bs", str(confidence))] if test == "bs" else [("bs", str(confidence))] * (confidence > 0)
    extras = [*([("ar", str(n))] if test == "ar" else []), *extras]
    extras = sorted(extras, key=lambda kv: ["bs", "ar"].index(kv[0]))
    signature = _signature(stats[0], [*extras, ("seed", str(seed)), ("pvalue", p_values)])
    baseline = SystemScore(names[0], actual[0], baseline_mean, baseline_ci)
    return PairedResult(test, n, seed, p_values, baseline, tuple(systems), signature)


def drop_beyond(
    baseline: Stats[Any, Any],
    candidate: Stats[Any, Any],
    margin: float,
    n: int | None = None,
    seed: int = DEFAULT_SEED,
) -> float:
    """The one-sided p-value that ``candidate`` is worse than ``baseline`` by more than ``margin``
    (the metric's units), by paired bootstrap resampling: the null hypothesis is a true drop of
    exactly ``margin``, so the resampled drops are centred there (the shifted null), and ``p`` is
    the share of them, counting the observed one, at least as large as the observed drop. A small
    ``p`` says the drop exceeds the margin; the same resamples as :func:`paired_test`'s.

    >>> from understudy import BLEU
    >>> refs = [["the cat sat on the mat", "a dog barked", "it rains"] * 20]
    >>> base = BLEU().segment_stats(["the cat sat on the mat", "a dog barked", "it rains"] * 20, refs)
    >>> worse = BLEU().segment_stats(["the cat sat on the mat", "a dog", "it rains"] * 20, refs)
    >>> drop = base.score().score - worse.score().score
    >>> drop_beyond(base, worse, drop + 5, n=200) > 0.5, drop_beyond(base, worse, 0.0, n=200) < 0.05
    (True, True)
    """
    _check([baseline, candidate], ["baseline", "candidate"])
    n = _samples("bs", n)
    seed = _whole("seed", seed, 0)
    sums = _side_by_side(
        [baseline, candidate], lambda rows: _bootstrap_sums(np.random.default_rng(seed), n, rows)
    )
    sign = 1.0 if baseline.config.higher_is_better else -1.0
    drops = sign * (baseline.scores_of(sums[0]) - baseline.scores_of(sums[1]))
    observed = sign * (baseline.score().score - candidate.score().score)
    return _p_value(drops - drops.mean() + margin, observed, "at-least")


def paired_tests(
    per_metric: Sequence[Sequence[Stats[Any, Any]]],
    names: Sequence[str],
    test: Test = "bs",
    n: int | None = None,
    seed: int = DEFAULT_SEED,
    p_values: PValues = "at-least",
    ar_confidence: int = 1000,
    progress: Callable[[int, int], None] | None = None,
) -> list[PairedResult]:
    """:func:`paired_test` by each metric (``per_metric[m]``: each system's statistics), as
    sacrebleu's command line runs them; ``progress(done, total)`` counts systems over all.

    >>> from understudy import BLEU, CHRF
    >>> refs = [["the cat sat on the mat", "a dog barked"]]
    >>> systems = [["the cat sat on a mat", "a dog"], ["the cat sat on the mat", "a dog barked"]]
    >>> per_metric = [[m.segment_stats(s, refs) for s in systems] for m in (BLEU(), CHRF())]
    >>> found = paired_tests(per_metric, ["A", "B"], n=50)
    >>> [r.signature.config.name for r in found], [r.systems[0].name for r in found]
    (['BLEU', 'chrF2'], ['B', 'B'])
    """
    each = len(names) - 1
    results = []
    for m, stats in enumerate(per_metric):

        def advance(k: int, _: int, done: int = m * each) -> None:
            if progress is not None:
                progress(done + k, each * len(per_metric))

        results.append(paired_test(stats, names, test, n, seed, p_values, ar_confidence, advance))
    return results


def _ar_one(
    baseline: Stats[Any, Any],
    system: Stats[Any, Any],
    name: str,
    actual: list[float],
    k: int,
    n: int,
    seed: int,
    p_values: PValues,
    confidence: int,
) -> SystemScore:
    rng = np.random.default_rng(seed)
    swapped = _mask_sums(rng, n, baseline.rows - system.rows)
    p = _p_value(*_ar_difference(baseline, system, swapped, abs(actual[0] - actual[k])), p_values)
    mean = ci = None
    if confidence > 0:
        # The same generator continues: sacrebleu draws the bootstrap after the mask.
        mean, ci = _estimate(system.scores_of(_bootstrap_sums(rng, confidence, system.rows), True))
    return SystemScore(name, actual[k], mean, ci, p)


@dataclass(frozen=True)
class PairComparison:
    """Two systems and the p-value of their difference."""

    a: str
    b: str
    p_value: float


@dataclass(frozen=True)
class AllPairsResult:
    """:func:`all_pairs`: systems ranked by score, every pair's p-value, and clusters."""

    test: Test
    n: int
    seed: int
    p_values: PValues
    alpha: float
    ranking: tuple[SystemScore, ...]
    pairs: tuple[PairComparison, ...]
    clusters: tuple[tuple[str, ...], ...]
    signature: Signature

    def p_value(self, a: str, b: str) -> float:
        """The p-value of systems ``a`` and ``b`` (in either order)."""
        for pair in self.pairs:
            if {pair.a, pair.b} == {a, b}:
                return pair.p_value
        raise KeyError(f"no comparison of {a!r} and {b!r}")

    def ranked_p_values(self) -> tuple[tuple[float | None, ...], ...]:
        """Every two systems' p-value, rows and columns in the ranking's order (``None`` where a
        system meets itself)."""
        of = {frozenset((p.a, p.b)): p.p_value for p in self.pairs}
        names = [s.name for s in self.ranking]
        return tuple(tuple(None if a == b else of[frozenset((a, b))] for b in names) for a in names)

    def to_dict(self) -> dict[str, Any]:
        """Every number, and the signature."""
        return {
            "test": self.test,
            "n": self.n,
            "seed": self.seed,
            "p_values": self.p_values,
            "alpha": self.alpha,
            "ranking": [asdict(s) for s in self.ranking],
            "pairs": [asdict(p) for p in self.pairs],
            "clusters": [list(c) for c in self.clusters],
            "signature": self.signature.format(),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)


def all_pairs(
    stats: Sequence[Stats[Any, Any]],
    names: Sequence[str],
    test: Test = "bs",
    n: int | None = None,
    seed: int = DEFAULT_SEED,
    p_values: PValues = "at-least",
    alpha: float = 0.05,
) -> AllPairsResult:
    """Every system against every other, ranked by score and grouped into clusters.

    Each pair's p-value is the one :func:`paired_test` gives with either of them as the
    baseline (both tests are symmetric), so the result does not depend on the order
    the systems are given in. Walking down the ranking, a system joins the current
    cluster unless it is significantly different (p <= ``alpha``) from the cluster's
    best system, where it starts a new one.
    """
    _check(stats, names)
    if len(set(names)) != len(names):
        raise ConfigError("system names must be distinct")
    n = _samples(test, n)
    seed = _whole("seed", seed, 0)
    if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
        raise ConfigError(f"alpha must be a number between 0 and 1, got {alpha!r}")
    actual = [s.score().score for s in stats]
    n_boot = DEFAULT_SAMPLES["bs"] if test == "ar" else n
    all_sums = _side_by_side(stats, lambda rows: _bootstrap_sums(np.random.default_rng(seed), n_boot, rows))
    boot = [stats[0].scores_of(sums, True) for sums in all_sums]
    if test == "ar":
        masked = _side_by_side(stats, lambda rows: _mask_sums(np.random.default_rng(seed), n, rows))
    pairs = []
    for i in range(len(stats)):
        for j in range(i + 1, len(stats)):
            observed = abs(actual[i] - actual[j])
            if test == "bs":
                diffs = np.abs(boot[i] - boot[j])
                p = _p_value(diffs - diffs.mean(), observed, p_values)
            else:
                swapped = masked[i] - masked[j]
                p = _p_value(*_ar_difference(stats[i], stats[j], swapped, observed), p_values)
            pairs.append(PairComparison(names[i], names[j], p))
    # Best first: the highest score, or the lowest for an error rate (TER).
    sign = -1 if stats[0].higher_is_better else 1
    order = sorted(range(len(stats)), key=lambda k: (sign * actual[k], names[k]))
    ranking = tuple(SystemScore(names[k], actual[k], *_estimate(boot[k])) for k in order)
    result = AllPairsResult(test, n, seed, p_values, alpha, ranking, tuple(pairs), (), stats[0].signature)
    p_of = {frozenset((p.a, p.b)): p.p_value for p in pairs}  # one look-up a system, not a scan
    clusters = walk_clusters([system.name for system in ranking], p_of, alpha)
    extras = [("bs", str(n if test == "bs" else DEFAULT_SAMPLES["bs"]))]
    extras += [("ar", str(n))] if test == "ar" else []
    signature = _signature(stats[0], [*extras, ("seed", str(seed)), ("pvalue", p_values)])
    return replace(result, clusters=clusters, signature=signature)


def walk_clusters(
    ranking: Sequence[str], p_of: Mapping[frozenset[str], float], alpha: float
) -> tuple[tuple[str, ...], ...]:
    """Clusters of a ranking (best first): walking down it, a system joins the current cluster
    unless it differs significantly (``p_of`` its pair's p-value <= ``alpha``) from the
    cluster's best, where it starts a new one.

    >>> p_of = {frozenset("ab"): 0.4, frozenset("ac"): 0.01, frozenset("bc"): 0.3}
    >>> walk_clusters(["a", "b", "c"], p_of, 0.05)
    (('a', 'b'), ('c',))
    """
    clusters: list[list[str]] = []
    for name in ranking:
        if clusters and p_of[frozenset((clusters[-1][0], name))] > alpha:
            clusters[-1].append(name)
        else:
            clusters.append([name])
    return tuple(tuple(c) for c in clusters)


def bootstrap_p_value(resampled: NDArray[Any], observed: float) -> float:
    """The paired bootstrap's p-value of an observed absolute difference, from the resamples'
    absolute differences (centred; at least as extreme counts, as ``compare``'s default)."""
    return _p_value(resampled - resampled.mean(), observed, "at-least")


def student_t_p_value(t: float, df: int) -> float:
    """Two-sided p-value of Student's t statistic with ``df`` degrees of freedom (SciPy's
    ``scipy.stats.t``; extra ``stats``).

    >>> round(student_t_p_value(2.093, 19), 4)  # the 5% critical value for 19 df
    0.05
    >>> abs(student_t_p_value(1.0, 1) - 0.5) < 1e-12  # Cauchy: 1 - 2 atan(1) / pi
    True
    """
    if df < 1:
        raise ConfigError(f"a t-test needs at least 1 degree of freedom, got {df}")
    if math.isnan(t):
        return math.nan
    from understudy.correlation.statistics import scipy_stats

    return float(2.0 * scipy_stats().t.sf(abs(t), df))


@dataclass(frozen=True)
class BlockSystem:
    """One system in the block test: corpus BLEU, BLEU of each block, their mean and standard deviation."""

    name: str
    score: float
    block_scores: tuple[float, ...]
    mean: float
    sd: float


@dataclass(frozen=True)
class BlockComparison:
    """The paired t-test between two systems adjacent in the ranking (``better`` first)."""

    better: str
    worse: str
    t: float
    p_value: float


@dataclass(frozen=True)
class BlockTestResult:
    """:func:`block_ttest`: the BLEU paper's Table 2 for any number of systems."""

    block_sizes: tuple[int, ...]
    systems: tuple[BlockSystem, ...]
    comparisons: tuple[BlockComparison, ...]
    signature: Signature

    @property
    def blocks_described(self) -> str:
        """How the segments were split, e.g. ``3004 segments in 20 blocks: 4 of 151 and 16 of 150``."""
        sizes = sorted(set(self.block_sizes), reverse=True)
        parts = [f"{self.block_sizes.count(size)} of {size}" for size in sizes]
        blocks = counted(len(self.block_sizes), "block")
        return f"{counted(sum(self.block_sizes), 'segment')} in {blocks}: {' and '.join(parts)}"

    def to_dict(self) -> dict[str, Any]:
        """Every number, and the signature."""
        return {
            "block_sizes": list(self.block_sizes),
            "blocks": self.blocks_described,
            "systems": [asdict(s) for s in self.systems],
            "comparisons": [asdict(c) for c in self.comparisons],
            "signature": self.signature.format(),
        }

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False)


def block_ttest(stats: Sequence[Stats[Any, Any]], names: Sequence[str], blocks: int = 20) -> BlockTestResult:
    """The BLEU paper's significance test (Section 3, Table 2).

    The segments are split into ``blocks`` runs of consecutive segments; when they do
    not divide evenly, the first blocks take one segment more (``block_sizes`` says how
    many each has). Each system gets its BLEU on every block, their mean and sample
    standard deviation; systems are ranked by mean block BLEU, and each is compared with
    the next by a paired t-test over the blocks (t with ``blocks - 1`` degrees of
    freedom, two-sided p-value).
    """
    _check(stats, names)
    n_segments = len(stats[0])
    blocks = _whole("blocks", blocks, 2)
    if blocks > n_segments:
        raise ConfigError(
            f"{blocks} blocks need at least {counted(blocks, 'segment')}, there are {n_segments}"
        )
    bounds = np.cumsum([0, *(len(part) for part in np.array_split(np.arange(n_segments), blocks))])
    systems = []
    for s, name in zip(stats, names, strict=True):
        block_rows = np.add.reduceat(s.rows, bounds[:-1], axis=0)
        scores = s.scores_of(block_rows)
        systems.append(
            BlockSystem(
                name, s.score().score, tuple(scores.tolist()), float(scores.mean()), float(scores.std(ddof=1))
            )
        )
    sign = -1 if stats[0].higher_is_better else 1
    systems.sort(key=lambda b: (sign * b.mean, b.name))
    comparisons = []
    for better, worse in itertools.pairwise(systems):
        # Positive when the better system is better, whichever way the metric points.
        diffs = -sign * (np.array(better.block_scores) - np.array(worse.block_scores))
        sd = float(diffs.std(ddof=1))
        # Equal block scores everywhere: no difference (t = 0, p = 1), not 0/0.
        t = float(diffs.mean()) / (sd / math.sqrt(blocks)) if sd > 0 else (math.inf if diffs.mean() else 0.0)
        comparisons.append(BlockComparison(better.name, worse.name, t, student_t_p_value(t, blocks - 1)))
    signature = _signature(stats[0], [("blocks", str(blocks))])
    return BlockTestResult(
        tuple(int(x) for x in np.diff(bounds)), tuple(systems), tuple(comparisons), signature
    )
