"""sacrebleu's command line inside understudy's: the flags only sacrebleu has, and the bare form.

``understudy REF... -i HYP...`` (no subcommand) is ``understudy score``, which takes
every flag of sacrebleu 2.6.0 with its meaning and default: those it shares with
understudy's own options, and the ones added here (``--list``, ``--echo``,
``--download``, ``--citation``, ``-e``, ``-d``, ``-q``, ``--force``, ``-nc``,
``--paired-jobs``). The bare form also reads ``$SACREBLEU_FORMAT`` as sacrebleu does.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from understudy.cli.messages import CliError
from understudy.cli.options import add_declared
from understudy.cli.output import write
from understudy.cli.testset import load_fields, run_citation, run_download, run_echo
from understudy.printing.sacrebleu_text import SacrebleuFlags, detail_text, sets_text
from understudy.stats import Stats

FORMAT_ENV = "SACREBLEU_FORMAT"
"""sacrebleu's override of ``-f``; read by the bare command line only."""

DIFFERENCES = """
Where understudy differs from sacrebleu on purpose (README.md has the full table): the
same numbers for the same inputs and options, but every JSON record and paired-test
result carries its signature, which also names the maximum order (ngram:N), the test set
and the language pair; --seed replaces $SACREBLEU_SEED (0 is a seed); --p-values
at-least (the default) gives identical systems p = 1 (sacrebleu's counting: --p-values
sacrebleu); a UTF-8 byte-order mark is dropped; inputs of different lengths are an
error naming both; -j/--paired-jobs is the number of cores (capped at the available
ones); --force and -nc are accepted and change nothing (understudy neither warns about
tokenized input nor prints colours).
"""


def add_sacrebleu_options(parser: argparse.ArgumentParser) -> None:
    """sacrebleu's flags that understudy's own options do not already cover."""
    add_declared(parser, SacrebleuFlags)


def apply_environment(args: argparse.Namespace, bare: bool) -> None:
    """Settle what sacrebleu's flags and environment change in the other options."""
    args.threads = SacrebleuFlags.from_values(vars(args)).threads(args.threads)
    if bare and os.environ.get(FORMAT_ENV, "").lower() in ("json", "text", "latex"):
        args.format = os.environ[FORMAT_ENV].lower()
    if args.detail and args.format == "json":
        args.format = "text"  # as sacrebleu: the breakdown is text


def run_early_action(args: argparse.Namespace) -> int | None:
    """``--download``, ``--list``, ``--citation`` or ``--echo`` (in sacrebleu's order), or ``None``."""
    if args.download:
        return run_download(argparse.Namespace(**{**vars(args), "name": args.download}))
    if args.list:
        return _list(args)
    if args.citation:
        if not args.test_set:
            raise CliError("--citation needs a test set (-t)")
        for name in args.test_set.split(","):
            run_citation(argparse.Namespace(**{**vars(args), "name": name}))
        return 0
    if args.echo:
        if not (args.test_set and args.langpair):
            raise CliError("--echo needs a test set (-t) and a language pair (-l)")
        return run_echo(argparse.Namespace(**{**vars(args), "name": args.test_set, "fields": args.echo}))
    return None


def _list(args: argparse.Namespace) -> int:
    """sacrebleu's --list, in its format (``understudy testset list`` has understudy's)."""
    from understudy.datasets import dataset

    if not args.test_set:
        write(sets_text(args.langpair))
        return 0
    lines = []
    for name in args.test_set.split(","):
        pairs = [args.langpair] if args.langpair else list(dataset(name).langpairs)
        for pair in pairs:
            fields = load_fields(argparse.Namespace(**{**vars(args), "langpair": pair}), name)
            lines.append(f"{pair}: {', '.join(fields.fields)}")
    write("\n".join(lines))
    return 0


def print_detail(args: argparse.Namespace, stats: list[Stats[Any, Any]]) -> None:
    """The scores of each original language (and each subset of it), as sacrebleu's ``--detail``
    (:func:`understudy.datasets.references.detail_scores`).

    ``stats`` holds one system's statistics per metric, over every segment of the sets.
    """
    from understudy.datasets.references import detail_scores

    parts = [load_fields(args, name) for name in args.test_set.split(",")]
    write(detail_text(detail_scores(parts, stats, args.origlang, args.subset), args.width))


__all__ = [
    "DIFFERENCES",
    "add_sacrebleu_options",
    "apply_environment",
    "print_detail",
    "run_early_action",
]
