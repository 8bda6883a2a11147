"""What the commands that keep results share: ``--ledger``, ``--log`` and its options, and the
appending of every system's statistics per metric (``score``, ``compare`` and ``report --log``)."""

from __future__ import annotations

import argparse
import hashlib
import sys
from typing import Any

from understudy.ledger import LEDGER_ENV, Ledger, default_location, redacted
from understudy.stats import Stats


def add_ledger_option(parser: argparse.ArgumentParser | Any) -> None:
    """``--ledger PATH``: the ledger a command reads or appends to."""
    parser.add_argument(
        "--ledger",
        metavar="PATH-or-URL",
        help=f"the ledger: a SQLite file, or a postgresql://USER:PASSWORD@HOST/DB URL (the 'ledger' "
        f"extra); default: ${LEDGER_ENV}, else {redacted(default_location())}",
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


def _sha256(paths: list[str]) -> str:
    """``sha256:`` of the files' bytes, in order ("" when one is standard input)."""
    if not paths or "-" in paths:
        return ""
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as fh:
            digest.update(hashlib.file_digest(fh, "sha256").digest())
    return f"sha256:{digest.hexdigest()}"


def log_scored(
    args: argparse.Namespace,
    names: list[str],
    stats: list[list[Stats[Any, Any]]],
    testset: list[tuple[str, str]],
    command: str,
) -> list[int]:
    """Append every metric's statistics of every system (``stats[metric][system]``); the ids.
    The test set is its name and pair (``wmt17:en-de``), else the SHA-256 of the reference files."""
    where = ":".join(value for _, value in testset) or _sha256(args.refs)
    inputs = args.input or []
    ids = []
    with Ledger(args.ledger) as ledger:
        for per_metric in stats:
            for k, (name, system) in enumerate(zip(names, per_metric, strict=True)):
                hypotheses = _sha256([inputs[k]]) if len(inputs) == len(names) else ""
                ids.append(
                    ledger.append(
                        system,
                        name,
                        where,
                        hypotheses=hypotheses,
                        tags=args.tag,
                        note=args.note,
                        command=command,
                        revision=args.revision,
                    )
                )
        sys.stderr.write(f"understudy: kept records {ids[0]}-{ids[-1]} in {ledger.location}\n")
    return ids
