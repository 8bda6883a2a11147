"""``correlate``'s WMT24-style meta-evaluation on the command line (computed by
:mod:`understudy.correlation.meta_evaluation`): SPA, SPA on the corpus metric, acc-eq, statistics
averaged by group, PERM-BOTH and significance clusters (see :mod:`understudy.correlation.spa`,
:mod:`~understudy.correlation.ties`, :mod:`~understudy.correlation.perm_both`)."""

from __future__ import annotations

import argparse

from understudy.cli.table import text_table
from understudy.correlation import Correlation
from understudy.correlation.meta_evaluation import COMPARE_TESTS, META_STATISTICS, Settings
from understudy.correlation.perm_both import Clusters
from understudy.correlation.ties import AVERAGE_BY


def settings_of(args: argparse.Namespace) -> Settings:
    """The meta-evaluation the options ask for."""
    return Settings(
        tuple(args.statistics),
        args.level,
        args.average_by,
        args.permutations,
        args.compare_test,
        args.block_size,
        args.bootstrap,
        args.seed,
    )


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
