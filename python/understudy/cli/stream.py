"""How ``understudy score`` reads its inputs: the reference and system files (or a test set's
references, or inputs cut and joined first), opened as :class:`~understudy.streaming.Columns`
after the options are checked, and scored a chunk of lines at a time by
:func:`understudy.streaming.stream_statistics`."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from understudy.cli.messages import CliError
from understudy.cli.progress import Progress
from understudy.cli.score_printers import SentenceWriter
from understudy.cli.segments import reshape, reshaping, whole_documents
from understudy.errors import UnderstudyError
from understudy.inputs.files import STDIN, LineReader, ListReader
from understudy.inputs.parallel import (
    check_stdin_once,
    read_texts,
    warn_json_lines_as_text,
    warn_reference_as_system,
)
from understudy.metric import Metric
from understudy.streaming import Columns, Reading, Scored, stream_statistics

if TYPE_CHECKING:
    from understudy.datasets.references import SetReferences


def open_sources(
    args: argparse.Namespace, stack: ExitStack, testset: SetReferences | None
) -> tuple[list[Columns], list[Columns]]:
    """The references' and the systems' sources (closed with ``stack``), after checking that the
    options and paths fit together."""
    if args.num_refs < 1:
        raise CliError(f"--num-refs must be at least 1, got {args.num_refs}")
    if args.num_refs > 1 and len(args.refs) > 1:
        raise CliError("--num-refs takes one TAB-separated reference file, not several files")
    if args.input and len(set(args.input)) != len(args.input):
        raise CliError("the same system file is given twice with -i")
    hyp_paths = args.input or ["-"]
    warn_reference_as_system(args.refs, hyp_paths)
    check_stdin_once(
        [(p, f"reference {k + 1}") for k, p in enumerate(args.refs)]
        + [
            (p, "the hypotheses" if not args.input else f"system {k + 1} (-i)")
            for k, p in enumerate(hyp_paths)
        ]
    )

    def source(path: str, fields: int | None, what: str) -> Columns:
        src = Columns(LineReader(path, encoding=args.encoding), fields, what)
        stack.callback(src.reader.close)
        return src

    if testset is not None:
        refs = [Columns(ListReader(lines, name), 1, "references") for name, lines in testset.streams]
    else:
        refs = [source(path, args.num_refs, "references") for path in args.refs]
    if not args.input:
        _say_when_reading_a_terminal()
    if reshaping(args):
        from understudy.datasets.references import read_systems  # the package only when used

        names = [name for name, _ in testset.streams] if testset is not None else args.refs
        lines = [lines for _, lines in testset.streams] if testset is not None else read_texts(args.refs)
        units = testset.units if testset is not None else None
        lines, cuts = reshape(args, lines, read_systems(args.input, testset, whole_documents(args)), units)
        refs = [Columns(ListReader(r, name), 1, "references") for r, name in zip(lines, names, strict=True)]
        return refs, [
            Columns(ListReader(c, path), 1, "systems") for c, path in zip(cuts, args.input, strict=True)
        ]
    if testset is not None and testset.documents is not None and args.input:
        # WMT25's JSON lines (a file's documents) read whole, a paragraph a line.
        from understudy.datasets.references import read_systems

        read = read_systems(args.input, testset, whole_documents(args))
        return refs, [
            Columns(ListReader(s, path), 1, "systems") for s, path in zip(read, args.input, strict=True)
        ]
    warn_json_lines_as_text(args.input or [])
    systems = (
        [source(path, 1, "systems") for path in args.input]
        if args.input
        else [source(STDIN, None, "systems")]
    )
    return refs, systems


def _say_when_reading_a_terminal() -> None:
    """Hypotheses from standard input when it is a terminal: most likely -i was forgotten, and
    the command would seem to hang; say what it waits for."""
    stdin = sys.stdin
    if stdin is not None and stdin.isatty():
        sys.stderr.write(
            "understudy: reading the hypotheses from the terminal (no -i FILE given); type them, "
            "one segment a line, and end with Ctrl-D, or give the system's file with -i\n"
        )


def score_stream(
    args: argparse.Namespace,
    metrics: list[Metric[Any, Any]],
    keep_rows: bool,
    testset: SetReferences | None,
    sentences: SentenceWriter | None = None,
) -> Scored | None:
    """Read and score the inputs a chunk at a time (:func:`understudy.streaming.stream_statistics`);
    ``None`` when sentence scores were printed."""
    with ExitStack() as stack:
        refs, systems = open_sources(args, stack, testset)
        # streaming picks the file whose bytes measure progress; the total comes with the first chunk.
        bar = stack.enter_context(Progress("scoring"))
        on_rows = None if sentences is None else lambda stats: sentences.write(stats.sentence_results())
        keep = testset.keep if testset is not None else None
        reading = Reading(keep_rows, keep, args.dask, on_rows, bar.update)
        try:
            scored = stream_statistics(systems, refs, metrics, reading)
        except (UnderstudyError, KeyboardInterrupt) as err:
            if sentences is not None:
                # Scores already printed must not pass for a complete run.
                sentences.fail("interrupted" if isinstance(err, KeyboardInterrupt) else str(err))
            raise
        bar.close()
    if sentences is not None:
        sentences.close()
        return None
    return scored


__all__ = ["open_sources", "score_stream"]
