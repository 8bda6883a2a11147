"""How ``understudy score`` reads its inputs: the reference and system files (or a test set's
references, or inputs cut and joined first), opened as :class:`~understudy.streaming.Columns`
after the options are checked, and scored a chunk of lines at a time by
:func:`understudy.streaming.stream_statistics`."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from understudy.cli.progress import Progress
from understudy.cli.score_printers import SentenceWriter
from understudy.cli.segments import reshaper, whole_documents
from understudy.errors import UnderstudyError
from understudy.metric import Metric
from understudy.streaming import Columns, Reading, Scored, open_inputs, stream_statistics

if TYPE_CHECKING:
    from understudy.datasets.references import SetReferences


def open_sources(
    args: argparse.Namespace, stack: ExitStack, testset: SetReferences | None
) -> tuple[list[Columns], list[Columns]]:
    """The references' and the systems' sources (closed with ``stack``), after checking that the
    options and paths fit together (:func:`understudy.streaming.open_inputs`)."""
    reshape = reshaper(args, testset.units if testset is not None else None)
    sources = open_inputs(
        stack,
        args.refs,
        args.input or [],
        num_refs=args.num_refs,
        encoding=args.encoding,
        testset=testset,
        reshape=reshape,
        whole=whole_documents(args),
    )
    if not args.input:
        _say_when_reading_a_terminal()
    return sources


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
