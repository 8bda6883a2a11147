"""How ``understudy score`` reads its inputs: every reference and system file a chunk of lines at a
time (TAB-separated columns too), checked for equal lengths, each chunk scored (here or on Dask)
into running totals, so that memory stays flat however long the files are."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from understudy.cli.inputs import (
    check_stdin_once,
    read_systems,
    read_texts,
    warn_json_lines_as_text,
    warn_reference_as_system,
)
from understudy.cli.messages import CliError
from understudy.cli.progress import Progress
from understudy.cli.score_printers import SentenceWriter
from understudy.cli.segments import reshape, reshaping
from understudy.cli.testset import Refs
from understudy.cluster import Chunks, ChunkStats
from understudy.errors import EmptyInputError, LengthMismatchError, UnderstudyError
from understudy.inputs.files import STDIN, LineReader, ListReader
from understudy.metric import Metric
from understudy.stats import Stats, Totals
from understudy.wording import counted

FIELD_COUNT_STATUS = 17
"""Exit status for a wrong number of TAB fields, as sacrebleu has it."""


CHUNK_LINES = 20_000
"""Segments read and scored at a time: memory stays flat however long the files are."""


class Source:
    """One input file read a chunk at a time, as one column or TAB-separated columns.

    ``fields`` is the number of columns; ``None`` takes it from the first line (systems
    on standard input). A line with another number of fields exits with status 17.
    """

    def __init__(self, reader: LineReader | ListReader, fields: int | None, what: str) -> None:
        self.reader = reader
        self.fields = fields
        self.what = what
        self._fields_from_line_1 = fields is None

    @property
    def names(self) -> list[str]:
        """One name per column, for messages and output."""
        fields = self.fields or 1
        if fields == 1:
            return [self.reader.name]
        if self.reader.path == STDIN:
            return [f"System {k + 1}" for k in range(fields)]
        return [f"{self.reader.path} (field {k + 1})" for k in range(fields)]

    def chunk(self, n: int) -> list[list[str]]:
        """The next ``n`` lines as columns (empty columns at the end of the file)."""
        first = self.reader.lines_taken + 1
        lines = [line.rstrip() for line in self.reader.take(n)]
        if self.fields is None:
            self.fields = len(lines[0].split("\t")) if lines else 1
        if self.fields == 1:
            return [lines]
        columns: list[list[str]] = [[] for _ in range(self.fields)]
        for lineno, line in enumerate(lines, first):
            parts = line.split("\t")
            if len(parts) != self.fields:
                as_on = " (as on line 1)" if self._fields_from_line_1 else ""
                raise CliError(
                    f"{self.reader.name}:{lineno}: expected {self.fields} TAB-separated "
                    f"{self.what}{as_on}, found {len(parts)}",
                    FIELD_COUNT_STATUS,
                )
            for column, part in zip(columns, parts, strict=True):
                column.append(part.rstrip())
        if first == 1 and lines:
            # Each column is a file's text (paste A B): its byte-order mark goes, as a file's does.
            for column in columns:
                column[0] = column[0].removeprefix("\ufeff")
        return columns


def open_sources(
    args: argparse.Namespace, stack: ExitStack, testset: Refs | None
) -> tuple[list[Source], list[Source]]:
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

    def source(path: str, fields: int | None, what: str) -> Source:
        src = Source(LineReader(path, encoding=args.encoding), fields, what)
        stack.callback(src.reader.close)
        return src

    if testset is not None:
        refs = [Source(ListReader(lines, name), 1, "references") for name, lines in testset.streams]
    else:
        refs = [source(path, args.num_refs, "references") for path in args.refs]
    if not args.input:
        _say_when_reading_a_terminal()
    if reshaping(args):
        names = [name for name, _ in testset.streams] if testset is not None else args.refs
        lines = [lines for _, lines in testset.streams] if testset is not None else read_texts(args.refs)
        units = testset.units if testset is not None else None
        lines, cuts = reshape(args, lines, read_systems(args.input, testset, args), units)
        refs = [Source(ListReader(r, name), 1, "references") for r, name in zip(lines, names, strict=True)]
        return refs, [
            Source(ListReader(c, path), 1, "systems") for c, path in zip(cuts, args.input, strict=True)
        ]
    if testset is not None and testset.documents is not None and args.input:
        # WMT25's JSON lines (a file's documents) read whole, a paragraph a line.
        read = read_systems(args.input, testset, args)
        return refs, [
            Source(ListReader(s, path), 1, "systems") for s, path in zip(read, args.input, strict=True)
        ]
    warn_json_lines_as_text(args.input or [], testset)
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


def length_error(sources: list[Source]) -> UnderstudyError:
    """The error naming an empty input, or the first input whose length differs from the first's."""
    counts = [(name, src.reader.count_all()) for src in sources for name in src.names]
    empty = next((name for name, count in counts if count == 0), None)
    if empty is not None:
        return EmptyInputError(f"{empty}: empty input (no lines)")
    first_name, first_count = counts[0]
    name, count = next((n, c) for n, c in counts if c != first_count)
    return LengthMismatchError(f"{first_name} has {counted(first_count, 'line')} but {name} has {count}")


@dataclass
class Scored:
    """One pass over the inputs: per metric and system, the running total and (when asked) all rows."""

    names: list[str]
    metrics: list[Metric[Any, Any]]
    totals: list[list[Totals]]
    stats: list[list[Stats[Any, Any]]] | None


@dataclass
class RunningTotals:
    """Per metric and system: the running total and (when ``keep_rows``) every chunk's rows."""

    metrics: list[Metric[Any, Any]]
    keep_rows: bool
    totals: list[list[Totals]] = field(default_factory=list)
    kept: list[list[list[Stats[Any, Any]]]] = field(default_factory=list)

    sentences: SentenceWriter | None = None

    def add(self, chunk: ChunkStats) -> None:
        """Add one chunk's statistics of every metric (printing sentence scores when asked)."""
        if not self.totals:
            self.totals = [[Totals.empty(m.config) for _ in chunk[0]] for m in self.metrics]
            self.kept = [[[] for _ in chunk[0]] for _ in self.metrics]
        for m, chunk_stats in enumerate(chunk):
            if self.sentences is not None:
                self.sentences.write(chunk_stats[0].sentence_results())
            self.totals[m] = [t + s for t, s in zip(self.totals[m], chunk_stats, strict=True)]
            if self.keep_rows:
                for parts, part in zip(self.kept[m], chunk_stats, strict=True):
                    parts.append(part)


def score_stream(
    args: argparse.Namespace,
    metrics: list[Metric[Any, Any]],
    keep_rows: bool,
    testset: Refs | None,
    sentences: SentenceWriter | None = None,
) -> Scored | None:
    """Read and score the inputs a chunk at a time; ``None`` when sentence scores were printed."""
    with ExitStack() as stack:
        refs, systems = open_sources(args, stack, testset)
        sources = [*systems, *refs]
        tracked = next((s.reader for s in sources if s.reader.total_bytes), refs[0].reader)
        progress = stack.enter_context(Progress("scoring", total=tracked.total_bytes))
        keep = testset.keep if testset is not None else None
        first = 0
        line = 1  # the input line of the chunk's first segment
        run = RunningTotals(metrics, keep_rows, sentences=sentences)
        chunks = Chunks(metrics, run.add)
        lines = _chunk_lines(metrics, args.dask)
        if args.dask is not None:
            chunks.connect(args.dask, stack)
        try:
            while True:
                sys_columns = [col for src in systems for col in src.chunk(lines)]
                ref_columns = [col for src in refs for col in src.chunk(lines)]
                sizes = {len(col) for col in [*sys_columns, *ref_columns]}
                if sizes == {0}:
                    break
                if len(sizes) > 1:
                    raise length_error(sources)
                if sentences is not None and len(sys_columns) > 1:
                    raise CliError("sentence-level scoring takes one system")
                size = sizes.pop()
                if keep is not None:
                    mask = keep[first : first + size]
                    first += len(mask)
                    sys_columns, ref_columns = kept(sys_columns, mask), kept(ref_columns, mask)
                    if not any(mask):
                        continue
                # The scorers count segments from the chunk's first one: errors say where that is.
                chunks.submit(sys_columns, ref_columns, line if keep is None else 0)
                line += size
                progress.update(tracked.bytes_read)
            chunks.finish()
        except (UnderstudyError, CliError, KeyboardInterrupt) as err:
            chunks.cancel()
            if sentences is not None:
                # Scores already printed must not pass for a complete run.
                sentences.fail("interrupted" if isinstance(err, KeyboardInterrupt) else str(err))
            raise
        progress.close()
        if not run.totals:
            raise EmptyInputError(f"{refs[0].reader.name}: empty input (no lines)")
        if sentences is not None:
            sentences.close()
            return None
        names = [name for src in systems for name in src.names]
        merged = [[p[0].merge(*p[1:]) for p in per] for per in run.kept] if keep_rows else None
        return Scored(names, metrics, run.totals, merged)


def _chunk_lines(metrics: list[Metric[Any, Any]], dask: str | None) -> int:
    """Lines read at a time: :data:`CHUNK_LINES`, or every line in one pass when a metric needs
    the whole reference corpus first (which Dask's chunks cannot give it)."""
    whole = [m.config.name for m in metrics if m.config.needs_corpus]
    if not whole:
        return CHUNK_LINES
    if dask is not None:
        raise CliError(f"--dask scores chunks apart, and {', '.join(whole)} needs the whole corpus at once")
    return sys.maxsize


def kept(columns: list[list[str]], mask: list[bool]) -> list[list[str]]:
    """The lines of each column that ``mask`` keeps (a test set's -ol/--subset)."""
    return [[line for line, k in zip(column, mask, strict=True) if k] for column in columns]


__all__ = [
    "CHUNK_LINES",
    "FIELD_COUNT_STATUS",
    "RunningTotals",
    "Scored",
    "Source",
    "open_sources",
    "score_stream",
]
