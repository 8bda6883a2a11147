"""WMT24-style meta-evaluation from segment scores: SPA, SPA on the corpus metric, acc-eq,
statistics averaged by group, PERM-BOTH and significance clusters (see
:mod:`~understudy.correlation.spa`, :mod:`~understudy.correlation.ties`,
:mod:`~understudy.correlation.perm_both`), as ``understudy correlate`` computes them.

>>> settings = Settings(statistics=("acc-eq",), level="segment")
>>> classic(["pearson", "acc-eq"]), settings.average_by
(['pearson'], 'none')
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy.correlation import Correlation, CorrelationResult
from understudy.correlation.grouped import grouped_statistic
from understudy.correlation.perm_both import (
    Clusters,
    EarlyStopping,
    PermBoth,
    clusters,
    pairs_perm_both,
    perm_both,
)
from understudy.correlation.spa import DEFAULT_SEED as SPA_SEED
from understudy.correlation.spa import soft_pairwise_accuracy, spa_corpus
from understudy.correlation.ties import AVERAGE_BY, tie_calibrated_accuracy
from understudy.errors import ConfigError
from understudy.inputs.human import HumanScores
from understudy.stats import Stats

META_STATISTICS = ("spa", "spa-corpus", "acc-eq")
"""The statistics of WMT24's metrics task, computed from segment scores."""
COMPARE_TESTS = ("swap", "perm-both", "perm-pairs", "wmt24")
DEFAULT_PERMUTATION_SEED = 12345


@dataclass(frozen=True)
class Settings:
    """What a meta-evaluation computes and how: the statistics, the level (``segment`` or
    ``system``), the groups averaged over, SPA's permutations, the clusters' test, PERM-BOTH's
    block size and resamples, and the seed (``None``: each test's own default)."""

    statistics: tuple[str, ...]
    level: str = "segment"
    average_by: str = "none"
    permutations: int = 1000
    compare_test: str = "swap"
    block_size: int = 100
    bootstrap: int = 1000
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.average_by not in AVERAGE_BY or self.compare_test not in COMPARE_TESTS:
            raise ConfigError(f"average_by is one of {AVERAGE_BY}, compare_test one of {COMPARE_TESTS}")


def classic(statistics: list[str]) -> list[str]:
    """The statistics ``correlate`` computed before (with bootstrap intervals)."""
    return [s for s in statistics if s not in META_STATISTICS]


def human_matrix(human: HumanScores, names: list[str], segments: int, source: str) -> NDArray[np.float64]:
    """Systems x segments human scores, NaN where a segment is not rated."""
    if not human.has_segments:
        raise ConfigError(
            f"{source} has system scores only; {', '.join(META_STATISTICS)} need segment scores"
        )
    out = np.full((len(names), segments), np.nan)
    for k, name in enumerate(names):
        for segment, value in human.segments.get(name, {}).items():
            if segment > segments:
                raise ConfigError(
                    f"{source} scores segment {segment} of {name!r}, but the references have {segments} lines"
                )
            out[k, segment - 1] = value
    if np.isnan(out).all():
        raise ConfigError(f"{source} scores none of the segments of these systems")
    return out


def segment_matrices(
    stats: dict[str, list[Stats[Any, Any]]], higher: dict[str, bool]
) -> dict[str, NDArray[np.float64]]:
    """Each metric's segment scores (sentence scores, as ``score -sl`` gives them), systems x
    segments, negated where lower is better."""
    out = {}
    for name, per_system in stats.items():
        sign = 1.0 if higher.get(name, True) else -1.0
        out[name] = sign * np.vstack([s.for_sentences().sentence_scores() for s in per_system])
    return out


def spa_seed(settings: Settings) -> int:
    """SPA's seed: the one asked, else mt-metrics-eval's 4."""
    return SPA_SEED if settings.seed is None else int(settings.seed)


def correlations(
    settings: Settings,
    stats: dict[str, list[Stats[Any, Any]]],
    matrices: dict[str, NDArray[np.float64]],
    human: NDArray[np.float64],
) -> list[Correlation]:
    """Every metric's new statistics, and the classic ones averaged by group when asked."""
    out = []
    for name, matrix in matrices.items():
        for statistic in settings.statistics:
            found = _one(settings, statistic, stats[name], matrix, human)
            if found is not None:
                out.append(Correlation(name, statistic, found.pop("value"), extra=found))
    return out


def _one(
    settings: Settings,
    statistic: str,
    per_system: list[Stats[Any, Any]],
    matrix: NDArray[np.float64],
    human: NDArray[np.float64],
) -> dict[str, Any] | None:
    if statistic in ("spa", "spa-corpus"):
        seed = spa_seed(settings)
        if statistic == "spa":
            found = soft_pairwise_accuracy(matrix, human, settings.permutations, seed)
        else:
            found = spa_corpus(per_system, human, settings.permutations, seed)
        record = found.to_dict()
        return {
            "value": record["value"],
            "segments": record["segments"],
            "permutations": record["permutations"],
            "seed": record["seed"],
            "p_values": record["metric_p"],
            "human_p_values": record["human_p"],
        }
    if statistic == "acc-eq":
        tied = tie_calibrated_accuracy(matrix, human, settings.average_by)
        return {
            "value": tied.value,
            "threshold": tied.threshold,
            "average_by": settings.average_by,
            "groups": tied.groups,
        }
    if settings.level == "segment" and settings.average_by != "none":
        value = grouped_statistic(statistic, matrix, human, settings.average_by)
        return {"value": value, "average_by": settings.average_by}
    return None


def meta_evaluate(
    result: CorrelationResult,
    settings: Settings,
    stats: dict[str, list[Stats[Any, Any]]],
    higher: dict[str, bool],
    human: NDArray[np.float64],
    with_clusters: bool = False,
) -> tuple[CorrelationResult, list[Clusters]]:
    """``result`` (the classic correlations) with the statistics of ``settings`` computed from
    every metric's statistics (``stats``, by name; ``higher``: whether higher is better) against
    the human matrix (:func:`human_matrix`): a classic statistic averaged by group replaces its
    plain value, and only the statistics asked stay; with ``with_clusters``, every statistic's
    significance clusters by ``settings.compare_test`` (:func:`cluster_all`)."""
    matrices = segment_matrices(stats, higher)
    found = correlations(settings, stats, matrices, human)
    replaced = {(c.metric, c.statistic) for c in found}
    asked = settings.statistics
    kept = [
        c for c in result.correlations if c.statistic in asked and (c.metric, c.statistic) not in replaced
    ]
    without = tuple(c for c in result.without_outliers if c.statistic in asked)
    result = replace(result, correlations=(*kept, *found), without_outliers=without)
    clusters = cluster_all(settings, list(result.correlations), matrices, human) if with_clusters else []
    return result, clusters


def cluster_all(
    settings: Settings,
    found: list[Correlation],
    matrices: dict[str, NDArray[np.float64]],
    human: NDArray[np.float64],
) -> list[Clusters]:
    """WMT's significance clusters of the metrics for each statistic, by ``--compare-test``."""
    if len(matrices) < 2:
        raise ConfigError("--compare needs at least two metrics")
    out = []
    stopping = EarlyStopping(settings.block_size)
    seed = DEFAULT_PERMUTATION_SEED if settings.seed is None else int(settings.seed)
    for statistic in settings.statistics:
        if statistic == "spa-corpus" or (settings.compare_test == "perm-pairs" and statistic != "acc-eq"):
            continue  # no PERM-BOTH is defined for these
        pairs = settings.compare_test == "perm-pairs" or (
            settings.compare_test == "wmt24" and statistic == "acc-eq"
        )
        if statistic not in META_STATISTICS and settings.level == "system":
            continue  # system-level scores have no segments to mix
        values = {c.metric: c.value for c in found if c.statistic == statistic}
        by = "none" if statistic == "spa" else settings.average_by

        def test(
            better: str,
            worse: str,
            rng: np.random.RandomState,
            statistic: str = statistic,
            by: str = by,
            pairs: bool = pairs,
        ) -> PermBoth:
            a, b = matrices[better], matrices[worse]
            names = (better, worse)
            if pairs:
                return pairs_perm_both(
                    a, b, human, by, settings.bootstrap, stopping=stopping, rng=rng, names=names
                )
            spa = (settings.permutations, spa_seed(settings))
            return perm_both(
                statistic,
                a,
                b,
                human,
                by,
                settings.bootstrap,
                stopping=stopping,
                rng=rng,
                names=names,
                spa=spa,
            )

        if values:
            ranked = clusters(values, test, statistic, by, seed=seed)
            out.append(replace(ranked, test="pairs" if pairs else "perm-both"))
    return out


def rank_columns(found: list[Clusters]) -> dict[str, dict[str, int]]:
    """Each clustering's WMT rank of every metric, by a column name (the statistic, and the
    grouping where two clusterings share a statistic): what the CSV and LaTeX tables show.

    >>> from understudy.correlation.perm_both import Clusters
    >>> p_values, resamples = ((1.0, 0.01),), ((0, 1000),)
    >>> spa = Clusters("spa", "none", ("COMET", "BLEU"), (0.9, 0.8), (1, 2), p_values, resamples, 0.05, 4)
    >>> rank_columns([spa])
    {'spa': {'COMET': 1, 'BLEU': 2}}
    """
    shared = {c.statistic for c in found if sum(d.statistic == c.statistic for d in found) > 1}
    return {
        f"{c.statistic} by {c.average_by}" if c.statistic in shared else c.statistic: dict(
            zip(c.metrics, c.ranks, strict=True)
        )
        for c in found
    }


def clusters_record(found: list[Clusters]) -> list[dict[str, Any]]:
    """The clusters as JSON takes them."""
    return [asdict(c) for c in found]
