"""What the commands that keep results share: ``--ledger``, ``--log`` and its options, and the
appending of every system's statistics per metric (``score``, ``compare`` and ``report --log``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from understudy.inputs.files import digest_of_files
from understudy.ledger import LEDGER_ENV
from understudy.wording import kept_name, record_span

if TYPE_CHECKING:
    from understudy.stats import Stats


def add_ledger_option(parser: argparse.ArgumentParser | Any) -> None:
    """``--ledger PATH``: the ledger a command reads or appends to."""
    parser.add_argument(
        "--ledger",
        metavar="PATH-or-URL",
        # Named, not resolved: resolving loads platformdirs, which every command would pay for.
        help=f"the ledger: a SQLite file, or a postgresql://USER:PASSWORD@HOST/DB URL (the 'ledger' "
        f"extra); default: ${LEDGER_ENV}, else understudy/ledger.sqlite in the user's data directory"
        " ($XDG_DATA_HOME, else ~/.local/share, on Linux)",
    )


def add_log_options(parser: argparse.ArgumentParser, ledger: bool = True) -> None:
    """``--log`` and what a logged record carries: the options of the commands that append
    (``ledger``: with ``--ledger``, unless the command has it already)."""
    group = parser.add_argument_group("keeping the results (understudy ledger)")
    group.add_argument(
        "--log", action="store_true", help="append each system's statistics per metric to the ledger"
    )
    if ledger:
        add_ledger_option(group)
    group.add_argument(
        "--tag", action="append", default=[], metavar="TAG", help="a tag of the records (repeatable)"
    )
    group.add_argument("--note", default="", help="a note kept with the records")
    group.add_argument(
        "--revision", default="", metavar="ID", help="a revision (a commit id) kept with the records"
    )


def log_scored(
    args: argparse.Namespace,
    names: list[str],
    stats: list[list[Stats[Any, Any]]],
    testset: list[tuple[str, str]],
    command: str,
) -> list[int]:
    """Append every metric's statistics of every system (``stats[metric][system]``) in one
    transaction, all or none; the ids. The test set is its name and pair (``wmt17:en-de``),
    else the SHA-256 of the reference files as read. The records' signatures say how the inputs
    were reshaped (``gran:document``, ``reseg:mweralign``), as the printed ones do."""
    from understudy.cli.segments import signature_pairs
    from understudy.ledger import Ledger

    where = ":".join(value for _, value in testset) or digest_of_files(args.refs)
    inputs = args.input or []
    hashes = [digest_of_files([path]) for path in inputs] if len(inputs) == len(names) else [""] * len(names)
    entries = [
        (system, kept_name(name), where, hashes[k])
        for per_metric in stats
        for k, (name, system) in enumerate(zip(names, per_metric, strict=True))
    ]
    fields = {"tags": args.tag, "note": args.note, "command": kept_name(command), "revision": args.revision}
    fields["extras"] = signature_pairs(args)
    with Ledger(args.ledger) as ledger:
        ids = ledger.append_many(entries, **fields)
        sys.stderr.write(f"understudy: kept {record_span(ids)} in {ledger.location}\n")
    return ids
