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
from typing import TYPE_CHECKING, Any

from understudy.cli.messages import CliError
from understudy.cli.output import write
from understudy.cli.testset import load_fields, run_citation, run_download, run_echo
from understudy.sacrebleu_output import detail_text, sets_text
from understudy.stats import Stats

if TYPE_CHECKING:
    pass

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
    group = parser.add_argument_group("sacrebleu's other flags")
    group.add_argument(
        "--list",
        action="store_true",
        help="list the test sets (with -l: those with the pair; "
        "with -t: its pairs and their fields) and exit",
    )
    group.add_argument(
        "--echo",
        nargs="+",
        metavar="FIELD",
        help="print fields of -t/-l (src, ref, ref:A, docid, origlang, ..., or all), TAB-separated, and exit",
    )
    group.add_argument("--download", metavar="NAME", help="fetch test set NAME into the cache and exit")
    group.add_argument("--citation", "--cite", action="store_true", help="print the BibTeX of -t and exit")
    group.add_argument(
        "-e", "--encoding", default="utf-8", help="encoding of the input files (default: utf-8)"
    )
    group.add_argument(
        "-d",
        "--detail",
        action="store_true",
        help="with -t and one system: also the scores of "
        "each original language and domain (or country) of the test set",
    )
    group.add_argument("-q", "--quiet", action="store_true", help="no warnings and no progress bars")
    group.add_argument(
        "--force", action="store_true", help="accepted; understudy never refuses tokenized input"
    )
    group.add_argument(
        "-nc", "--no-color", action="store_true", help="accepted; understudy prints no colours"
    )
    group.add_argument(
        "--paired-jobs", type=int, metavar="N", help="sacrebleu's workers: here the cores to use (-j); 0: all"
    )


def apply_environment(args: argparse.Namespace, bare: bool) -> None:
    """Settle what sacrebleu's flags and environment change in the other options."""
    if args.paired_jobs is not None:
        if args.paired_jobs < 0:
            raise CliError(f"--paired-jobs must be 0 or more, got {args.paired_jobs}")
        args.threads = args.paired_jobs or None
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
