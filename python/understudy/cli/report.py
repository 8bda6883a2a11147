"""``understudy report``: one self-contained HTML page of systems scored against references."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from understudy.cli.computed import asked_metrics
from understudy.cli.keep import add_ledger_option, add_log_options, log_scored
from understudy.cli.messages import CliError
from understudy.cli.options import (
    add_command,
    add_dask_option,
    add_declared,
    add_metric_options,
    add_threads_option,
)
from understudy.cli.progress import Progress
from understudy.cli.scores import add_scores_options
from understudy.cli.segments import (
    Units,
    add_segment_options,
    cut_origins,
    reshape,
    reshaping,
    row_documents,
    signature_pairs,
    whole_documents,
)
from understudy.cli.testset import add_cache_options, testset_refs
from understudy.datasets.references import read_systems
from understudy.errors import LengthMismatchError
from understudy.files.atomic import atomic_write, writable
from understudy.inputs.parallel import read_texts, warn_reference_as_system
from understudy.ledger import Ledger
from understudy.report.options import ReportAsked
from understudy.wording import kept_name

if TYPE_CHECKING:
    from understudy.report.documents import Layout

EXAMPLES = """examples:
  understudy report ref.de -i sys*.de -o report.html
  understudy report ref.de -i sys*.de -m bleu chrf ter -o report.html -n 2000
  understudy report -t wmt17 -l en-de -i sys*.de -o report.html
  understudy report ref.de -i sys*.de -o report.html --pair sysA.de sysB.de
  understudy report ref-B.txt -i sys/*.txt --human mqm_system_scores.tsv -o report.html
  understudy report ref.de -i sys*.de -m bleu chrf --scores COMET-22=comet.out -o report.html
  understudy report --records tag:run-7 -o report.html          kept records, without the text
  understudy report ref.de -i sys*.de -o report.html --history tag:run-7 baseline.de

The page holds every metric's ranking with 95% intervals and significance clusters, the
signature of each number and the command that reproduces it; BLEU's reading by the cloud
vendor's guide with its caveats; per system the n-gram precisions, brevity penalty, length
ratio, a histogram of sentence scores and the lowest-scoring segments; compare-mt's analyses
(scores by reference length, segments by sentence score, word F-measure by frequency); the
n-grams one system matches more often than another and a filterable segment-by-segment diff
of two systems (--pair; by default the two best) with matched n-grams shaded; with --human,
each metric's correlation with the human scores and the regression plot; with --history, kept
records over time. With --records, the page is made from the ledger's statistics alone. It is one file:
inline CSS, SVG and script, nothing fetched, and every name and segment is escaped.
"""


def add_parser(commands: Any) -> None:
    """Register the ``report`` subcommand."""
    p = add_command(
        commands,
        "report",
        "one self-contained HTML report: rankings, clusters, buckets, a two-system diff",
        "Score the systems with every metric of -m and write one HTML page (extra 'report': "
        "Jinja2, matplotlib and SciPy).",
        EXAMPLES,
    )
    p.add_argument("refs", nargs="*", metavar="REF", help="reference file(s); or -t NAME -l PAIR")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", help="system output files")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("-t", "--test-set", metavar="NAME", help="a built-in test set (see 'understudy testset')")
    p.add_argument("-l", "--language-pair", dest="langpair", metavar="SRC-TRG", help="the pair of -t")
    add_declared(p, ReportAsked)
    kept = p.add_argument_group("from the ledger (understudy ledger)")
    kept.add_argument(
        "--records",
        nargs="+",
        metavar="ID-or-tag:NAME",
        help="report kept records instead of files (tag:NAME: its latest record of each system and "
        "metric); without the text, the sections that need it are left out, and the page says which",
    )
    kept.add_argument(
        "--history",
        nargs="+",
        metavar="SYSTEM-or-tag:NAME",
        help="add a history section: these systems' or tags' records over time, with intervals",
    )
    add_ledger_option(kept)
    add_log_options(p, ledger=False)
    add_cache_options(p)
    add_metric_options(p, language=False, neural=True)
    add_scores_options(p)
    add_threads_option(p)
    add_dask_option(p, text=False)
    add_segment_options(p)
    p.set_defaults(run=run, origlang=None, subset=None)


def run(args: argparse.Namespace) -> int:
    """Score, build and write the report (or build it from kept records)."""
    from understudy.report import render

    writable(args.output)  # before the work, not after it
    command: str = args.command_line  # as parsed, the password of a database URL redacted
    with Progress("report", unit="steps") as bar:
        report = (
            _from_records(args, command, bar.update) if args.records else _scored(args, command, bar.update)
        )
    if args.history:
        report = dataclasses.replace(report, history=_history(args))
    html = render(report)
    with atomic_write(args.output) as out:
        out.write(html.encode("utf-8"))
    print(f"understudy: wrote {args.output} ({len(html) // 1024} KB)", file=sys.stderr)
    return 0


def _scored(args: argparse.Namespace, command: str, progress: Callable[[int, int], None]) -> Any:
    """The report of the files of -i against the references."""
    from understudy.report import build

    if not args.input:
        raise CliError("give the systems' files (-i), or kept records (--records)")
    if bool(args.test_set) == bool(args.refs):
        raise CliError("give reference files or -t NAME -l PAIR (one of them)")
    testset: list[tuple[str, str]] = []
    named = None
    if args.test_set:
        named = testset_refs(args)
        refs, testset = [lines for _, lines in named.streams], named.signature
    else:
        warn_reference_as_system(args.refs, args.input)
        refs = read_texts(args.refs)
    systems = read_systems(args.input, named, whole_documents(args))
    # Names as the page shows them: a file name that is not UTF-8 with its bytes escaped.
    names = [kept_name(path) for path in args.input]
    refs, systems, layout = _laid_out(args, refs, systems, names, named.units if named else None)
    for path, lines in zip(args.input, systems, strict=True):
        if len(lines) != len(refs[0]):
            raise LengthMismatchError(f"the references have {len(refs[0])} lines but {path} has {len(lines)}")
    metrics = asked_metrics(args, names, refs, systems)
    asked = ReportAsked.from_values(vars(args))
    pair = asked.pair_indices(args.input)
    human = asked.human_inputs(args.input)
    return build(
        metrics,
        names,
        systems,
        refs,
        command,
        args.n,
        args.seed,
        pair=pair,
        human=human,
        progress=progress,
        keep=(lambda stats: log_scored(args, args.input, list(stats.values()), testset, command))
        if args.log
        else None,
        extras=signature_pairs(args),
        layout=layout,
    )


def _laid_out(
    args: argparse.Namespace,
    refs: list[list[str]],
    systems: list[list[str]],
    names: list[str],
    units: Units | None,
) -> tuple[list[list[str]], list[list[str]], Layout | None]:
    """The references and systems as scored (cut, joined), and what the diff shows of their
    layout: each row's document, and where a cut system's segments came from."""
    from understudy.report.documents import Layout

    if not reshaping(args):
        docs = row_documents(args, len(refs[0]), units)
        return refs, systems, Layout(docs) if docs is not None else None
    count = len(refs[0])
    scored_refs, scored = reshape(args, refs, systems, units)
    layout = Layout(row_documents(args, count, units), cut_origins(args, names, systems, scored))
    return scored_refs, scored, layout


def _from_records(args: argparse.Namespace, command: str, progress: Callable[[int, int], None]) -> Any:
    """The report of kept records: their statistics, without the text."""
    from understudy.report.kept import build_from_stats, kept_statistics

    given = [name for name, value in (("-i", args.input), ("REF", args.refs), ("-t", args.test_set)) if value]
    given += [
        name for name, value in (("--pair", args.pair), ("--human", args.human), ("--log", args.log)) if value
    ]
    if given:
        raise CliError(f"--records reports kept statistics: {', '.join(given)} cannot be given with it")
    with Ledger(args.ledger, read_only=True) as ledger:
        per_metric, names = kept_statistics(ledger, args.records)
    return build_from_stats(per_metric, names, command, args.n, args.seed, progress=progress)


def _history(args: argparse.Namespace) -> Any:
    """The history section of the systems or tags of --history."""
    from understudy.report.kept import history_view

    with Ledger(args.ledger, read_only=True) as ledger:
        lines = {which: ledger.history_of(which, n=args.n) for which in args.history}
    if not any(lines.values()):
        raise CliError(f"--history: no record of {' or '.join(args.history)} in {ledger.location}")
    return history_view(lines, args.n)
