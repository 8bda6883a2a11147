"""How sure an AutoRank position is: a language pair's paragraphs resampled with replacement (the
same resample for every system and metric), AutoRank recomputed on each resample; each system's
95% interval of its AutoRank and of its rank, and clusters of systems whose AutoRank does not
differ significantly (the paired bootstrap test and the walk down the ranking that ``compare``
uses: :func:`understudy.significance.walk_clusters`). Deterministic under a seed.

Paragraphs are aligned by position: the organisers' files hold each pair's documents in one order
for every system, and a system with another number of paragraphs for a metric is refused.

>>> paragraphs = {"a": {"m": [3.0, 2.0, 4.0]}, "b": {"m": [1.0, 1.0, 2.0]}}
>>> result = certainty(paragraphs, ["m"], n=200, seed=1)
>>> [(s.system, s.rank, s.rank_interval) for s in result.systems]
[('a', 1, (1, 1)), ('b', 2, (2, 2))]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from understudy.autorank.files import Paragraphs
from understudy.autorank.method import ranks_of
from understudy.errors import ConfigError, InputError
from understudy.significance import bootstrap_p_value, walk_clusters


@dataclass(frozen=True)
class Position:
    """One system's AutoRank with its 95% interval, and its rank with its interval."""

    system: str
    autorank: float
    interval: tuple[float, float]
    rank: int
    rank_interval: tuple[int, int]
    cluster: int


@dataclass(frozen=True)
class Certainty:
    """A pair's positions, best first, and its clusters, with how they were resampled."""

    n: int
    seed: int
    alpha: float
    systems: tuple[Position, ...]
    clusters: tuple[tuple[str, ...], ...]

    def method(self) -> str:
        """The method in one line, as the output states it."""
        return method(self.n, self.seed, self.alpha)


def method(n: int, seed: int, alpha: float) -> str:
    """How the intervals and clusters were found, in one line."""
    return (
        f"intervals: {n} bootstrap resamples of each pair's paragraphs (seed {seed}), the same for every"
        f" system and metric, 95%; clusters: the paired bootstrap test of AutoRank (compare's), alpha {alpha}"
    )


def _matrix(paragraphs: Mapping[str, Paragraphs], metrics: Sequence[str]) -> np.ndarray:
    """``values[system, metric, paragraph]``, NaN where a metric gave no score."""
    counts = {m: {len(per[m]) for per in paragraphs.values()} for m in metrics}
    uneven = [m for m, found in counts.items() if len(found) > 1]
    if uneven:
        raise InputError(
            f"the systems have different numbers of {uneven[0]} paragraphs: they cannot be resampled together"
        )
    sizes = {next(iter(counts[m])) for m in metrics}
    if len(sizes) > 1:
        raise InputError(
            "the metrics score different numbers of paragraphs: they cannot be resampled together"
        )
    rows = [[[np.nan if v is None else v for v in per[m]] for m in metrics] for per in paragraphs.values()]
    return np.asarray(rows, dtype=np.float64)


def resampled_ranks(values: np.ndarray, n: int, seed: int) -> np.ndarray:
    """AutoRank of each system on each of ``n`` resamples of the paragraphs: ``[system, resample]``."""
    count = values.shape[2]
    rng = np.random.default_rng(seed)
    weights = np.stack([np.bincount(rng.integers(0, count, count), minlength=count) for _ in range(n)])
    return ranks_of(_means(values, weights))


def _means(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each system's and metric's mean of the scores given, each paragraph counted as often as
    ``weights[resample, paragraph]`` says: ``[system, metric, resample]`` (weights of 1: the
    system scores, :func:`~understudy.autorank.method.system_score`'s)."""
    systems, metrics, count = values.shape
    sums = np.nan_to_num(values).reshape(-1, count) @ weights.T
    kept = (~np.isnan(values)).reshape(-1, count).astype(np.float64) @ weights.T
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.asarray((sums / kept).reshape(systems, metrics, len(weights)))
    if np.isnan(means).any():
        raise InputError("a resample holds no score of some metric for some system: too few paragraphs")
    return means


def _places(resampled: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each system's first and last possible place on each resample: one after the systems
    strictly better, and among those tied with it (identical systems share their places)."""
    ordered = np.sort(resampled, axis=0)
    first = np.empty_like(resampled, dtype=np.int64)
    last = np.empty_like(resampled, dtype=np.int64)
    for b in range(resampled.shape[1]):
        first[:, b] = np.searchsorted(ordered[:, b], resampled[:, b], side="left") + 1
        last[:, b] = np.searchsorted(ordered[:, b], resampled[:, b], side="right")
    return first, last


def certainty(
    paragraphs: Mapping[str, Paragraphs],
    metrics: Sequence[str],
    n: int = 1000,
    seed: int = 12345,
    alpha: float = 0.05,
) -> Certainty:
    """Each system's position with its intervals, and the clusters."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ConfigError(f"--bootstrap must be a whole number of resamples, at least 1, not {n!r}")
    names = list(paragraphs)
    values = _matrix(paragraphs, metrics)
    actual = ranks_of(_means(values, np.ones((1, values.shape[2]))))[:, 0]
    resampled = resampled_ranks(values, n, seed)
    order = sorted(range(len(names)), key=lambda k: (actual[k], names[k]))
    first, last = _places(resampled)
    p_of = {
        frozenset((names[i], names[j])): bootstrap_p_value(
            np.abs(resampled[i] - resampled[j]), abs(float(actual[i] - actual[j]))
        )
        for i in range(len(names))
        for j in range(i + 1, len(names))
    }
    clusters = walk_clusters([names[k] for k in order], p_of, alpha)
    cluster_of = {name: c for c, members in enumerate(clusters, start=1) for name in members}
    systems = tuple(
        Position(
            names[k],
            float(actual[k]),
            (float(np.percentile(resampled[k], 2.5)), float(np.percentile(resampled[k], 97.5))),
            rank,
            (
                int(np.percentile(first[k], 2.5, method="lower")),
                int(np.percentile(last[k], 97.5, method="higher")),
            ),
            cluster_of[names[k]],
        )
        for rank, k in enumerate(order, start=1)
    )
    return Certainty(n, seed, alpha, systems, clusters)
