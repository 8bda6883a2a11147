"""Soft pairwise accuracy (SPA; Thompson et al. 2024), the WMT24 metrics task's system-level statistic.

For every pair of systems, a paired permutation test on segment scores gives the p-value of
"system i is better than system j", once from the human scores and once from the metric's;
SPA is one minus the mean absolute difference of the two p-values over the pairs. It is
mt-metrics-eval's ``pce.compute_one_minus_pce`` of ``pce.compute_pairwise_p_values``, with the
same permutations: ``numpy.random.default_rng(seed).random((n, segments), float32)`` rounded to
0/1 (seed 4 and 1000 permutations as there), the systems in the order given.

One difference, on purpose: a permuted difference can equal the observed one exactly (MQM
scores are discrete: 13 of the 78,000 comparisons of the WMT21 TED zh-en systems), and
mt-metrics-eval decides such a tie by float32 rounding, which moves with the BLAS kernel, the
memory layout and the thread count. Here every comparison is exact and a tie counts as "at least
as large". Scores that are decimals of at most 9 places (MQM, COMET's printed scores) are summed
as those decimals, in fixed point (:func:`fixed_point`); other scores are summed as the float64
numbers they are, exactly: in a binary fixed point (the Rust core's) where its rounding cannot
decide the comparison, by an exact sum of the floats (in the core) where it could.

Segments without a human score (NaN) for any system are left out, for the human and the metric
p-values alike (mt-metrics-eval needs the same segments scored for every system).

>>> human = [[0.0, -1.0, 0.0, -5.0], [-1.0, -1.0, -2.0, -5.0], [-6.0, -2.0, -1.0, -9.0]]
>>> soft_pairwise_accuracy(human, human).value  # a metric that is the human scores
1.0
>>> metric = [[-6.0, -2.0, -1.0, -9.0], [-1.0, -1.0, -2.0, -5.0], [0.0, -1.0, 0.0, -5.0]]
>>> soft_pairwise_accuracy(metric, human).value < 0.5  # one that turns them around
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from understudy import _core
from understudy.correlation.matrices import score_matrix
from understudy.errors import ConfigError, InputError
from understudy.stats import Stats
from understudy.threads import resolve_threads

DEFAULT_PERMUTATIONS = 1000
DEFAULT_SEED = 4
"""mt-metrics-eval's seed for SPA's permutations."""

DRAW_BLOCK = 1 << 22
"""Random draws (and swapped rows) made at a time: 16 MB of float32, whatever the permutations."""


def _check_counts(permutations: int, seed: int) -> None:
    if isinstance(permutations, bool) or not isinstance(permutations, int) or permutations < 1:
        raise ConfigError(f"permutations must be a whole number of at least 1, got {permutations!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ConfigError(f"seed must be a whole number of at least 0, got {seed!r}")


class PermutationSigns:
    """The permutations of a paired test over ``segments`` segments, drawn as mt-metrics-eval draws
    them, and the exact p-values of every pair of systems under them.

    >>> signs = PermutationSigns(5, permutations=10, seed=4)
    >>> same = [0.8, 0.9, 0.7, 1.0, 0.6]
    >>> float(signs.p_values([same, same])[0, 1])  # every permuted difference ties the observed 0
    1.0
    """

    def __init__(self, segments: int, permutations: int = DEFAULT_PERMUTATIONS, seed: int = DEFAULT_SEED):
        _check_counts(permutations, seed)
        rng = np.random.default_rng(seed)
        self._taken = np.empty((permutations, segments), dtype=bool)
        # Drawn a block at a time: the same numbers as one draw (the generator's stream runs on),
        # memory of one block of floats beside the booleans, and Ctrl-C heard between blocks.
        step = max(1, DRAW_BLOCK // max(1, segments))
        for start in range(0, permutations, step):
            draws = rng.random(size=(min(step, permutations - start), segments), dtype=np.float32)
            # rint rounds a draw of exactly 0.5 to 0: such a segment is swapped, as below 0.5.
            np.less_equal(draws, 0.5, out=self._taken[start : start + len(draws)])
        self.permutations = permutations
        self.segments = segments
        self.seed = seed

    @property
    def swapped(self) -> NDArray[np.float64]:
        """Which segments each permutation swaps, as a permutations x segments matrix of 0.0 and
        1.0 (made when asked: the booleans are what is kept)."""
        return self._taken.astype(np.float64)

    def p_values(self, scores: ArrayLike) -> NDArray[np.float64]:
        """For ``i < j``, the share of permutations whose difference of system sums is at least the
        observed ``sum(scores[i]) - sum(scores[j])``; NaN on and below the diagonal."""
        s = score_matrix(scores, "metric", missing=False)
        if s.shape[1] != self.segments:
            raise InputError(f"{s.shape[1]} segments for permutations of {self.segments}")
        n = s.shape[0]
        out = np.full((n, n), np.nan)
        i, j = np.triu_indices(n, 1)
        out[i, j] = self._counts(s) / self.permutations
        return out

    def _counts(self, s: NDArray[np.float64]) -> NDArray[np.int64]:
        # The permuted difference is at least the observed one exactly when the swapped
        # segments' differences sum to at most 0; pairs in triu_indices order.
        fixed = fixed_point(s, self.segments)
        scores = s if fixed is None else fixed
        every = np.ones((1, scores.size), dtype=bool)
        counts: NDArray[np.int64] = self.mixtures(scores, scores).counts(every, resolve_threads(None))[0, 0]
        return counts

    def mixtures(self, worse: NDArray[np.float64], better: NDArray[np.float64]) -> BlockedMixtures:
        """Two metrics' systems x segments scores, to be mixed cell by cell under these
        permutations: its ``counts(coins, threads)`` gives, for each row of ``coins`` (one per
        cell) and each of its two mixtures (``worse`` where the coin is true, ``better``
        elsewhere; then the reverse), how many permutations give each pair ``i < j``
        (``triu_indices`` order) a difference at least the observed one, ``[row, mixture,
        pair]``, by exact sums (the Rust core's fixed point, and an exact sum of the floats where
        that cannot decide).

        >>> signs = PermutationSigns(3, permutations=4, seed=4)
        >>> scores = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
        >>> coins = np.zeros((1, 6), dtype=bool)
        >>> counts = signs.mixtures(scores, scores).counts(coins, 1)  # both mixtures: the scores
        >>> want = np.sum(signs.swapped @ np.array([-2.0, 0.0, 2.0]) <= 0)  # differences, swapped
        >>> bool(counts[0, 0, 0] == counts[0, 1, 0] == want)
        True
        """
        return BlockedMixtures(
            np.ascontiguousarray(worse, dtype=np.float64),
            np.ascontiguousarray(better, dtype=np.float64),
            self._taken,
        )


PERMUTATION_BLOCK = 1 << 24
"""Permutation x segment cells the Rust core's mixtures take at once."""


class BlockedMixtures:
    """The Rust core's :class:`~understudy._core.metaeval.SpaMixtures` over the permutations a block at a
    time: counts of permutations add up exactly over blocks, and between blocks Ctrl-C is heard
    (millions of permutations took seconds in one call that nothing could interrupt).

    >>> taken = np.array([[True, False], [False, True], [True, True]])
    >>> scores = np.array([[1.0, 2.0], [2.0, 1.0]])
    >>> coins = np.zeros((1, 4), dtype=bool)
    >>> whole = _core.metaeval.SpaMixtures(scores, scores, taken).counts(coins, 1)
    >>> bool((BlockedMixtures(scores, scores, taken, block=2).counts(coins, 1) == whole).all())
    True
    """

    def __init__(
        self,
        worse: NDArray[np.float64],
        better: NDArray[np.float64],
        taken: NDArray[np.bool_],
        block: int | None = None,
    ) -> None:
        step = max(1, (block or PERMUTATION_BLOCK) // max(1, taken.shape[1]))
        self.blocks = [
            _core.metaeval.SpaMixtures(worse, better, taken[start : start + step])
            for start in range(0, len(taken), step)
        ]

    def counts(self, coins: NDArray[np.bool_], threads: int) -> NDArray[np.int64]:
        """The permutations' counts of :meth:`PermutationSigns.mixtures`, summed over the blocks."""
        total: NDArray[np.int64] = self.blocks[0].counts(coins, threads)
        for block in self.blocks[1:]:
            total += block.counts(coins, threads)
        return total


def fixed_point(scores: NDArray[np.float64], terms: int) -> NDArray[np.float64] | None:
    """``scores`` as whole numbers (scaled by the smallest power of ten up to 10**9 that makes every
    score the float64 nearest a decimal of that many places), when sums of ``terms`` of them stay
    below 2**53; else None.

    >>> fixed_point(np.array([[-1.1, 0.0, -25.0]]), 10)
    array([[ -11.,    0., -250.]])
    >>> fixed_point(np.array([[0.1 + 0.2]]), 10) is None
    True
    """
    if np.abs(scores).max(initial=0.0) >= 2.0**53 / terms:  # no scale makes them fit
        return None
    for places in range(10):
        scale = 10.0**places
        whole = np.round(scores * scale)
        if np.abs(whole).max(initial=0.0) * terms >= 2.0**53:
            return None
        if np.array_equal(whole / scale, scores):
            return whole
    return None


@dataclass(frozen=True)
class SoftPairwiseAccuracy:
    """SPA and the two p-value matrices it compares (NaN on and below the diagonal)."""

    value: float
    human_p: NDArray[np.float64]
    metric_p: NDArray[np.float64]
    segments: int
    permutations: int
    seed: int

    def to_dict(self) -> dict[str, Any]:
        """The numbers as JSON takes them."""

        def rows(m: NDArray[np.float64]) -> list[list[float | None]]:
            return [[None if np.isnan(v) else float(v) for v in row] for row in m]

        return {
            "value": self.value,
            "segments": self.segments,
            "permutations": self.permutations,
            "seed": self.seed,
            "human_p": rows(self.human_p),
            "metric_p": rows(self.metric_p),
        }


def one_minus_pce(human_p: NDArray[np.float64], metric_p: NDArray[np.float64]) -> float:
    """One minus the mean absolute difference of two p-value matrices' upper triangles."""
    upper = np.triu_indices(human_p.shape[0], 1)
    return float(1.0 - np.mean(np.abs(human_p - metric_p)[upper]))


def rated_segments(human: ArrayLike) -> NDArray[np.bool_]:
    """The segments every system has a human score for."""
    return np.asarray(~np.isnan(score_matrix(human, "human", missing=True)).any(axis=0), dtype=np.bool_)


def soft_pairwise_accuracy(
    metric: ArrayLike,
    human: ArrayLike,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = DEFAULT_SEED,
    signs: PermutationSigns | None = None,
) -> SoftPairwiseAccuracy:
    """SPA of ``metric`` against ``human`` (both systems x segments; NaN for a human score missing).

    ``signs`` reuses drawn permutations (for many metrics on the same segments).
    """
    h = score_matrix(human, "human", missing=True)
    m = score_matrix(metric, "metric", missing=False)
    if h.shape != m.shape:
        raise InputError(f"human scores of shape {h.shape} and metric scores of shape {m.shape}")
    keep = rated_segments(h)
    if not keep.any():
        raise InputError("no segment has a human score for every system")
    if signs is None or (signs.segments, signs.permutations, signs.seed) != (
        int(keep.sum()),
        permutations,
        seed,
    ):
        signs = PermutationSigns(int(keep.sum()), permutations, seed)
    human_p = signs.p_values(h[:, keep])
    metric_p = signs.p_values(m[:, keep])
    return SoftPairwiseAccuracy(
        one_minus_pce(human_p, metric_p), human_p, metric_p, int(keep.sum()), signs.permutations, signs.seed
    )


def _swapped_sums(signs: PermutationSigns, rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each permutation's sum of ``rows`` over its swapped segments, a block of permutations at a
    time (exact: integer rows, float64 sums far below 2**53)."""
    out = np.empty((signs.permutations, rows.shape[1]), dtype=np.int64)
    step = max(1, DRAW_BLOCK // max(1, signs.segments))
    values = rows.astype(np.float64)
    for start in range(0, signs.permutations, step):
        block = signs._taken[start : start + step].astype(np.float64)
        out[start : start + len(block)] = np.rint(block @ values).astype(np.int64)
    return out


def corpus_p_values(signs: PermutationSigns, stats: Sequence[Stats[Any, Any]]) -> NDArray[np.float64]:
    """For ``i < j``, the share of permutations under which system i's corpus score, less system
    j's, is at least the observed difference: each permutation swaps the two systems' statistics
    rows on its swapped segments and recomputes both corpus scores (BLEU as BLEU, not a sum of
    sentence scores). Totals are exact integers, and a permutation that gives back the observed
    totals gives back the observed difference to the bit. A metric where lower is better (TER)
    has its differences negated. NaN on and below the diagonal."""
    n = len(stats)
    rows = [np.asarray(s.rows, dtype=np.int64) for s in stats]
    if any(len(r) != signs.segments for r in rows):
        raise InputError(
            f"statistics of {sorted({len(r) for r in rows})} segments for permutations of {signs.segments}"
        )
    sign = 1.0 if stats[0].higher_is_better else -1.0
    totals = [r.sum(axis=0) for r in rows]
    out = np.full((n, n), np.nan)
    for i, j in zip(*np.triu_indices(n, 1), strict=True):
        moved = _swapped_sums(signs, rows[i] - rows[j])
        both = stats[0].scores_of(np.vstack([totals[i], totals[j], totals[i] - moved, totals[j] + moved]))
        scores = sign * np.asarray(both, dtype=np.float64)
        observed = scores[0] - scores[1]
        k = signs.permutations
        out[i, j] = np.sum(scores[2 : 2 + k] - scores[2 + k :] >= observed) / k
    return out


def spa_corpus(
    stats: Sequence[Stats[Any, Any]],
    human: ArrayLike,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = DEFAULT_SEED,
) -> SoftPairwiseAccuracy:
    """SPA with each pair's metric p-value from :func:`corpus_p_values` (the corpus metric on
    permuted statistics rows) instead of sums of segment scores; the human p-values as in
    :func:`soft_pairwise_accuracy`. ``stats``: each system's statistics, in the human rows' order.

    >>> from understudy import BLEU
    >>> refs = [["the cat sat on the mat", "a dog ran in the park", "it is raining today"]]
    >>> hyps = [["the cat sat on the mat", "a dog ran in the park", "it is raining today"],
    ...         ["the cat sat on a mat", "a dog ran in a park", "it rains today"],
    ...         ["cat", "dog", "rain"]]
    >>> human = [[0.0, 0.0, 0.0], [-1.0, -1.0, -2.0], [-5.0, -5.0, -5.0]]
    >>> stats = [BLEU().segment_stats(h, refs) for h in hyps]
    >>> spa_corpus(stats, human, permutations=100).value  # BLEU orders them as the humans do
    1.0
    """
    h = score_matrix(human, "human", missing=True)
    if h.shape != (len(stats), min((len(s) for s in stats), default=0)) or len({len(s) for s in stats}) > 1:
        raise InputError(f"human scores of shape {h.shape} for {len(stats)} systems' statistics")
    keep = rated_segments(h)
    if not keep.any():
        raise InputError("no segment has a human score for every system")
    signs = PermutationSigns(int(keep.sum()), permutations, seed)
    human_p = signs.p_values(h[:, keep])
    metric_p = corpus_p_values(signs, [s[np.nonzero(keep)[0]] for s in stats])
    return SoftPairwiseAccuracy(
        one_minus_pce(human_p, metric_p), human_p, metric_p, int(keep.sum()), permutations, seed
    )


__all__ = [
    "DEFAULT_PERMUTATIONS",
    "DEFAULT_SEED",
    "PermutationSigns",
    "SoftPairwiseAccuracy",
    "corpus_p_values",
    "fixed_point",
    "one_minus_pce",
    "rated_segments",
    "soft_pairwise_accuracy",
    "spa_corpus",
]
