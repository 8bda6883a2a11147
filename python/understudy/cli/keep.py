"""What the commands that keep results share: ``--ledger``, ``--log`` and its options, and the
appending of every system's statistics per metric (``score``, ``compare`` and ``report --log``)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from understudy.cli.messages import CliError
from understudy.cli.options import add_declared, add_field_option
from understudy.inputs.files import digest_of_files
from understudy.ledger.keeping import Keeping
from understudy.wording import record_span

if TYPE_CHECKING:
    from understudy.stats import Stats


def add_ledger_option(parser: argparse.ArgumentParser | Any) -> None:
    """``--ledger PATH``: the ledger a command reads or appends to."""
    add_field_option(parser, Keeping, "ledger")


def add_log_options(parser: argparse.ArgumentParser, ledger: bool = True) -> None:
    """``--log`` and what a logged record carries: the options of the commands that append
    (``ledger``: with ``--ledger``, unless the command has it already)."""
    add_declared(parser, Keeping, [name for name, _ in Keeping.options() if ledger or name != "ledger"])


def log_scored(
    args: argparse.Namespace,
    names: list[str],
    stats: list[list[Stats[Any, Any]]],
    testset: list[tuple[str, str]],
    command: str,
) -> list[int]:
    """Append every metric's statistics of every system (``stats[metric][system]``) in one
    transaction, all or none (:meth:`~understudy.ledger.keeping.Keeping.keep`); the ids. The test
    set is its name and pair (``wmt17:en-de``), else the SHA-256 of the reference files as read.
    The records' signatures say how the inputs were reshaped (``gran:document``,
    ``reseg:mweralign``), as the printed ones do."""
    from understudy.cli.segments import signature_pairs

    keeping = Keeping.from_values(vars(args))
    if testset and keeping.testset_name:
        raise CliError("--testset-name names a test set of reference files; -t's has its name")
    where = ":".join(value for _, value in testset) or keeping.testset(
        digest_of_files(args.refs), getattr(args, "langpair", None)
    )
    inputs = args.input or []
    hashes = [digest_of_files([path]) for path in inputs] if len(inputs) == len(names) else None
    ids, location = keeping.keep(stats, names, where, command, hashes, signature_pairs(args))
    sys.stderr.write(f"understudy: kept {record_span(ids)} in {location}\n")
    return ids
