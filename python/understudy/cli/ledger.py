"""``understudy ledger``: the records ``score --log`` kept, listed, shown and compared."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from understudy.cli.compare import print_paired
from understudy.cli.keep import add_ledger_option
from understudy.cli.messages import CliError
from understudy.cli.options import add_command, add_declared
from understudy.cli.table import emit
from understudy.files.tables import SCORE_WIDTH_HELP, width_value
from understudy.ledger import LEDGER_ENV, Ledger, default_location, redacted
from understudy.ledger.tables import RecordFilter, export_records, history_table, record_table, records_table

EXAMPLES = f"""examples:
  understudy score ref.de -i ckpt-10k.de --log --tag run-7     score, and keep the record
  understudy ledger list                                       every record, oldest first
  understudy ledger list --system ckpt-10k.de -m bleu -f json  one system's BLEU records as JSON
  understudy ledger list --since 2026-11-01 --until 2026-11-24  the records kept in those days
  understudy ledger show 12                                    one record in full
  understudy ledger compare 12 15                              paired bootstrap from the kept rows
  understudy ledger history tag:run-7 -m bleu                  scores over time, with 95% intervals
  understudy ledger export all.jsonl                           every record, statistics included
  understudy ledger export all.csv                             the same as CSV, a row a record
  understudy ledger import ../team/ledger.sqlite               the records this ledger lacks
  understudy ledger list --ledger postgresql://me:pw@db.example/scores    a team's shared ledger

The ledger is --ledger PATH-or-URL, else ${LEDGER_ENV}, else {redacted(default_location())}: a SQLite
file, or a PostgreSQL database (pip install 'understudy-mt[ledger]'; its password is never shown).
Records whose signatures or test sets differ are never compared: the error says what differs.
"""


def add_parser(commands: Any) -> None:
    """Register the ``ledger`` subcommand and its actions."""
    p = add_command(
        commands,
        "ledger",
        "list, show and compare kept results (score --log)",
        "The score ledger: each record one metric's statistics of one system on one test set, with "
        "its signature, so that any later comparison is exact and incomparable ones are refused.",
        EXAMPLES,
    )
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="records matching every filter given, oldest first")
    add_declared(listing, RecordFilter)
    showing = actions.add_parser("show", help="one record in full")
    showing.add_argument("record", type=int, metavar="ID")
    comparing = _add_compare(actions)
    history = actions.add_parser(
        "history", help="systems' or tags' records over time, with intervals (--plot: a figure)"
    )
    history.add_argument(
        "which", metavar="SYSTEM-or-tag:NAME", nargs="+", help="what each line follows: a system or a tag"
    )
    history.add_argument(
        "--plot", metavar="FILE", help="also draw the history, one line per SYSTEM-or-tag:NAME (.png or .svg)"
    )
    history.add_argument("-m", "--metric", help="only this metric's records")
    history.add_argument(
        "-n", type=int, default=1000, metavar="N", help="bootstrap resamples (default: 1000)"
    )
    exporting = actions.add_parser(
        "export", help="every record, statistics included, as JSON Lines (or CSV: FILE.csv)"
    )
    exporting.add_argument("out", metavar="FILE", nargs="?", help="the file (not with --eval-results)")
    exporting.add_argument(
        "--eval-results", metavar="DIR", help="the Hub's .eval_results/ and model card, a folder a system"
    )
    exporting.add_argument(
        "--dataset", metavar="ORG/NAME", help="the Hub's benchmark dataset (default: the test set)"
    )
    exporting.add_argument("--task-id", metavar="ID", help="its task (default: the test set)")
    importing = actions.add_parser("import", help="another ledger's records this one lacks (idempotent)")
    importing.add_argument("source", metavar="LEDGER")
    actions_run = ((listing, run_list), (showing, run_show), (comparing, run_compare), (history, run_history))
    for action, run in ((exporting, run_export), (importing, run_import)):
        add_ledger_option(action)
        action.set_defaults(run=run)
    for action, run in actions_run:
        add_ledger_option(action)
        action.add_argument("-f", "--format", choices=("text", "json"), default="text", help="default: text")
        action.set_defaults(run=run)


def _add_compare(actions: Any) -> argparse.ArgumentParser:
    """``ledger compare``'s parser: records' paired tests, from their rows."""
    comparing: argparse.ArgumentParser = actions.add_parser(
        "compare", help="paired tests of records against the first, from their rows"
    )
    comparing.add_argument("records", type=int, nargs="+", metavar="ID", help="the baseline first")
    comparing.add_argument(
        "--paired-ar", action="store_true", help="approximate randomization (default: bootstrap)"
    )
    comparing.add_argument(
        "-n", type=int, metavar="N", help="resamples or trials (default: 1000, 10000 for ar)"
    )
    comparing.add_argument("-w", "--width", type=width_value, default=1, help=SCORE_WIDTH_HELP)
    comparing.set_defaults(short=False)
    return comparing


def run_list(args: argparse.Namespace) -> int:
    """Print the records matching the filters."""
    with Ledger(args.ledger, read_only=True) as ledger:
        found = ledger.records(**RecordFilter.from_values(vars(args)).asked())
    emit(records_table(found), args.format)
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print one record in full."""
    with Ledger(args.ledger, read_only=True) as ledger:
        record = ledger.get(args.record)
    emit(record_table(record), args.format)
    return 0


def run_compare(args: argparse.Namespace) -> int:
    """Paired tests of the records against the first, once every one is comparable with it."""
    with Ledger(args.ledger, read_only=True) as ledger:
        result = ledger.compare(*args.records, test="ar" if args.paired_ar else "bs", n=args.n)
    print_paired([result], args)
    return 0


def run_history(args: argparse.Namespace) -> int:
    """Print systems' or tags' records in time order, with their intervals; draw them with --plot."""
    if args.plot:
        from understudy.correlation.plot import checked_path

        checked_path(args.plot)  # before any work
    lines = {}
    with Ledger(args.ledger, read_only=True) as ledger:
        for which in args.which:
            lines[which] = ledger.history_of(which, args.metric, args.n)
    if args.plot:
        from understudy.ledger.plot import history_plot

        history_plot(lines, args.plot)
    emit(history_table(lines, args.n, args.plot), args.format)
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Write every record, statistics included (base64): one JSON object a line, or a CSV row a
    record when the file ends in ``.csv`` (its tags a JSON list)."""
    if (args.out is None) == (args.eval_results is None):
        raise CliError("ledger export: give FILE, or --eval-results DIR")
    with Ledger(args.ledger, read_only=True) as ledger:
        if args.eval_results is None:
            export_records(ledger, args.out)
        else:
            from understudy.ledger.eval_results import write_eval_results

            written = write_eval_results(
                ledger.records(), Path(args.eval_results), args.dataset, args.task_id
            )
        where = ledger.location
    told = args.out if args.out is not None else f"{args.eval_results} ({len(written)} files)"
    sys.stderr.write(f"understudy: exported the records of {where} to {told}\n")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Add another ledger's records this one lacks."""
    with Ledger(args.source, read_only=True) as source, Ledger(args.ledger) as ledger:
        added, present = ledger.import_records(source)
    sys.stderr.write(f"understudy: {added} record(s) added, {present} already there\n")
    return 0
