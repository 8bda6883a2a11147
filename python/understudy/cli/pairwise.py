"""``understudy pairwise``: the sentence score (BLEU, chrF or TER) of every hypothesis and reference."""

from __future__ import annotations

import argparse
from typing import Any

from understudy.cli.messages import CliError
from understudy.cli.options import (
    add_command,
    add_metric_options,
    add_threads_option,
    chosen_metrics,
    sentence_scorer,
)
from understudy.cli.output import stdout
from understudy.cli.progress import Progress
from understudy.files.atomic import writable
from understudy.files.tables import check_matrix_path, check_width, save_matrix, width_value, write_tsv
from understudy.inputs.files import read_lines
from understudy.inputs.parallel import check_stdin_once

EXAMPLES = """examples:
  understudy pairwise samples.de samples.de -o matrix.npy   MBR: every sample against every other
  understudy pairwise hyps.de refs.de -o matrix.tsv -w 2      a TAB-separated table, 2 decimals
  understudy pairwise hyps.de refs.de | head                  TSV on standard output
  understudy pairwise samples.de samples.de -m chrf -o m.npy  chrF, MBR's usual utility
  understudy pairwise hyps.de refs.de -m ter --ter-normalized

Cell [i, j] is the sentence score of line i of HYPS with line j of REFS as its only
reference, exactly as `sentence_bleu(hyp, [ref])` (effective order on, as for sentence
BLEU, unless --no-effective-order), `sentence_chrf` or `sentence_ter` computes it. Read
.npy with numpy.load. A matrix file is written whole or not at all.
"""


def add_parser(commands: Any) -> None:
    """Register the ``pairwise`` subcommand."""
    p = add_command(
        commands,
        "pairwise",
        "sentence scores of all hypothesis x reference pairs",
        "Score every line of HYPS against every line of REFS (as its only reference) with one "
        "metric (-m, default bleu) and write the len(HYPS) x len(REFS) matrix.",
        EXAMPLES,
    )
    p.add_argument("hyps", metavar="HYPS", help="hypotheses, one per line")
    p.add_argument("refs", metavar="REFS", help="references, one per line")
    p.add_argument("-o", "--output", help="matrix file: .npy (float64) or .tsv; default: TSV on stdout")
    p.add_argument(
        "-w",
        "--width",
        type=width_value,
        help="decimal places in TSV (default: every digit, exact round trip)",
    )
    p.add_argument(
        "--no-effective-order", action="store_true", help="score all N orders even for short sentences"
    )
    add_metric_options(p)
    add_threads_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the matrix and write it."""
    check_width(args.width)
    if args.output is not None:
        check_matrix_path(args.output)
        writable(args.output)
    check_stdin_once([(args.hyps, "HYPS"), (args.refs, "REFS")])
    if len(chosen_metrics(args)) != 1:
        raise CliError("pairwise takes one metric (-m bleu, chrf or ter)")
    hyps = [line.rstrip() for line in read_lines(args.hyps)]
    refs = [line.rstrip() for line in read_lines(args.refs)]
    metric = sentence_scorer(args)
    with Progress("pairwise", total=len(hyps), unit="hypotheses") as progress:
        scores = metric.pairwise(hyps, refs, progress=lambda done, _: progress.update(done))
    if args.output is None:
        # A closed pipe (| head) ends the command quietly, in main.
        write_tsv(scores, args.width, stdout())
    else:
        save_matrix(scores, args.output, args.width)
    return 0
