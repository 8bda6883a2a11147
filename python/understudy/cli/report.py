"""``understudy report``: one self-contained HTML page of systems scored against references."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from understudy._atomic import atomic_write
from understudy.cli.output import (
    CliError,
    add_command,
    add_metric_options,
    add_scoring_options,
    add_text_options,
    add_threads_option,
    read_texts,
    scorers,
    warn_reference_as_system,
)
from understudy.cli.progress import Progress
from understudy.cli.testset import add_cache_options, testset_refs
from understudy.errors import LengthMismatchError

EXAMPLES = """examples:
  understudy report ref.de -i sys*.de -o report.html
  understudy report ref.de -i sys*.de -m bleu chrf ter -o report.html -n 2000
  understudy report -t wmt17 -l en-de -i sys*.de -o report.html

The page holds every metric's ranking with 95% intervals and significance clusters, the
signature of each number and the command that reproduces it; BLEU's reading by the cloud
vendor's guide with its caveats; per system the n-gram precisions, brevity penalty, length
ratio, a histogram of sentence scores and the lowest-scoring segments. It is one file: inline
CSS and SVG, nothing fetched, and every name and segment is escaped.
"""


def add_parser(commands: Any) -> None:
    """Register the ``report`` subcommand."""
    p = add_command(
        commands,
        "report",
        "one self-contained HTML report: rankings, clusters, precisions, worst segments",
        "Score the systems with every metric of -m and write one HTML page (extra 'report': "
        "Jinja2 and matplotlib).",
        EXAMPLES,
    )
    p.add_argument("refs", nargs="*", metavar="REF", help="reference file(s); or -t NAME -l PAIR")
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system output files")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("-t", "--test-set", metavar="NAME", help="a built-in test set (see 'understudy testset')")
    p.add_argument("-l", "--language-pair", dest="langpair", metavar="SRC-TRG", help="the pair of -t")
    p.add_argument("-n", type=int, default=1000, metavar="N", help="bootstrap resamples (1000)")
    p.add_argument("--seed", type=int, default=12345, help="random seed (12345)")
    add_cache_options(p)
    add_text_options(p, "case-insensitive BLEU", language=False)
    add_scoring_options(p)
    add_metric_options(p)
    add_threads_option(p)
    p.set_defaults(run=run, origlang=None, subset=None)


def run(args: argparse.Namespace) -> int:
    """Score, build and write the report."""
    from understudy.report import build, render

    if bool(args.test_set) == bool(args.refs):
        raise CliError("give reference files or -t NAME -l PAIR (one of them)")
    if args.test_set:
        refs = [lines for _, lines in testset_refs(args).streams]
    else:
        warn_reference_as_system(args.refs, args.input)
        refs = read_texts(args.refs)
    systems = read_texts(args.input)
    for path, lines in zip(args.input, systems, strict=True):
        if len(lines) != len(refs[0]):
            raise LengthMismatchError(f"the references have {len(refs[0])} lines but {path} has {len(lines)}")
    metrics = scorers(args, effective_order=False)
    command = (
        "understudy " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:2] == ["report"] else ""
    )
    with Progress("report", total=len(metrics), unit="metrics") as bar:
        report = build(
            metrics, args.input, systems, refs, command or "understudy report ...", args.n, args.seed
        )
        bar.update(len(metrics))
    html = render(report)
    with atomic_write(args.output) as out:
        out.write(html.encode("utf-8"))
    print(f"understudy: wrote {args.output} ({len(html) // 1024} KB)", file=sys.stderr)
    return 0
