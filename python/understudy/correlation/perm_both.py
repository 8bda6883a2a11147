"""PERM-BOTH (Deutsch et al. 2021): is one metric's correlation with the humans significantly
better than another's? And WMT's significance clusters of many metrics.

Both metrics' scores are z-scored; each resample swaps every cell between them with probability
1/2 and computes the statistic of both mixtures; the p-value is the share of resamples whose
difference is at least the observed one. This is mt-metrics-eval's ``PermutationSigDiff``, with
its early stopping (after every ``block_size`` resamples, stop when the p-value so far is below
``early_min`` or above ``early_max``; WMT's tasks use blocks of 100) and its random numbers: a
:class:`numpy.random.RandomState` seeded once, each resample's swaps drawn as its
``binomial(1, 0.5, cells)``, and one stream through all the pairs of :func:`clusters`. The
mixtures are computed a block at a time (:mod:`understudy.correlation.batched`), which is where
the speed comes from; the coins are drawn by the Rust core from the stream's state
(:func:`coins`), the same as NumPy's, without making its doubles.

acc-eq as WMT24 runs it is :func:`pairs_perm_both` (mt-metrics-eval's
``PairwisePermutationSigDiff``): each metric keeps its own optimised tie threshold, and each
resample swaps pairwise comparisons, not scores. Its early stopping is checked only after a
resample whose difference counted, as mt-metrics-eval's code does; kept so.

Needs SciPy (``pip install 'understudy-mt[stats]'``) for the z-scores.

>>> human = np.array([[0.0, -1.0, -3.0, -2.0], [-2.0, -1.0, -2.0, -4.0], [-1.0, 0.0, -5.0, -1.0]])
>>> good = human + np.array([[0.1, -0.2, 0.3, 0.0], [0.2, 0.1, -0.1, 0.3], [0.0, 0.2, 0.1, -0.3]])
>>> bad = good[:, ::-1].copy()
>>> result = perm_both("pearson", good, bad, human, "none", resamples=200, seed=1)
>>> result.delta > 0.5 and result.p_value < 0.05  # good correlates better, significantly
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy.correlation.batched import (
    Batched,
    BatchedSpa,
    GroupedScalar,
    Layout,
    MixedPearson,
    PerMixture,
    average_defined,
)
from understudy.correlation.matrices import score_matrix
from understudy.correlation.spa import DEFAULT_PERMUTATIONS, DEFAULT_SEED, PermutationSigns
from understudy.correlation.statistics import STATISTICS, scipy_stats
from understudy.correlation.ties import groups, tie_calibrated_accuracy
from understudy.errors import ConfigError, InputError

CHUNK = 64
"""Resamples computed together (fewer at a block boundary)."""
CHUNK_DRAWS = 4_000_000
"""At most this many random numbers drawn together (the pairs test draws n x n per group)."""


@dataclass(frozen=True)
class EarlyStopping:
    """mt-metrics-eval's ``PermutationSigDiffParams`` as WMT's tasks set them."""

    block_size: int = 100
    early_min: float = 0.02
    early_max: float = 0.5


@dataclass(frozen=True)
class PermBoth:
    """The p-value of "``better`` correlates better than ``worse``", the observed difference of
    their statistics (on z-scored scores), and the resamples drawn before stopping."""

    better: str
    worse: str
    statistic: str
    average_by: str
    p_value: float
    delta: float
    resamples: int


def _zscore(values: NDArray[np.float64]) -> NDArray[np.float64]:
    out: NDArray[np.float64] = np.asarray(scipy_stats().zscore(values), dtype=np.float64)
    return out


def _spa_human(human: NDArray[np.float64]) -> NDArray[np.float64]:
    """``human`` with every segment some system lacks left out entirely (NaN for all)."""
    out = human.copy()
    out[:, np.isnan(human).any(axis=0)] = np.nan
    return out


Mixtures = Callable[[NDArray[np.bool_]], tuple[NDArray[np.float64], NDArray[np.float64]]]
"""Given the swaps of a block, the statistic of each first mixture (worse where swapped) and second."""


def _mixtures(stat: Batched, worse: NDArray[np.float64], better: NDArray[np.float64]) -> Mixtures:
    def values(swap: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return stat(np.where(swap, worse, better)), stat(np.where(swap, better, worse))

    return values


def _values(
    statistic: str,
    layout: Layout,
    human: NDArray[np.float64],
    average_by: str,
    mixed: tuple[NDArray[np.float64], NDArray[np.float64]],
    spa: tuple[int, int],
) -> Mixtures:
    """The statistic of both mixtures of ``mixed`` (worse, better: cells laid out as ``layout``)."""
    if statistic == "pearson":
        return MixedPearson(layout, *mixed).values
    if statistic == "spa":
        signs = PermutationSigns(int((~np.isnan(human).any(axis=0)).sum()), *spa)
        return BatchedSpa(human, signs, *mixed).values
    stat: Batched
    if statistic == "acc-eq":
        stat = PerMixture(lambda m: tie_calibrated_accuracy(m, human, average_by).value, human.shape)
    elif statistic in STATISTICS:
        stat = GroupedScalar(layout, STATISTICS[statistic], statistic in ("pearson", "spearman"))
    else:
        raise ConfigError(f"unknown statistic {statistic!r} for PERM-BOTH")
    return _mixtures(stat, *mixed)


def _cells(statistic: str, human: NDArray[np.float64], average_by: str) -> tuple[Layout, NDArray[np.float64]]:
    """Which cells are mixed, in which order, as mt-metrics-eval lays them out for ``statistic``."""
    if statistic == "spa":
        if average_by != "none":
            raise ConfigError("SPA is a system-level statistic: its PERM-BOTH averages by none")
        return Layout(_spa_human(human), "none"), _spa_human(human)
    if statistic == "acc-eq":  # every cell, every system's segments in order: acc-eq groups them itself
        return Layout(np.where(np.isnan(human), 0.0, human), "none"), human
    return Layout(human, average_by), human


def _block_sizes(cells: int, resamples: int, stopping: EarlyStopping) -> list[int]:
    """The resamples drawn together, in order: chunks that end at every early-stopping check."""
    chunk = max(1, min(4 * CHUNK, CHUNK_DRAWS // cells))
    sizes, done = [], 0
    while done < resamples:
        size = min(chunk, stopping.block_size - done % stopping.block_size, resamples - done)
        sizes.append(size)
        done += size
    return sizes


def _count_blocks(
    prepare: Callable[[], tuple[Mixtures, float]],
    cells: int,
    resamples: int,
    rng: np.random.RandomState,
    stopping: EarlyStopping,
) -> tuple[int, int, float]:
    """Resample until ``resamples`` or an early stop: the count at least the observed difference,
    the draws, and that difference. ``prepare`` gives the mixtures' statistic and the observed
    difference; the first chunk's coins are drawn while it runs.

    The next chunk's coins are drawn on another thread while this chunk's statistics are
    computed (both release the GIL); after an early stop the stream is set back to where this
    chunk's draws ended, as if the next had never been drawn."""
    sizes = _block_sizes(cells, resamples, stopping)
    done = counted = 0
    with ThreadPoolExecutor(max_workers=1) as drawer:
        before = rng.get_state()
        pending = drawer.submit(coins, rng, (sizes[0], cells))
        try:
            values, delta = prepare()
        except BaseException:
            pending.result()
            rng.set_state(before)  # nothing drawn, as far as the stream's next user can tell
            raise
        for k, size in enumerate(sizes):
            swap = pending.result()
            drawn = rng.get_state()
            if k + 1 < len(sizes):
                pending = drawer.submit(coins, rng, (sizes[k + 1], cells))
            first, second = values(swap)
            counted += int(np.sum(second - first >= delta))
            done += size
            if done % stopping.block_size == 0:
                p = counted / done
                if p < stopping.early_min or p > stopping.early_max:
                    pending.result()
                    rng.set_state(drawn)
                    break
    return counted, done, delta


def coins(rng: np.random.RandomState, shape: tuple[int, int]) -> NDArray[np.bool_]:
    """``rng.random_sample(shape) > 0.5``, drawn by the Rust core from ``rng``'s state, which
    then goes on as NumPy's would have: the same coins, without making the doubles.

    >>> a, b = np.random.RandomState(4), np.random.RandomState(4)
    >>> bool(np.array_equal(coins(a, (3, 700)), b.random_sample((3, 700)) > 0.5))
    True
    >>> a.randint(1000) == b.randint(1000)  # and the streams go on alike
    True
    """
    from understudy import _core

    name, key, pos, has_gauss, gauss = rng.get_state(legacy=True)
    drawn, key, pos = _core.metaeval.mt_halves(
        np.ascontiguousarray(key, dtype=np.uint32), int(pos), shape[0] * shape[1]
    )
    rng.set_state((str(name), key, pos, int(has_gauss), float(gauss)))
    return drawn.reshape(shape)


def perm_both(
    statistic: str,
    better: Any,
    worse: Any,
    human: Any,
    average_by: str = "none",
    resamples: int = 1000,
    seed: int = 12345,
    stopping: EarlyStopping = EarlyStopping(),
    rng: np.random.RandomState | None = None,
    names: tuple[str, str] = ("a", "b"),
    spa: tuple[int, int] = (DEFAULT_PERMUTATIONS, DEFAULT_SEED),
) -> PermBoth:
    """PERM-BOTH p-value of "``better`` correlates better than ``worse``" by ``statistic``
    (``pearson``, ``spa``, ``acc-eq`` or any of :data:`STATISTICS`), scores systems x segments.

    ``rng`` continues a stream (as :func:`clusters` does), else one is seeded with ``seed``;
    ``spa`` is SPA's own (permutations, seed)."""
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ConfigError(f"resamples must be a whole number of at least 1, got {resamples!r}")
    h = score_matrix(human, "human", missing=True)
    a, b = score_matrix(better, "metric", missing=False), score_matrix(worse, "metric", missing=False)
    if not (h.shape == a.shape == b.shape):
        raise InputError(f"scores of shapes {h.shape}, {a.shape} and {b.shape}")
    groups(h, average_by)  # checks the name
    layout, seen = _cells(statistic, h, average_by)
    if not len(layout.cells):
        raise InputError("no cell has a human score")

    def prepare() -> tuple[Mixtures, float]:
        za, zb = _zscore(layout.of(a)), _zscore(layout.of(b))
        values = _values(statistic, layout, seen, average_by, (zb, za), spa)
        worse_first, better_second = values(np.ones((1, len(za)), dtype=bool))
        return values, float(better_second[0] - worse_first[0])

    stream = rng if rng is not None else np.random.RandomState(seed)
    counted, done, delta = _count_blocks(prepare, len(layout.cells), resamples, stream, stopping)
    return PermBoth(names[0], names[1], statistic, average_by, counted / done, delta, done)


class _PairSigns:
    """Every within-group pair ``i < j`` of a layout: the human order's sign, and for a metric at
    its tie threshold, the metric's (0 for a tie)."""

    def __init__(self, layout: Layout):
        self.layout = layout
        index, draws, offset = [], [], 0
        for start, n in zip(layout.starts, layout.lengths, strict=True):
            i, j = np.triu_indices(int(n), 1)
            index.append((start + i, start + j))
            draws.append(offset + i * int(n) + j)  # the pair's cell in the group's n x n draw
            offset += int(n) ** 2
        self.i = np.concatenate([p[0] for p in index])
        self.j = np.concatenate([p[1] for p in index])
        self.draw = np.concatenate(draws)
        self.draws_per_resample = offset
        pairs = layout.lengths * (layout.lengths - 1) // 2
        self.starts = np.concatenate([[0], np.cumsum(pairs)[:-1]]).astype(np.intp)
        self.group = np.repeat(np.arange(len(pairs)), pairs)
        self.pairs = pairs.astype(np.float64)
        self.gold = np.sign(layout.gold[self.j] - layout.gold[self.i])

    def metric(self, scores: NDArray[np.float64], threshold: float) -> NDArray[np.float64]:
        """The metric's sign of each pair, 0 within ``threshold``."""
        cells = self.layout.of(scores)
        diff = cells[self.j] - cells[self.i]
        out: NDArray[np.float64] = np.where(np.abs(diff) <= threshold, 0.0, np.sign(diff))
        return out

    def right(self, signs: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Whether the metric gets each pair right (ordered as the humans, or tied as they tie)."""
        out: NDArray[np.bool_] = signs == self.gold
        return out

    def counts(self, right: NDArray[np.bool_]) -> NDArray[np.int64]:
        """Each group's count of right pairs."""
        out: NDArray[np.int64] = np.bincount(self.group[right], minlength=len(self.pairs))
        return out

    def accuracy(self, counts: NDArray[np.int64]) -> NDArray[np.float64]:
        """Rows of per-group counts as acc23 per group, averaged over the groups that have pairs."""
        with np.errstate(invalid="ignore", divide="ignore"):
            per_group = counts / self.pairs
        return average_defined(np.where(self.pairs > 0, per_group, np.nan))


def pairs_perm_both(
    better: Any,
    worse: Any,
    human: Any,
    average_by: str = "item",
    resamples: int = 1000,
    seed: int = 12345,
    stopping: EarlyStopping = EarlyStopping(),
    rng: np.random.RandomState | None = None,
    names: tuple[str, str] = ("a", "b"),
) -> PermBoth:
    """acc-eq's PERM-BOTH as WMT24 runs it: pairwise comparisons swapped, each metric at its own
    optimised tie threshold (mt-metrics-eval's ``PairwisePermutationSigDiff``)."""
    h = score_matrix(human, "human", missing=True)
    a, b = score_matrix(better, "metric", missing=False), score_matrix(worse, "metric", missing=False)
    if average_by == "none":
        raise ConfigError("the pairs test swaps comparisons within groups: average by item or system")
    pairs = _PairSigns(Layout(h, average_by))
    right_a = pairs.right(pairs.metric(a, tie_calibrated_accuracy(a, h, average_by).threshold))
    right_b = pairs.right(pairs.metric(b, tie_calibrated_accuracy(b, h, average_by).threshold))
    count_a, count_b = pairs.counts(right_a), pairs.counts(right_b)
    delta = float(pairs.accuracy(count_a[None])[0] - pairs.accuracy(count_b[None])[0])
    # A swap moves a group's count only where the two metrics differ on the pair: +1 to the
    # first mixture (and -1 to the second) where b is right and a is not, the reverse where a is.
    differ = np.nonzero(right_a != right_b)[0]
    gain = np.where(right_b[differ], 1, -1).astype(np.int64)
    bounds = np.searchsorted(pairs.group[differ], np.arange(len(pairs.pairs) + 1))
    stream = rng if rng is not None else np.random.RandomState(seed)
    done = counted = 0
    chunk = max(1, min(CHUNK, CHUNK_DRAWS // pairs.draws_per_resample))
    while done < resamples:
        size = min(chunk, resamples - done)
        state = stream.get_state()
        swapped = coins(stream, (size, pairs.draws_per_resample))[:, pairs.draw[differ]]
        running = np.zeros((size, len(differ) + 1), dtype=np.int64)
        np.cumsum(swapped * gain, axis=1, out=running[:, 1:])
        moved = running[:, bounds[1:]] - running[:, bounds[:-1]]
        first = pairs.accuracy(count_a + moved)
        second = pairs.accuracy(count_b - moved)
        for k in range(size):
            done += 1
            if second[k] - first[k] >= delta:
                counted += 1
                p = counted / done
                if done % stopping.block_size == 0 and (p < stopping.early_min or p > stopping.early_max):
                    stream.set_state(state)  # the stream goes on after this resample's draws only
                    coins(stream, (k + 1, pairs.draws_per_resample))
                    return PermBoth(names[0], names[1], "acc-eq", average_by, p, delta, done)
    return PermBoth(names[0], names[1], "acc-eq", average_by, counted / done, delta, done)


@dataclass(frozen=True)
class Clusters:
    """Metrics in decreasing order of their statistic, WMT's significance rank of each (1 is the
    top cluster), and ``p_values[i][j]`` (``i < j``): the p-value of "metric i is better than j"."""

    statistic: str
    average_by: str
    metrics: tuple[str, ...]
    values: tuple[float, ...]
    ranks: tuple[int, ...]
    p_values: tuple[tuple[float, ...], ...]
    resamples: tuple[tuple[int, ...], ...]
    alpha: float
    seed: int
    test: str = "perm-both"


def assign_ranks(p_values: NDArray[np.float64], alpha: float) -> list[int]:
    """WMT's clusters from an upper-triangular p-value matrix of metrics in decreasing order: a
    metric starts a new rank when a metric of the current rank above it beats it significantly.

    >>> assign_ranks(np.array([[0, 0.3, 0.01], [0, 0, 0.2], [0, 0, 0]]), 0.05)
    [1, 1, 2]
    """
    ranks, rank, start = [], 1, 0
    for i in range(len(p_values)):
        if np.any(p_values[start:i, i] <= alpha):
            rank, start = rank + 1, i
        ranks.append(rank)
    return ranks


Test = Callable[[str, str, np.random.RandomState], PermBoth]
"""A pairwise test: better, worse, the random stream."""


def clusters(
    values: Mapping[str, float],
    test: Test,
    statistic: str,
    average_by: str,
    alpha: float = 0.05,
    seed: int = 12345,
) -> Clusters:
    """Order the metrics by ``values`` (ties by name), test every pair in that order with one
    random stream, and rank them as WMT does (mt-metrics-eval's ``CompareMetrics``)."""
    order = sorted(values, key=lambda m: (-values[m], m))
    n = len(order)
    p = np.zeros((n, n))
    used = np.zeros((n, n), dtype=int)
    rng = np.random.RandomState(seed)
    for i in range(n):
        for j in range(i + 1, n):
            result = test(order[i], order[j], rng)
            p[i, j], used[i, j] = result.p_value, result.resamples
    return Clusters(
        statistic,
        average_by,
        tuple(order),
        tuple(float(values[m]) for m in order),
        tuple(assign_ranks(p, alpha)),
        tuple(tuple(float(v) for v in row) for row in p),
        tuple(tuple(int(v) for v in row) for row in used),
        alpha,
        seed,
    )


__all__ = [
    "Clusters",
    "EarlyStopping",
    "PermBoth",
    "assign_ranks",
    "clusters",
    "pairs_perm_both",
    "perm_both",
]
