"""``understudy score``: corpus or sentence BLEU of one or more systems, sacrebleu's flags."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any

from understudy.bleu import BLEU
from understudy.cli.output import CliError, add_command, add_text_options, latex_table, text_table, write
from understudy.config import SMOOTH_DEFAULTS
from understudy.io import STDIN, read_lines
from understudy.result import BLEUResult

EXAMPLES = """examples:
  understudy score ref.de -i hyp.de                       JSON (sacrebleu's default)
  understudy score ref.de -i sysA.de sysB.de -f text      a table of systems
  understudy score ref1.de ref2.de -i hyp.de -lc -tok intl
  understudy score refs.tsv -nr 2 -i hyp.de               two references per line, TAB-separated
  understudy score ref.de -i hyp.de -sl -f text           one sentence score per line
  cat hyp.de | understudy score ref.de -b                 hypotheses from stdin, score only
"""

FIELD_COUNT_STATUS = 17
"""Exit status for a wrong number of TAB fields, as sacrebleu has it."""


def add_parser(commands: Any) -> None:
    """Register the ``score`` subcommand."""
    p = add_command(
        commands,
        "score",
        "BLEU of systems against reference files",
        "Score hypothesis files against reference files with BLEU. Defaults are sacrebleu's: "
        "13a tokenization, mixed case, exp smoothing, maximum order 4.",
        EXAMPLES,
    )
    p.add_argument("refs", nargs="+", metavar="REF", help="reference file(s); .gz is read transparently")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", help="system output file(s); default: stdin")
    add_text_options(p, "case-insensitive BLEU")
    p.add_argument(
        "-s", "--smooth-method", default="exp", choices=list(SMOOTH_DEFAULTS), help="smoothing (default: exp)"
    )
    p.add_argument(
        "-sv", "--smooth-value", type=float, help="value for floor (default 0.1) and add-k (default 1)"
    )
    p.add_argument(
        "--max-ngram-order", type=int, default=4, metavar="N", help="maximum n-gram order (default: 4)"
    )
    p.add_argument(
        "-nr",
        "--num-refs",
        type=int,
        default=1,
        metavar="N",
        help="N TAB-separated references per line of REF",
    )
    p.add_argument(
        "-sl", "--sentence-level", action="store_true", help="one score per segment (effective order)"
    )
    p.add_argument("-f", "--format", default="json", choices=["json", "text", "latex"], help="default: json")
    p.add_argument("-w", "--width", type=int, default=1, help="decimal places of scores (default: 1)")
    p.add_argument("-b", "--score-only", action="store_true", help="print the score alone")
    p.add_argument("-sh", "--short", action="store_true", help="abbreviated signature in text output")
    p.set_defaults(run=run)


@dataclass(frozen=True)
class _Stream:
    """A named list of segments, for messages that say which file is which."""

    name: str
    lines: list[str]


def _read_refs(args: argparse.Namespace) -> list[_Stream]:
    if args.num_refs < 1:
        raise CliError(f"--num-refs must be at least 1, got {args.num_refs}")
    if args.num_refs == 1:
        return [_Stream(path, [line.rstrip() for line in read_lines(path)]) for path in args.refs]
    if len(args.refs) > 1:
        raise CliError("--num-refs takes one TAB-separated reference file, not several files")
    path = args.refs[0]
    columns: list[list[str]] = [[] for _ in range(args.num_refs)]
    for lineno, line in enumerate(read_lines(path), 1):
        fields = line.rstrip().split("\t", args.num_refs - 1)
        if len(fields) != args.num_refs:
            raise CliError(
                f"{path}:{lineno}: expected {args.num_refs} TAB-separated references, found {len(fields)}",
                FIELD_COUNT_STATUS,
            )
        for column, field in zip(columns, fields, strict=True):
            column.append(field)
    return [_Stream(f"{path} (field {k + 1})", col) for k, col in enumerate(columns)]


def _read_systems(args: argparse.Namespace) -> list[_Stream]:
    if args.input:
        if len(set(args.input)) != len(args.input):
            raise CliError("the same system file is given twice with -i")
        return [_Stream(path, [line.rstrip() for line in read_lines(path)]) for path in args.input]
    lines = read_lines(STDIN)
    n_fields = len(lines[0].rstrip().split("\t"))
    if n_fields == 1:
        return [_Stream("<stdin>", [line.rstrip() for line in lines])]
    columns: list[list[str]] = [[] for _ in range(n_fields)]
    for lineno, line in enumerate(lines, 1):
        fields = line.rstrip().split("\t")
        if len(fields) != n_fields:
            raise CliError(
                f"<stdin>:{lineno}: expected {n_fields} TAB-separated systems (as on line 1), "
                f"found {len(fields)}",
                FIELD_COUNT_STATUS,
            )
        for column, field in zip(columns, fields, strict=True):
            column.append(field.rstrip())
    return [_Stream(f"System {k + 1}", col) for k, col in enumerate(columns)]


def _check_lengths(systems: list[_Stream], refs: list[_Stream]) -> None:
    first = systems[0]
    for stream in [*systems[1:], *refs]:
        if len(stream.lines) != len(first.lines):
            raise CliError(
                f"{first.name} has {len(first.lines)} lines but {stream.name} has {len(stream.lines)}"
            )


def run(args: argparse.Namespace) -> int:
    """Score every system and print the results in the chosen format."""
    if args.width < 0:
        raise CliError(f"--width must be 0 or more, got {args.width}")
    refs = _read_refs(args)
    systems = _read_systems(args)
    _check_lengths(systems, refs)
    if args.sentence_level and len(systems) > 1:
        raise CliError("sentence-level scoring takes one system")
    bleu = BLEU(
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        smooth_method=args.smooth_method,
        smooth_value=args.smooth_value,
        max_ngram_order=args.max_ngram_order,
        effective_order=args.sentence_level,
        references=[r.lines for r in refs],
    )
    if args.sentence_level:
        _print_sentences(bleu.segment_stats(systems[0].lines).sentence_results(), args)
    else:
        results = [(s.name, bleu.corpus_score(s.lines)) for s in systems]
        _print_corpus(results, args)
    return 0


def _print_sentences(results: list[BLEUResult], args: argparse.Namespace) -> None:
    if args.format == "json" and not args.score_only:
        records = [{"segment": i, **r.to_dict(args.width)} for i, r in enumerate(results, 1)]
        write(json.dumps(records, indent=1, ensure_ascii=False))
        return
    for result in results:
        write(result.format(args.width, args.score_only, args.short))


def _print_corpus(results: list[tuple[str, BLEUResult]], args: argparse.Namespace) -> None:
    if args.score_only:
        for _, result in results:
            write(result.format(args.width, score_only=True))
        return
    if args.format == "json":
        if len(results) == 1:
            write(results[0][1].to_json(args.width))
        else:
            records = [{"system": name, **r.to_dict(args.width)} for name, r in results]
            write(json.dumps(records, indent=1, ensure_ascii=False))
        return
    if len(results) == 1:
        write(results[0][1].format(args.width, short=args.short))
        return
    signature = results[0][1].signature.format(args.short)
    header = ["System", "BLEU"]
    rows = [[name, f"{r.score:.{args.width}f}"] for name, r in results]
    if args.format == "latex":
        write(latex_table(header, rows, f"BLEU signature: {signature}"))
    else:
        write(text_table(header, rows) + f"\n\nBLEU signature: {signature}")
