"""``understudy mbr``: the best candidate of each source by minimum Bayes risk, or by a
quality-estimation metric's score (:mod:`understudy.mbr`)."""

from __future__ import annotations

import argparse
from typing import Any

from understudy.cli.messages import CliError
from understudy.cli.options import (
    add_command,
    add_declared,
    add_metric_options,
    add_threads_option,
    sentence_scorer,
)
from understudy.cli.output import stdout
from understudy.cli.progress import Progress
from understudy.execution.asked import MetricsAsked
from understudy.execution.runs import chosen_config
from understudy.files.atomic import writable
from understudy.mbr import Choice, rerank, select
from understudy.mbr.options import MBRAsked
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
    add_declared(p, MBRAsked, ("candidates", "per_source", "method"))
    add_declared(p, PruningAsked)
    add_declared(p, MBRAsked, ("output", "scores", "no_effective_order"))
    add_metric_options(p, neural=True)
    add_threads_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read, choose, write."""
    asked = MBRAsked.from_values(vars(args))
    for path in (asked.output, asked.scores):
        if path is not None:
            writable(path)
    candidates, sources = asked.read(args.source)
    choose, chunk = _chooser(args, sources)
    choices: list[Choice] = []
    with Progress("mbr", total=len(candidates), unit="sources") as bar:
        try:
            for start in range(0, len(candidates), chunk):
                choices += choose(start, candidates[start : start + chunk])
                bar.update(len(choices))
        except KeyboardInterrupt:
            asked.write(choices, stdout())
            kept = f"; the first {len(choices)} choices are written" if choices else ""
            raise CliError(f"stopped at source {len(choices) + 1} of {len(candidates)}{kept}", 130) from None
    asked.write(choices, stdout())
    return 0


COMPUTED_CHUNK = 64
"""Sources a call under a computed metric: their sentences are embedded and batched together."""


def _chooser(args: argparse.Namespace, sources: list[str] | None) -> tuple[Any, int]:
    """What chooses among consecutive sources' candidates (the first's index, their lists): MBR
    under a text or computed metric, or a reference-free metric's reranking; and how many
    sources a call takes (one for a text metric, so that Ctrl-C loses nothing)."""
    asked = MetricsAsked(vars(args))
    names = asked.text_names + asked.computed_names
    if len(names) != 1:
        raise CliError(f"mbr takes one metric (-m chrf, bleu, ter, comet, ...), not {len(names)}")
    pruning = PruningAsked.from_values(vars(args)).pruning(args.method)
    if not asked.computed_names:
        text = sentence_scorer(args)
        return (lambda k, lists: select(lists, text, method=args.method, pruning=pruning)), 1
    declared = computed(names[0])
    if "source" in declared.inputs and sources is None:
        raise CliError(f"-m {names[0]} reads the sources: give them with --source FILE")
    spans = chosen_config(names[0], vars(args))[1].spans_file()
    if spans is not None:
        # MBR scores every candidate against every other: no one segment's spans to write.
        raise CliError(
            f"mbr writes no error spans (it scores each candidate against the others):"
            f" {spans} would stay unwritten; score -m {names[0]} writes them"
        )
    ((_, config, metric),) = asked.computed()  # a model is looked for once the input is right

    def some(k: int, lists: list[list[str]]) -> list[str] | None:
        return None if sources is None else sources[k : k + len(lists)]

    # A metric that reads no reference (a judge, a QE flag, a CometKiwi checkpoint without
    # one) has nothing to gain from pseudo-references: it scores each candidate once.
    if not (declared.reads_reference(config) and metric.reads_references()):
        if args.method != "exact":
            raise CliError(f"-m {names[0]} reranks by its own score: --method {args.method} is for MBR")
        return (lambda k, lists: rerank(lists, metric, some(k, lists))), COMPUTED_CHUNK

    def mbr(k: int, lists: list[list[str]]) -> list[Choice]:
        return select(lists, metric, sources=some(k, lists), method=args.method, pruning=pruning)

    return mbr, COMPUTED_CHUNK
