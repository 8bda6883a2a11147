"""Statistics of many resampled metric score vectors at once, for the PERM-BOTH test.

A permutation test between two metrics mixes their (z-scored) scores a thousand times and computes
the statistic of each mixture; one at a time, that is what makes mt-metrics-eval's test slow. Each
class here takes a block of mixtures, ``(resamples, cells)``, and returns one value per mixture:

- :class:`GroupedPearson`: Pearson's r within each group (a system's segments, an item's systems,
  or everything), averaged over the groups whose r is defined;
- :class:`BatchedSpa`: soft pairwise accuracy, every mixture's p-values from the core's exact counts;
- :class:`PerMixture`: any statistic, one mixture at a time (acc-eq, whose threshold is searched
  anew for each mixture, and the rest).

A cell is one score of one system on one segment, in the order :class:`Layout` gives.

>>> layout = Layout(np.array([[1.0, 2.0, 3.0], [2.0, 2.5, 1.0]]), "system")
>>> pearson = GroupedPearson(layout)
>>> mixture = np.array([[1.0, 2.0, 3.0, 3.0, 2.0, 1.0]])  # r = 1, then 1 / sqrt(7 / 3) = 0.6547
>>> [round(float(v), 4) for v in pearson(mixture)]
[0.8273]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.correlation.spa import PermutationSigns, rated_segments
from understudy.correlation.ties import groups
from understudy.threads import resolve_threads


class Layout:
    """The cells a grouped statistic sees: the rows of ``average_by``'s groups, one after another,
    without the cells whose human score is missing (NaN)."""

    def __init__(self, human: NDArray[np.float64], average_by: str):
        rows = groups(human, average_by)
        self.shape = human.shape
        self.average_by = average_by
        flat = np.arange(human.size).reshape(human.shape)
        order: NDArray[np.intp] = groups(flat, average_by).reshape(-1)
        kept = ~np.isnan(rows.reshape(-1))
        self.cells: NDArray[np.intp] = order[kept]  # into the systems x segments matrix, flattened
        lengths = np.sum(~np.isnan(rows), axis=1)
        self.lengths = lengths[lengths > 0]
        self.starts = np.concatenate([[0], np.cumsum(self.lengths)[:-1]]).astype(np.intp)
        self.gold = human.reshape(-1)[self.cells]

    def of(self, matrix: NDArray[np.float64]) -> NDArray[np.float64]:
        """A systems x segments matrix as this layout's cells."""
        out: NDArray[np.float64] = matrix.reshape(-1)[self.cells]
        return out

    def group_of_cell(self) -> NDArray[np.intp]:
        """Each cell's group."""
        return np.repeat(np.arange(len(self.lengths)), self.lengths)


def average_defined(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each row's mean over its values that are not NaN (0 when none is), as
    mt-metrics-eval's ``np.average`` of the defined ones."""
    out = np.empty(len(values))
    defined = ~np.isnan(values)
    whole = defined.all(axis=1)
    out[whole] = np.mean(values[whole], axis=1)
    for k in np.nonzero(~whole)[0]:
        kept = values[k][defined[k]]
        out[k] = np.average(kept) if len(kept) else 0.0
    return out


class GroupedPearson:
    """Pearson's r of the human scores and each mixture, within each group, averaged; a group
    whose human or metric scores are constant (or that has one cell) has no r and is left out."""

    def __init__(self, layout: Layout):
        self.starts = layout.starts
        self.lengths = layout.lengths.astype(np.float64)
        self.group = layout.group_of_cell()
        gold = layout.gold
        centred = gold - (np.add.reduceat(gold, self.starts) / self.lengths)[self.group]
        self.gold_centred = centred
        self.gold_norm = np.sqrt(np.add.reduceat(centred * centred, self.starts))
        spread = np.maximum.reduceat(gold, self.starts) - np.minimum.reduceat(gold, self.starts)
        self.undefined = (spread == 0) | (layout.lengths < 2)

    def __call__(self, mixed: NDArray[np.float64]) -> NDArray[np.float64]:
        """One average r per row of ``mixed``."""
        means = np.add.reduceat(mixed, self.starts, axis=1) / self.lengths
        centred = mixed - means[:, self.group]
        sxy = np.add.reduceat(centred * self.gold_centred, self.starts, axis=1)
        norm = np.sqrt(np.add.reduceat(centred * centred, self.starts, axis=1))
        constant = np.maximum.reduceat(mixed, self.starts, axis=1) == np.minimum.reduceat(
            mixed, self.starts, axis=1
        )
        with np.errstate(invalid="ignore", divide="ignore"):
            r = np.clip(sxy / (norm * self.gold_norm), -1.0, 1.0)
        r[constant | self.undefined] = np.nan
        return average_defined(r)


class MixedPearson:
    """:class:`GroupedPearson` of both mixtures of two metrics (cells ``worse`` and ``better``)
    from per-group sums that are linear in the swaps: masked sums of three vectors per mixture
    instead of a pass over every mixture. A group where some mixture could be constant
    (each cell of it holds a value shared by all) is checked on the mixtures themselves."""

    def __init__(self, layout: Layout, worse: NDArray[np.float64], better: NDArray[np.float64]):
        self.pearson = GroupedPearson(layout)
        self.worse, self.better = worse, better
        gc = self.pearson.gold_centred
        d = worse - better
        self.vectors = np.stack([d, worse * worse - better * better, d * gc])
        self.base = [np.add.reduceat(v, self.pearson.starts) for v in (better, better * better, better * gc)]
        self.both = [
            np.add.reduceat(w + b, self.pearson.starts)
            for w, b in ((worse, better), (worse * worse, better * better), (worse * gc, better * gc))
        ]
        self.bounds = np.append(self.pearson.starts, len(d)).astype(np.int64)
        # PERM-BOTH draws the next block's coins on a thread meanwhile: leave it a core.
        self.threads = max(1, resolve_threads(None) - 1)
        self.risky = self._maybe_constant(layout)

    def _maybe_constant(self, layout: Layout) -> NDArray[np.bool_]:
        """Groups where every cell holds the group's first worse or first better value."""
        out = np.zeros(len(self.pearson.starts), dtype=bool)
        first = self.pearson.starts[self.pearson.group]
        for value in (self.worse[first], self.better[first]):
            shared = (self.worse == value) | (self.better == value)
            out |= np.logical_and.reduceat(shared, self.pearson.starts)
        return out

    def sums(self, swap: NDArray[np.bool_]) -> list[NDArray[np.float64]]:
        """Per mixture and group: the swapped cells' sums of the three vectors (the core's masked
        sums, a pass over the coins, where a matrix product first made them doubles)."""
        sums = _core.metaeval.swapped_sums(
            np.ascontiguousarray(swap), self.vectors, self.bounds, self.threads
        )
        return [sums[:, k, :] for k in range(len(self.vectors))]

    def values(self, swap: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Average r of the first mixture (``worse`` where swapped) and of the second."""
        moved = self.sums(swap)
        first = [b + m for b, m in zip(self.base, moved, strict=True)]
        second = [t - f for t, f in zip(self.both, first, strict=True)]
        return self._average(first, swap, True), self._average(second, swap, False)

    def _average(
        self, sums: list[NDArray[np.float64]], swap: NDArray[np.bool_], first: bool
    ) -> NDArray[np.float64]:
        total, squares, cross = sums
        n = self.pearson.lengths
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = np.sqrt(np.maximum(squares - total * total / n, 0.0))
            r = np.clip(cross / (spread * self.pearson.gold_norm), -1.0, 1.0)
        r[:, self.pearson.undefined] = np.nan
        if self.risky.any():
            mixed = (
                np.where(swap, self.worse, self.better) if first else np.where(swap, self.better, self.worse)
            )
            starts = self.pearson.starts
            constant = np.maximum.reduceat(mixed, starts, axis=1) == np.minimum.reduceat(
                mixed, starts, axis=1
            )
            r[constant & self.risky] = np.nan
        return average_defined(r)


class BatchedSpa:
    """Soft pairwise accuracy of each mixture of two metrics (cells: every system's segments, in
    order) against the human p-values; both mixtures' counts from the Rust core at once."""

    def __init__(
        self,
        human: NDArray[np.float64],
        signs: PermutationSigns,
        worse: NDArray[np.float64],
        better: NDArray[np.float64],
    ):
        self.keep = rated_segments(human)
        self.systems = human.shape[0]
        self.signs = signs
        self.human_p = signs.p_values(human[:, self.keep])
        self.i, self.j = np.triu_indices(self.systems, 1)
        self.mixtures = signs.mixtures(worse.reshape(self.systems, -1), better.reshape(self.systems, -1))
        self.threads = resolve_threads(None)

    def _spa(self, counts: NDArray[np.int64]) -> NDArray[np.float64]:
        """:func:`one_minus_pce` of each row's p-values, all rows at once (a row's mean is the
        same pairwise sum over the same 78 differences in the same order)."""
        p = counts / self.signs.permutations
        out: NDArray[np.float64] = 1.0 - np.mean(np.abs(self.human_p[self.i, self.j] - p), axis=1)
        return out

    def values(self, swap: NDArray[np.bool_]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """SPA of each first mixture (``worse`` where swapped) and of each second."""
        counts = self.mixtures.counts(np.ascontiguousarray(swap), self.threads)
        return self._spa(counts[:, 0]), self._spa(counts[:, 1])


class GroupedScalar:
    """Any statistic of two vectors (metric, human) within each group, one mixture at a time,
    averaged over the groups where it is defined (as :class:`GroupedPearson`)."""

    def __init__(
        self,
        layout: Layout,
        statistic: Callable[[NDArray[np.float64], NDArray[np.float64]], float],
        constant_undefined: bool,
    ):
        self.bounds = [(int(s), int(s + n)) for s, n in zip(layout.starts, layout.lengths, strict=True)]
        self.gold = layout.gold
        self.statistic = statistic
        self.constant_undefined = constant_undefined

    def _value(self, cells: NDArray[np.float64], start: int, end: int) -> float:
        gold, scores = self.gold[start:end], cells[start:end]
        if end - start < 2 or (self.constant_undefined and (np.ptp(gold) == 0 or np.ptp(scores) == 0)):
            return float("nan")
        return self.statistic(scores, gold)

    def __call__(self, mixed: NDArray[np.float64]) -> NDArray[np.float64]:
        """One average per row of ``mixed``."""
        values = np.array([[self._value(row, s, e) for s, e in self.bounds] for row in mixed])
        return average_defined(values)


class PerMixture:
    """Any statistic of a systems x segments matrix, one mixture at a time."""

    def __init__(self, statistic: Callable[[NDArray[np.float64]], float], shape: tuple[int, ...]):
        self.statistic = statistic
        self.shape = shape

    def __call__(self, mixed: NDArray[np.float64]) -> NDArray[np.float64]:
        """One value per row of ``mixed``."""
        return np.array([self.statistic(row.reshape(self.shape)) for row in mixed])


Batched = Callable[[NDArray[np.float64]], NDArray[np.float64]]
"""A statistic of each row of a block of mixtures."""

__all__ = [
    "Batched",
    "BatchedSpa",
    "GroupedPearson",
    "GroupedScalar",
    "Layout",
    "PerMixture",
    "average_defined",
]
