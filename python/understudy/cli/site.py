"""``understudy site``: the ledger as a static website (:mod:`understudy.site`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from understudy.cli.keep import add_ledger_option
from understudy.cli.options import add_command, add_declared
from understudy.cli.progress import Progress
from understudy.site.model import Settings
from understudy.wording import counted

EXAMPLES = """examples:
  understudy site -o site/                          every record of the ledger
  understudy site --ledger results.sqlite -o site/  another ledger
  understudy site -o site/ --tag release --since 2026-11-01   the records tagged release, kept since
  understudy site -o site/ -n 2000 --seed 7         clusters from 2000 bootstrap resamples, seed 7

Open site/index.html from disk, or publish the folder as it is: the pages ask for nothing over the
network. Running it again on the same folder replaces the site whole, in one step.
"""


def add_parser(commands: Any) -> None:
    """Register the ``site`` subcommand."""
    p = add_command(
        commands,
        "site",
        "the ledger as a static website: test sets ranked into clusters, history, records",
        "Write a static site of the ledger's records: an index of test sets; a page per test set with "
        "the latest record of each system under each signature, ranked into significance clusters from "
        "the kept statistics (paired bootstrap, as 'understudy compare'), sortable and filterable, and "
        "each system's history; a page per record with its signature and the command that kept it.",
        EXAMPLES,
    )
    p.add_argument(
        "-o", "--output", required=True, metavar="DIR", help="the folder to write (replaced whole)"
    )
    add_ledger_option(p)
    add_declared(p, Settings)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Build the site and say where it is."""
    from understudy.ledger import Ledger
    from understudy.site import build_site

    settings = Settings.from_values(vars(args))
    with Ledger(args.ledger, read_only=True) as ledger, Progress("site", unit="pages") as bar:
        built = build_site(ledger, args.output, settings, bar.update)
    made = f"{counted(built.testsets, 'test set')}, {counted(built.records, 'record')}"
    sys.stderr.write(f"understudy: wrote {counted(built.pages, 'page')} ({made}) to {args.output}\n")
    return 0


__all__ = ["add_parser", "run"]
