"""What ``understudy score`` prints: sentence scores as they are scored, and corpus scores (one
line per metric for one system, a table for several)."""

from __future__ import annotations

import argparse
import json
import textwrap
from collections.abc import Callable, Sequence

from understudy.cli.output import encode, stdout, write
from understudy.cli.table import emit
from understudy.printing.results import corpus_table
from understudy.printing.sacrebleu_text import corpus_text, table_text
from understudy.result import Result


class SentenceWriter:
    """Prints sentence results as they are scored, numbering segments across chunks."""

    def __init__(self, args: argparse.Namespace, tag: Callable[[Result], Result]) -> None:
        self.args = args
        self.tag = tag
        # sacrebleu prints sentence scores as text lines whatever -f says; so does its bare form here.
        self.json = args.format == "json" and not args.score_only and not getattr(args, "bare", False)
        self.count = 0
        self.started = False

    def write(self, results: Sequence[Result]) -> None:
        """Print one chunk's results (with the test set's keys in their signatures)."""
        args = self.args
        results = [self.tag(r) for r in results]
        self.started = self.started or bool(results)
        if not self.json:
            write("\n".join(r.format(args.width, args.score_only, args.short) for r in results))
            return
        records = []
        for result in results:
            self.count += 1
            record = json.dumps(
                {"segment": self.count, **result.to_dict(args.width)}, indent=1, ensure_ascii=False
            )
            records.append(("[\n" if self.count == 1 else ",\n") + textwrap.indent(record, " "))
        stdout().write(encode("".join(records)))

    def close(self) -> None:
        """End the JSON list."""
        if self.json:
            write("\n]")

    def fail(self, message: str) -> None:
        """End output that is already printed so that it reads as failed: the JSON list ends
        with an error record (and stays valid JSON), text with the error line."""
        if not self.started:
            return
        if self.json:
            record = json.dumps({"error": message}, indent=1, ensure_ascii=False)
            write(",\n" + textwrap.indent(record, " ") + "\n]")
        else:
            write(f"understudy: error: {message}")


def print_corpus(results: list[tuple[str, list[Result]]], args: argparse.Namespace) -> None:
    """One system: each metric's line (JSON: its record, a list for several); several: a table."""
    if getattr(args, "bare", False) and (len(results) == 1 or args.format == "json"):
        print_sacrebleu_corpus(results, args)
        return
    if getattr(args, "bare", False) and args.format in ("text", "latex") and not args.score_only:
        columns = {
            r.name: [s[k].sacrebleu_format(args.width, True) for _, s in results]
            for k, r in enumerate(results[0][1])
        }
        signatures = {r.name: r.signature.format(args.short) for r in results[0][1]}
        write(table_text([name for name, _ in results], columns, signatures, args.format, args.width))
        return
    if args.score_only:
        numbers = [[r.format(args.width, score_only=True) for r in scores] for _, scores in results]
        if len(results) == 1 and len(numbers[0]) > 1 and args.format == "json":
            # sacrebleu's form for one system and several metrics: a JSON list of scores.
            write("[\n" + ",\n".join(numbers[0]) + "\n]")
            return
        write("\n".join(n for system in numbers for n in system))
        return
    if len(results) == 1 and args.format in ("text", "latex"):
        write("\n".join(r.format(args.width, short=args.short) for r in results[0][1]))
        return
    emit(corpus_table(results, args.width, args.short), args.format)


def print_sacrebleu_corpus(
    results: list[tuple[str, list[Result]]],
    args: argparse.Namespace,
    intervals: list[tuple[float, float]] | None = None,
) -> None:
    """What sacrebleu's command line prints (:func:`understudy.printing.sacrebleu_text.corpus_text`)."""
    as_json = args.format == "json"
    write(
        corpus_text(
            results,
            args.width,
            score_only=args.score_only,
            short=args.short,
            as_json=as_json,
            intervals=intervals,
        )
    )


__all__ = ["SentenceWriter", "print_corpus"]
