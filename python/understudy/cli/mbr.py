"""``understudy mbr``: the best candidate of each source by minimum Bayes risk, or by a
quality-estimation metric's score (:mod:`understudy.mbr`)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from understudy._atomic import atomic_write, writable
from understudy.cli.computed import computed_chosen, made_metric
from understudy.cli.messages import CliError
from understudy.cli.options import (
    add_command,
    add_declared,
    add_metric_options,
    add_threads_option,
    chosen_metrics,
    sentence_scorer,
)
from understudy.cli.output import write_out
from understudy.cli.progress import Progress
from understudy.inputs.candidates import read_candidates
from understudy.inputs.files import read_lines
from understudy.mbr import METHODS, Choice, rerank, select
from understudy.mbr.pruning import PruningAsked
from understudy.registry import computed

EXAMPLES = """examples:
  understudy mbr --candidates cands.de -n 32 -m chrf -o best.de     MBR with chrF, 32 lines a source
  understudy mbr --candidates cands.jsonl -m bleu --scores u.jsonl  JSON lines {"candidates": [...]}
  understudy mbr --candidates cands.de -n 8 -m ter                  TER: the lowest expected score wins
  understudy mbr --candidates cands.de -n 64 -m chrf --method aggregate   linear time: n-grams averaged
  understudy mbr --candidates cands.de -n 64 -m bleu --method prune --prune-alpha 0.9
  understudy mbr --candidates cands.de -n 8 --source src.en -m cometkiwi --cometkiwi-model DIR   QE

Each candidate is scored against every candidate of its source (the pseudo-references, itself
included, as mbrs does) and the one with the best mean (its expected utility) is chosen; the
first wins a tie, and --scores names the tied. --method aggregate scores each candidate once,
against all candidates' n-grams averaged (BLEU, chrF); --method prune drops the candidates that
are confidently worse as more pseudo-references are scored (their expected utility is null in
--scores). BLEU's utility is sentence BLEU with effective order (as mbrs and sacrebleu's
sentence_bleu), unless --no-effective-order. A reference-free metric (CometKiwi, a judge)
scores each candidate with its source once: QE reranking.
"""


def add_parser(commands: Any) -> None:
    """Register the ``mbr`` subcommand."""
    p = add_command(
        commands,
        "mbr",
        "choose each source's best candidate: MBR decoding or QE reranking",
        "Read each source's candidate translations and write the one a metric (-m) prefers: by "
        "minimum Bayes risk against the other candidates, or by a reference-free metric's score.",
        EXAMPLES,
    )
    p.add_argument("--candidates", required=True, metavar="FILE", help="-n lines a source, or JSON lines")
    p.add_argument("-n", "--per-source", type=int, metavar="N", help="candidates a source in a text FILE")
    p.add_argument(
        "--method",
        choices=METHODS,
        default="exact",
        help="exact (default); aggregate: against the candidates' n-grams averaged (BLEU, chrF); "
        "prune: confidence-based pruning, as mbrs' pruning_mbr",
    )
    add_declared(p, PruningAsked)
    p.add_argument(
        "-o", "--output", metavar="FILE", help="the chosen candidates, one a line (default: stdout)"
    )
    p.add_argument("--scores", metavar="FILE", help="each source's choice and expected utilities, JSON lines")
    p.add_argument("--no-effective-order", action="store_true", help="BLEU: every n-gram order, short or not")
    add_metric_options(p, neural=True)
    add_threads_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read, choose, write."""
    for path in (args.output, args.scores):
        if path is not None:
            writable(path)
    candidates = read_candidates(args.candidates, args.per_source)
    sources = read_lines(args.source) if args.source is not None else None
    if sources is not None and len(sources) != len(candidates):
        raise CliError(f"{args.source} has {len(sources)} lines for {len(candidates)} sources' candidates")
    choose, chunk = _chooser(args, sources)
    choices: list[Choice] = []
    with Progress("mbr", total=len(candidates), unit="sources") as bar:
        try:
            for start in range(0, len(candidates), chunk):
                choices += choose(start, candidates[start : start + chunk])
                bar.update(len(choices))
        except KeyboardInterrupt:
            _write(args, choices)
            kept = f"; the first {len(choices)} choices are written" if choices else ""
            raise CliError(f"stopped at source {len(choices) + 1} of {len(candidates)}{kept}", 130) from None
    _write(args, choices)
    return 0


COMPUTED_CHUNK = 64
"""Sources a call under a computed metric: their sentences are embedded and batched together."""


def _chooser(args: argparse.Namespace, sources: list[str] | None) -> tuple[Any, int]:
    """What chooses among consecutive sources' candidates (the first's index, their lists): MBR
    under a text or computed metric, or a reference-free metric's reranking; and how many
    sources a call takes (one for a text metric, so that Ctrl-C loses nothing)."""
    names = chosen_metrics(args) + computed_chosen(args)
    if len(names) != 1:
        raise CliError(f"mbr takes one metric (-m chrf, bleu, ter, comet, ...), not {len(names)}")
    pruning = PruningAsked.from_values(vars(args)).pruning(args.method)
    if not computed_chosen(args):
        text = sentence_scorer(args)
        return (lambda k, lists: select(lists, text, method=args.method, pruning=pruning)), 1
    declared = computed(names[0])
    if "source" in declared.inputs and sources is None:
        raise CliError(f"-m {names[0]} reads the sources: give them with --source FILE")
    metric = made_metric(args, names[0])[2]  # a model is looked for only once the input is right

    def some(k: int, lists: list[list[str]]) -> list[str] | None:
        return None if sources is None else sources[k : k + len(lists)]

    if "reference" not in declared.inputs:
        if args.method != "exact":
            raise CliError(f"-m {names[0]} reranks by its own score: --method {args.method} is for MBR")
        return (lambda k, lists: rerank(lists, metric, some(k, lists))), COMPUTED_CHUNK

    def mbr(k: int, lists: list[list[str]]) -> list[Choice]:
        return select(lists, metric, sources=some(k, lists), method=args.method, pruning=pruning)

    return mbr, COMPUTED_CHUNK


def _write(args: argparse.Namespace, choices: list[Choice]) -> None:
    """The chosen lines to -o (or stdout) and the records to --scores, each file whole."""
    bad = next((k for k, c in enumerate(choices) if "\n" in c.candidate or "\r" in c.candidate), None)
    if bad is not None:
        raise CliError(f"the candidate chosen for source {bad + 1} has a line break: write --scores instead")
    write_out(args.output, "".join(f"{c.candidate}\n" for c in choices).encode("utf-8"))
    if args.scores is not None:
        with atomic_write(args.scores) as fh:
            for k, choice in enumerate(choices):
                line = json.dumps({"source": k + 1, **choice.to_dict()}, ensure_ascii=False)
                fh.write(f"{line}\n".encode())
