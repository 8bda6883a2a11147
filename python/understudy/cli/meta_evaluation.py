"""``correlate``'s WMT24-style meta-evaluation on the command line (computed by
:mod:`understudy.correlation.meta_evaluation`): SPA, SPA on the corpus metric, acc-eq, statistics
averaged by group, PERM-BOTH and significance clusters (see :mod:`understudy.correlation.spa`,
:mod:`~understudy.correlation.ties`, :mod:`~understudy.correlation.perm_both`)."""

from __future__ import annotations

import argparse

from understudy.correlation.meta_evaluation import COMPARE_TESTS, META_STATISTICS, Settings
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
