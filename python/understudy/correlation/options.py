"""What ``understudy correlate`` reads and is asked to compute, declared as the families declare their
options (the command line's flags are derived from it): the level, the statistics with their
bootstrap intervals, the seed, what system-level intervals resample, the comparison of metrics,
WMT24's meta-evaluation settings (see :mod:`understudy.correlation.meta_evaluation`), and the
plot and the BLEU paper's analyses.

>>> asked = CorrelationOptions(statistics=("pearson", "acc-eq"), level="segment")
>>> asked.classic, asked.wants_matrices, asked.settings().statistics
(['pearson'], True, ('pearson', 'acc-eq'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from understudy.config import Declared, option
from understudy.correlation import DEFAULT_SEED, DEFAULT_STATISTICS, STATISTICS
from understudy.correlation.evalset import read_evalset
from understudy.correlation.meta_evaluation import COMPARE_TESTS, META_STATISTICS, Settings
from understudy.correlation.ties import AVERAGE_BY
from understudy.errors import ConfigError, InputFileError
from understudy.inputs.human import HumanScores, read_human
from understudy.inputs.score_files import read_named_scores, select_systems
from understudy.seeding import seed_value


@dataclass(frozen=True)
class CorrelationInputs(Declared):
    """What ``correlate`` reads beside the references and the systems: the systems' names in the
    human file, the human scores (or an mt-metrics-eval EvalSet folder's, for a language pair,
    against one of its references), and other metrics' score files.

    >>> CorrelationInputs(human="mqm.tsv").metric_scores
    ()
    """

    names: tuple[str, ...] | None = option(
        None, flags=("--names",), nargs="+", metavar="NAME", help="the systems' names in the human file"
    )
    human: str | None = option(
        None,
        flags=("--human",),
        metavar="FILE",
        help="human scores (TSV, CSV, JSON or MQM); with --evalset, the scorer's name (default: the only "
        "one, else mqm)",
    )
    evalset: str | None = option(
        None,
        flags=("--evalset",),
        metavar="DIR",
        help="an mt-metrics-eval EvalSet folder (references/, system-outputs/, human-scores/, "
        "metric-scores/): its reference, systems, human scores and metric scores, for --lp",
    )
    lp: str | None = option(
        None, flags=("--lp",), metavar="PAIR", help="the language pair of --evalset (en-de)"
    )
    evalset_ref: str | None = option(
        None,
        flags=("--evalset-ref",),
        metavar="NAME",
        help="--evalset's reference (default: the only one, else refA)",
    )
    metric_scores: tuple[str, ...] = option(
        (),
        flags=("--metric-scores",),
        nargs="+",
        metavar="FILE",
        help="scores of other metrics, read as --human reads (system scores too); --scores is the form with"
        " signatures, directions and --resample segments",
    )

    def read(self, refs: Sequence[str], inputs: Sequence[str] | None) -> Inputs:
        """The references, systems and human scores to correlate: the files given, or with
        :attr:`evalset`, its reference, its systems (unless ``inputs`` are given) and its metrics'
        score files (as ``NAME=FILE`` items of ``--scores``)."""
        if self.evalset is None:
            given = (("REF", refs), ("-i", inputs), ("--human", self.human))
            missing = [flag for flag, value in given if not value]
            if missing:
                raise ConfigError(f"correlate needs {', '.join(missing)} (or --evalset DIR --lp PAIR)")
            assert self.human is not None and inputs is not None
            return Inputs(list(refs), list(inputs), [], self.human, read_human(self.human))
        if self.lp is None:
            raise ConfigError("--evalset needs --lp (the language pair, as en-de)")
        if refs:
            raise ConfigError("--evalset gives the reference: name another with --evalset-ref, not as REF")
        found = read_evalset(self.evalset, self.lp, self.evalset_ref, self.human)
        systems = list(inputs or [str(path) for path in found.systems.values()])
        scores = [f"{name}={path}" for name, path in found.metrics.items()]
        return Inputs([str(found.reference)], systems, scores, found.human.source, found.human)

    def whole_metric_scores(self, inputs: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]]:
        """``--metric-scores`` split: the files with every segment of every system of ``inputs``,
        read the ``--scores`` way (``(stem, path)``: a signature, ``--resample segments``), and the
        others (system scores, or some segments only), read as ``--human`` reads."""
        whole, others = [], []
        for path in self.metric_scores:
            try:
                complete = read_human(path).has_segments
                if complete:
                    select_systems(read_named_scores(path), inputs, path)
            except InputFileError:
                complete = False
            if complete:
                whole.append((Path(path).name.rsplit(".", 1)[0], path))
            else:
                others.append(path)
        return whole, others


@dataclass(frozen=True)
class Inputs:
    """What ``correlate`` reads: the reference files, the systems' files, more ``--scores``
    items (an EvalSet's metrics), and the human scores with their file."""

    refs: list[str]
    systems: list[str]
    scores: list[str]
    human_path: str
    human: HumanScores


@dataclass(frozen=True)
class CorrelationOptions(Declared):
    """What is computed: level, statistics, intervals, comparisons, WMT24's settings, plots and
    the paper's analyses."""

    level: str = option("system", flags=("--level",), choices=("system", "segment"), help="default: system")
    statistics: tuple[str, ...] = option(
        DEFAULT_STATISTICS,
        flags=("--statistics",),
        nargs="+",
        choices=(*STATISTICS, *META_STATISTICS),
        metavar="STAT",
        help=f"any of {' '.join(STATISTICS)} (with bootstrap intervals), or WMT24's spa (soft pairwise "
        "accuracy, system level, from segment scores), spa-corpus (SPA with the corpus metric on permuted "
        "statistics rows) and acc-eq (tie-calibrated pairwise accuracy, segment level; with --average-by "
        f"item as WMT24) (default: {' '.join(DEFAULT_STATISTICS)})",
    )
    bootstrap: int = option(
        1000, flags=("-n", "--bootstrap"), type=int, metavar="N", help="resamples for intervals (1000)"
    )
    seed: int | None = option(
        None,
        flags=("--seed",),
        type=seed_value,
        help="random seed (bootstrap and --compare: 12345; SPA's permutations: 4, mt-metrics-eval's)",
    )
    resample: str = option(
        "systems",
        flags=("--resample",),
        choices=("systems", "segments"),
        help="what system-level intervals draw: the systems (default), or the segments, every system "
        "rescored on each draw (with segment-level human scores, those are drawn too)",
    )
    compare: bool = option(
        False, flags=("--compare",), help="test each pair of metrics' difference (permutation)"
    )
    average_by: str = option(
        "none",
        flags=("--average-by",),
        choices=AVERAGE_BY,
        help="segment-level statistics within each group, averaged (mt-metrics-eval's avg_by): none (one "
        "group, the default), system (each system's segments), item (each segment's systems: WMT24's)",
    )
    permutations: int = option(
        1000,
        flags=("--permutations",),
        type=int,
        metavar="N",
        help="SPA's permutations per pair of systems (1000, as mt-metrics-eval)",
    )
    compare_test: str = option(
        "swap",
        flags=("--compare-test",),
        choices=COMPARE_TESTS,
        help="--compare's test: swap (standardized scores of each item swapped, the default), perm-both "
        "(mt-metrics-eval's PermutationSigDiff, with WMT's clusters), perm-pairs (acc-eq as WMT24 runs it: "
        "comparisons swapped, each metric at its own threshold), wmt24 (perm-pairs for acc-eq, perm-both "
        "for the rest, as WMT24's tasks)",
    )
    block_size: int = option(
        100,
        flags=("--block-size",),
        type=int,
        metavar="N",
        help="PERM-BOTH's early stopping: after every N resamples, stop when p < 0.02 or p > 0.5 (100, "
        "as WMT's tasks; --bootstrap gives the most resamples)",
    )
    plot: str | None = option(
        None,
        flags=("--plot",),
        metavar="FILE",
        help="the regression of human on metric scores (.png or .svg); with --paper also "
        "FILE.normalized and FILE.adjacent beside it",
    )
    paper: bool = option(
        False,
        flags=("--paper",),
        help="also the BLEU paper's analyses: regression and residuals, range-normalized scores, "
        "adjacent systems' human differences (segment scores), every subset of the references",
    )

    @property
    def classic(self) -> list[str]:
        """The statistics with bootstrap intervals (Pearson unless only WMT24's are asked for)."""
        return [s for s in self.statistics if s not in META_STATISTICS] or ["pearson"]

    @property
    def tests_seed(self) -> int:
        """The seed of the bootstrap and of --compare's test."""
        return DEFAULT_SEED if self.seed is None else self.seed

    @property
    def wants_matrices(self) -> bool:
        """Whether WMT24's meta-evaluation runs, which needs the segment-score matrices."""
        return (
            any(s in META_STATISTICS for s in self.statistics)
            or self.average_by != "none"
            or self.compare_test != "swap"
        )

    @property
    def with_clusters(self) -> bool:
        """Whether --compare's test groups the metrics into WMT's significance clusters."""
        return self.compare and self.compare_test != "swap"

    def settings(self) -> Settings:
        """The meta-evaluation's settings."""
        return Settings(
            self.statistics,
            self.level,
            self.average_by,
            self.permutations,
            self.compare_test,
            self.block_size,
            self.bootstrap,
            self.seed,
        )
