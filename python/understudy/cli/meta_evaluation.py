"""``correlate``'s WMT24-style meta-evaluation: SPA, SPA on the corpus metric, acc-eq, statistics
averaged by group, PERM-BOTH and significance clusters (see :mod:`understudy.correlation.spa`,
:mod:`~understudy.correlation.ties`, :mod:`~understudy.correlation.perm_both`)."""

from __future__ import annotations

import argparse
from dataclasses import asdict, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy.cli.messages import CliError
from understudy.cli.table import text_table
from understudy.correlation import Correlation
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
from understudy.inputs.human import HumanScores
from understudy.stats import Stats

META_STATISTICS = ("spa", "spa-corpus", "acc-eq")
"""The statistics of WMT24's metrics task, computed from segment scores."""
COMPARE_TESTS = ("swap", "perm-both", "perm-pairs", "wmt24")
DEFAULT_PERMUTATION_SEED = 12345


def add_options(p: argparse.ArgumentParser) -> None:
    """``--average-by``, ``--permutations``, ``--compare-test``, ``--block-size``."""
    p.add_argument(
        "--average-by",
        choices=AVERAGE_BY,
        default="none",
        help="segment-level statistics within each group, averaged (mt-metrics-eval's avg_by): none (one "
        "group, the default), system (each system's segments), item (each segment's systems: WMT24's)",
    )
    p.add_argument(
        "--permutations",
        type=int,
        default=1000,
        metavar="N",
        help="SPA's permutations per pair of systems (1000, as mt-metrics-eval)",
    )
    p.add_argument(
        "--compare-test",
        choices=COMPARE_TESTS,
        default="swap",
        help="--compare's test: swap (standardized scores of each item swapped, the default), perm-both "
        "(mt-metrics-eval's PermutationSigDiff, with WMT's clusters), perm-pairs (acc-eq as WMT24 runs it: "
        "comparisons swapped, each metric at its own threshold), wmt24 (perm-pairs for acc-eq, perm-both "
        "for the rest, as WMT24's tasks)",
    )
    p.add_argument(
        "--block-size",
        type=int,
        default=100,
        metavar="N",
        help="PERM-BOTH's early stopping: after every N resamples, stop when p < 0.02 or p > 0.5 (100, "
        "as WMT's tasks; --bootstrap gives the most resamples)",
    )


def wanted(args: argparse.Namespace) -> bool:
    """Whether this run needs the segment-score matrices."""
    return (
        any(s in META_STATISTICS for s in args.statistics)
        or args.average_by != "none"
        or args.compare_test != "swap"
    )


def classic(statistics: list[str]) -> list[str]:
    """The statistics ``correlate`` computed before (with bootstrap intervals)."""
    return [s for s in statistics if s not in META_STATISTICS]


def human_matrix(human: HumanScores, names: list[str], segments: int, source: str) -> NDArray[np.float64]:
    """Systems x segments human scores, NaN where a segment is not rated."""
    if not human.has_segments:
        raise CliError(f"{source} has system scores only; {', '.join(META_STATISTICS)} need segment scores")
    out = np.full((len(names), segments), np.nan)
    for k, name in enumerate(names):
        for segment, value in human.segments.get(name, {}).items():
            if segment > segments:
                raise CliError(
                    f"{source} scores segment {segment} of {name!r}, but the references have {segments} lines"
                )
            out[k, segment - 1] = value
    if np.isnan(out).all():
        raise CliError(f"{source} scores none of the segments of these systems")
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


def spa_seed(args: argparse.Namespace) -> int:
    """SPA's seed: ``--seed``, else mt-metrics-eval's 4."""
    return SPA_SEED if args.seed is None else int(args.seed)


def correlations(
    args: argparse.Namespace,
    stats: dict[str, list[Stats[Any, Any]]],
    matrices: dict[str, NDArray[np.float64]],
    human: NDArray[np.float64],
) -> list[Correlation]:
    """Every metric's new statistics, and the classic ones averaged by group when asked."""
    out = []
    for name, matrix in matrices.items():
        for statistic in args.statistics:
            found = _one(args, statistic, stats[name], matrix, human)
            if found is not None:
                out.append(Correlation(name, statistic, found.pop("value"), extra=found))
    return out


def _one(
    args: argparse.Namespace,
    statistic: str,
    per_system: list[Stats[Any, Any]],
    matrix: NDArray[np.float64],
    human: NDArray[np.float64],
) -> dict[str, Any] | None:
    if statistic in ("spa", "spa-corpus"):
        seed = spa_seed(args)
        if statistic == "spa":
            found = soft_pairwise_accuracy(matrix, human, args.permutations, seed)
        else:
            found = spa_corpus(per_system, human, args.permutations, seed)
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
        tied = tie_calibrated_accuracy(matrix, human, args.average_by)
        return {
            "value": tied.value,
            "threshold": tied.threshold,
            "average_by": args.average_by,
            "groups": tied.groups,
        }
    if args.level == "segment" and args.average_by != "none":
        value = grouped_statistic(statistic, matrix, human, args.average_by)
        return {"value": value, "average_by": args.average_by}
    return None


def cluster_all(
    args: argparse.Namespace,
    found: list[Correlation],
    matrices: dict[str, NDArray[np.float64]],
    human: NDArray[np.float64],
) -> list[Clusters]:
    """WMT's significance clusters of the metrics for each statistic, by ``--compare-test``."""
    if len(matrices) < 2:
        raise CliError("--compare needs at least two metrics")
    out = []
    stopping = EarlyStopping(args.block_size)
    seed = DEFAULT_PERMUTATION_SEED if args.seed is None else int(args.seed)
    for statistic in args.statistics:
        if statistic == "spa-corpus" or (args.compare_test == "perm-pairs" and statistic != "acc-eq"):
            continue  # no PERM-BOTH is defined for these
        pairs = args.compare_test == "perm-pairs" or (args.compare_test == "wmt24" and statistic == "acc-eq")
        if statistic not in META_STATISTICS and args.level == "system":
            continue  # system-level scores have no segments to mix
        values = {c.metric: c.value for c in found if c.statistic == statistic}
        by = "none" if statistic == "spa" else args.average_by

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
                    a, b, human, by, args.bootstrap, stopping=stopping, rng=rng, names=names
                )
            spa = (args.permutations, spa_seed(args))
            return perm_both(
                statistic, a, b, human, by, args.bootstrap, stopping=stopping, rng=rng, names=names, spa=spa
            )

        if values:
            ranked = clusters(values, test, statistic, by, seed=seed)
            out.append(replace(ranked, test="pairs" if pairs else "perm-both"))
    return out


def cluster_lines(found: list[Clusters], w: int) -> list[str]:
    """Each statistic's ranking with WMT's significance clusters."""
    lines = []
    for c in found:
        rows = [[str(r), m, f"{v:.{w}f}"] for m, v, r in zip(c.metrics, c.values, c.ranks, strict=True)]
        lines += [
            "",
            f"Significance clusters by {c.statistic} (average by {c.average_by}; "
            f"{'pairs test' if c.test == 'pairs' else 'PERM-BOTH'}, alpha {c.alpha}, seed {c.seed}; "
            "rank 1 is the top cluster):",
            text_table(["Rank", "Metric", c.statistic], rows),
        ]
    return lines


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


def note_lines(found: list[Correlation], w: int) -> list[str]:
    """What the new statistics rest on: SPA's permutations, acc-eq's thresholds."""
    lines = []
    spa = next((c for c in found if c.statistic in ("spa", "spa-corpus")), None)
    if spa is not None:
        extra = spa.extra
        lines.append(
            f"SPA: soft pairwise accuracy (Thompson et al. 2024) over {extra['segments']} segments rated "
            f"for every system, {extra['permutations']} permutations, seed {extra['seed']}; spa-corpus: "
            "each pair's metric p-value from the corpus metric on permuted statistics rows"
        )
    tied = [c for c in found if c.statistic == "acc-eq"]
    if tied:
        listed = ", ".join(f"{c.metric} {c.extra['threshold']:.{w}g}" for c in tied)
        by = tied[0].extra["average_by"]
        lines.append(
            f"acc-eq: tie-calibrated pairwise accuracy by {by} (Deutsch et al. 2023); thresholds: {listed}"
        )
    return lines


def clusters_record(found: list[Clusters]) -> list[dict[str, Any]]:
    """The clusters as JSON takes them."""
    return [asdict(c) for c in found]


__all__ = [
    "COMPARE_TESTS",
    "META_STATISTICS",
    "add_options",
    "classic",
    "cluster_all",
    "cluster_lines",
    "clusters_record",
    "correlations",
    "human_matrix",
    "note_lines",
    "rank_columns",
    "segment_matrices",
    "wanted",
]
