"""Significance on the command line: the options of ``score`` and the ``compare`` subcommand.

``score --paired-bs/--paired-ar/--confidence`` take sacrebleu's flags; ``compare`` tests
every system against every other (with clusters) or runs the BLEU paper's block t-test.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from understudy.cli.computed import asked_metrics
from understudy.cli.keep import add_log_options, log_scored
from understudy.cli.messages import CliError
from understudy.cli.options import (
    add_command,
    add_dask_option,
    add_declared,
    add_metric_options,
    add_threads_option,
    metrics_named,
)
from understudy.cli.output import write
from understudy.cli.score_printers import print_sacrebleu_corpus
from understudy.cli.scores import add_scores_options, given_scores, wants_scores
from understudy.cli.segments import add_segment_options, reshaper, signature_pairs, whole_documents
from understudy.cli.table import emit
from understudy.cli.testset import add_testset_options, testset_refs
from understudy.evaluation import Evaluation
from understudy.files.tables import SCORE_WIDTH_HELP, Table, width_value
from understudy.inputs.parallel import check_stdin_once, read_parallel, warn_reference_as_system
from understudy.metrics.given_files import given_stats
from understudy.printing.results import (
    all_pairs_csv,
    all_pairs_table,
    blocks_table,
    confidence_table,
    paired_table,
)
from understudy.printing.sacrebleu_text import paired_text
from understudy.signature import tagged
from understudy.significance import (
    AllPairsResult,
    BlockTestResult,
    ConfidenceResult,
    PairedResult,
)
from understudy.significance.ranking import Ranking
from understudy.stats import Stats


def print_paired(results: list[PairedResult], args: argparse.Namespace) -> None:
    """Paired tests, one per metric: each system's score, mean ± 95% interval and p-value against
    the baseline, a pair of columns per metric."""
    if getattr(args, "bare", False) and args.format in ("json", "text", "latex"):
        order = list(getattr(args, "metrics", None) or [])
        write(paired_text(results, order, args.format, args.width, args.short))
        return
    emit(paired_table(results, args.width, args.short), args.format)


def print_confidence(
    results: list[ConfidenceResult], stats: list[Stats[Any, Any]], args: argparse.Namespace
) -> None:
    """One system's score with its bootstrap mean ± 95% interval, a line (or record) per metric."""
    scores = [replace(st.score(), signature=r.signature) for r, st in zip(results, stats, strict=True)]
    if getattr(args, "bare", False) and args.format in ("json", "text"):
        spans = [(r.system.mean or 0.0, r.system.ci or 0.0) for r in results]
        print_sacrebleu_corpus([(results[0].system.name, scores)], args, spans)
        return
    if args.score_only:
        widths = [r.signature.config.decimals(args.width) for r in results]
        write("\n".join(f"{r.system.score:.{w}f}" for r, w in zip(results, widths, strict=True)))
        return
    table = confidence_table(results, scores, args.width, args.short)
    if args.format in ("json", "csv"):
        emit(table, args.format)
    else:
        write(table.text or "")


EXAMPLES = """examples:
  understudy compare ref.de -i sys*.de -f text              all pairs by paired bootstrap, with clusters
  understudy compare ref.de -i sys*.de --paired-ar -n 2000  by approximate randomization
  understudy compare ref.de -i sys*.de --blocks -f text     the BLEU paper's block t-test, 20 blocks
  understudy compare ref.de -i sys*.de -m bleu chrf ter     clusters by each metric in turn
  understudy compare ref.de -i sys*.de -m bleu --scores COMET-22=comet.out   BLEU and COMET-22
  understudy compare --scores MetricX-24=a.jsonl MetricX-24=b.jsonl   on given scores alone
  understudy compare -t wmt17 -l en-de -i sys*.de           against a built-in test set
  understudy compare -t wmt25.jsonl -l en-de_DE -i a.jsonl b.jsonl --granularity document
                                                            WMT25's documents, resampled whole
"""


def add_parser(commands: Any) -> None:
    """Register the ``compare`` subcommand."""
    p = add_command(
        commands,
        "compare",
        "all systems against each other: clusters, or the paper's block t-test",
        "Test every system against every other and group them into clusters of systems that are "
        "not significantly different (ranked by score, for each metric of -m), or with --blocks run the "
        "BLEU paper's test: scores per block of consecutive segments and paired t-tests between "
        "adjacent systems.",
        EXAMPLES,
    )
    p.add_argument("refs", nargs="*", metavar="REF", help="reference file(s)")
    p.add_argument(
        "-i",
        "--input",
        nargs="+",
        metavar="HYP",
        help="system output files (two or more; none with --scores alone)",
    )
    add_declared(p, Ranking)
    add_metric_options(p, language=False, neural=True)  # -l is among the test-set options
    add_testset_options(p)
    add_scores_options(p)
    p.add_argument(
        "-f", "--format", default="text", choices=["json", "text", "latex", "csv"], help="default: text"
    )
    p.add_argument(
        "-w",
        "--width",
        type=width_value,
        default=1,
        help=SCORE_WIDTH_HELP,
    )
    p.add_argument("-sh", "--short", action="store_true", help="abbreviated signature")
    add_threads_option(p)
    add_dask_option(p, text=False)
    add_log_options(p)
    add_segment_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read every system, then run the chosen comparison."""
    if args.log and not (args.refs or args.test_set):
        raise CliError("--log keeps records of a test set: give its reference files or -t (and -i)")
    names, per_metric, testset = _all_stats(args)
    if args.log:
        log_scored(args, names, per_metric, testset, args.command_line)
    ranking = Ranking.from_values(vars(args))
    results = [ranking.rank(stats, names) for stats in per_metric]
    if testset or signature_pairs(args):
        extras = testset + signature_pairs(args)
        results = [tagged(r, extras) for r in results]
    if args.format == "csv":
        if args.blocks is not None:
            raise CliError("-f csv is for the clusters; the block test prints text, JSON or LaTeX")
        emit(all_pairs_csv([r for r in results if isinstance(r, AllPairsResult)]), "csv")
        return 0
    if args.format == "json" and len(results) > 1:
        # One JSON document: a list with each metric's record.
        emit(Table([], [], record=[r.to_dict() for r in results]), "json")
        return 0
    for k, result in enumerate(results):
        if k:
            write("")
        if isinstance(result, BlockTestResult):
            print_blocks(result, args)
        else:
            print_all_pairs(result, args)
    return 0


def _all_stats(
    args: argparse.Namespace,
) -> tuple[list[str], list[list[Stats[Any, Any]]], list[tuple[str, str]]]:
    """The systems' names and, per metric (-m, then --scores), their statistics; and the test
    set's signature pairs (``-t``: its name and pair; none for reference files)."""
    if not args.input:
        if not wants_scores(args):
            raise CliError("compare needs systems: -i with reference files, or --scores")
        if args.refs or args.test_set or metrics_named(args):
            raise CliError("reference files and -m score the text of systems: give their files with -i")
        given, names = given_scores(args, None, None)
        _check_systems(names)
        return names, [*given_stats(given, names)], []
    if args.refs and args.test_set:
        raise CliError("give reference files or -t NAME, not both")
    if not (args.refs or args.test_set):
        raise CliError(
            "no references: give reference files before -i, or -t NAME -l PAIR (or --scores alone)"
        )
    _check_systems(args.input)
    refs, systems, testset = _texts(args)
    evaluation = Evaluation(dict(zip(args.input, systems, strict=True)), refs)
    text = metrics_named(args) or not wants_scores(args)
    metrics = asked_metrics(args, args.input, refs, systems, with_text=text)
    return args.input, [evaluation.statistics(metric) for metric in metrics], testset


def _texts(args: argparse.Namespace) -> tuple[list[list[str]], list[list[str]], list[tuple[str, str]]]:
    """The references and the systems as scored (cut and joined as asked), from files or ``-t``."""
    if not args.test_set:
        if args.origlang is not None or args.subset is not None:
            raise CliError("--origlang and --subset filter a built-in test set (-t)")
        check_stdin_once(
            [(p, f"reference {k + 1}") for k, p in enumerate(args.refs)]
            + [(p, f"system {k + 1} (-i)") for k, p in enumerate(args.input)]
        )
        warn_reference_as_system(args.refs, args.input)
        return (*read_parallel(args.refs, args.input, reshaper(args)), [])
    testset = testset_refs(args)
    reshape = reshaper(args, testset.units)
    refs, systems = testset.read_against(args.input, reshape, whole_documents(args), filtered=True)
    return refs, systems, testset.signature


def _check_systems(names: list[str]) -> None:
    if len(names) < 2:
        raise CliError("compare needs at least two systems")
    if len(set(names)) != len(names):
        raise CliError("the same system file is given twice with -i")


def print_all_pairs(result: AllPairsResult, args: argparse.Namespace) -> None:
    """Ranking with clusters, then the p-value of every pair."""
    emit(all_pairs_table(result, args.width, args.short, args.pairs), args.format)


def print_blocks(result: BlockTestResult, args: argparse.Namespace) -> None:
    """The paper's Table 2: mean and standard deviation of block scores, t between adjacent systems."""
    emit(blocks_table(result, args.width, args.short), args.format)
