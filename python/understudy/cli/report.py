"""``understudy report``: one self-contained HTML page of systems scored against references."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path
from typing import Any

from understudy._atomic import atomic_write, writable
from understudy.cli.given import add_scores_options, given_scores
from understudy.cli.output import (
    CliError,
    add_command,
    add_metric_options,
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
  understudy report ref.de -i sys*.de -o report.html --pair sysA.de sysB.de
  understudy report ref-B.txt -i sys/*.txt --human mqm_system_scores.tsv -o report.html
  understudy report ref.de -i sys*.de -m bleu chrf --scores COMET-22=comet.out -o report.html

The page holds every metric's ranking with 95% intervals and significance clusters, the
signature of each number and the command that reproduces it; BLEU's reading by the cloud
vendor's guide with its caveats; per system the n-gram precisions, brevity penalty, length
ratio, a histogram of sentence scores and the lowest-scoring segments; compare-mt's analyses
(scores by reference length, segments by sentence score, word F-measure by frequency); the
n-grams one system matches more often than another and a filterable segment-by-segment diff
of two systems (--pair; by default the two best) with matched n-grams shaded; with --human,
each metric's correlation with the human scores and the regression plot. It is one file:
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
    p.add_argument("-i", "--input", nargs="+", required=True, metavar="HYP", help="system output files")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("-t", "--test-set", metavar="NAME", help="a built-in test set (see 'understudy testset')")
    p.add_argument("-l", "--language-pair", dest="langpair", metavar="SRC-TRG", help="the pair of -t")
    p.add_argument("-n", type=int, default=1000, metavar="N", help="bootstrap resamples (1000)")
    p.add_argument("--seed", type=int, default=12345, help="random seed (12345)")
    p.add_argument(
        "--pair", nargs=2, metavar=("A", "B"), help="the two systems of the diff (default: the two best)"
    )
    p.add_argument(
        "--human", metavar="FILE", help="human scores of the systems (as for 'understudy correlate')"
    )
    p.add_argument("--names", nargs="+", metavar="NAME", help="the systems' names in the --human file")
    add_cache_options(p)
    add_metric_options(p, language=False)
    add_scores_options(p)
    add_threads_option(p)
    p.set_defaults(run=run, origlang=None, subset=None)


def run(args: argparse.Namespace) -> int:
    """Score, build and write the report."""
    from understudy.report import build, render

    if bool(args.test_set) == bool(args.refs):
        raise CliError("give reference files or -t NAME -l PAIR (one of them)")
    writable(args.output)  # before the work, not after it
    if args.test_set:
        refs = [lines for _, lines in testset_refs(args).streams]
    else:
        warn_reference_as_system(args.refs, args.input)
        refs = read_texts(args.refs)
    systems = read_texts(args.input)
    for path, lines in zip(args.input, systems, strict=True):
        if len(lines) != len(refs[0]):
            raise LengthMismatchError(f"the references have {len(refs[0])} lines but {path} has {len(lines)}")
    metrics = scorers(args, sentence_level=False)
    given, _ = given_scores(args, args.input, len(refs[0]))
    pair = _pair(args.pair, args.input)
    human = _human(args)
    command = (
        "understudy " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:2] == ["report"] else ""
    )
    with Progress("report", unit="steps") as bar:
        report = build(
            metrics,
            args.input,
            systems,
            refs,
            command or "understudy report ...",
            args.n,
            args.seed,
            pair=pair,
            human=human[0] if human else None,
            human_source=Path(args.human).name if args.human else "",
            human_names=human[1] if human else None,
            progress=bar.update,
            given=given,
            human_unscored=human[2] if human else None,
            human_segments=human[3] if human else None,
        )
    html = render(report)
    with atomic_write(args.output) as out:
        out.write(html.encode("utf-8"))
    print(f"understudy: wrote {args.output} ({len(html) // 1024} KB)", file=sys.stderr)
    return 0


def _pair(pair: list[str] | None, inputs: list[str]) -> tuple[int, int] | None:
    """The indices of the two systems --pair names (by file, as given to -i)."""
    if pair is None:
        return None
    missing = [p for p in pair if p not in inputs]
    if missing:
        raise CliError(f"--pair names {', '.join(missing)}, which is not one of -i: {', '.join(inputs)}")
    if pair[0] == pair[1]:
        raise CliError(f"--pair needs two different systems, got {pair[0]} twice")
    return inputs.index(pair[0]), inputs.index(pair[1])


def _human(
    args: argparse.Namespace,
) -> tuple[list[float], list[str], dict[str, float], list[dict[int, float]] | None] | None:
    """Each system's human score and name in the human file, in the order of -i; the file's
    scores of anything else (a reference, say); and each system's segment scores, if it has them."""
    if args.human is None:
        if args.names:
            raise CliError("--names names the systems of the --human file; give --human too")
        return None
    from understudy.cli.correlate import check_coverage, system_names
    from understudy.correlation.human import read_human

    names = system_names(args)
    if len(names) < 3:
        raise CliError(f"--human correlates systems with human scores: give 3 or more, not {len(names)}")
    human = read_human(args.human)
    check_coverage(human, names, args.human)
    unscored = {n: v for n, v in human.system.items() if n not in names}
    segments = [human.segments.get(name, {}) for name in names] if human.has_segments else None
    return [human.system[name] for name in names], names, unscored, segments
