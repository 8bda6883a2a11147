"""Files scored a chunk of lines at a time: every reference and system file (TAB-separated
columns too) read together, checked for equal lengths, each chunk's statistics computed (here or
on a Dask cluster, :mod:`understudy.execution.cluster`) and added to running totals, so that memory stays
flat however long the files are. What ``understudy score`` runs, callable from Python.

>>> import os, tempfile
>>> from understudy import BLEU
>>> folder = tempfile.mkdtemp()
>>> for name, text in [("ref", "the cat sat on the mat\\n"), ("hyp", "the cat sat on a mat\\n")]:
...     with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
...         _ = f.write(text * 30_000)
>>> scored = score_files([os.path.join(folder, "ref")], [os.path.join(folder, "hyp")], [BLEU()])
>>> round(scored.corpus_scores()[0][0].score, 2), scored.totals[0][0].n_segments
(53.73, 30000)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from os import PathLike, fspath
from typing import TYPE_CHECKING, Any

from understudy.errors import ConfigError, EmptyInputError, InputError, LengthMismatchError, UnderstudyError
from understudy.execution.cluster import Chunks, ChunkStats
from understudy.inputs.files import STDIN, LineReader, ListReader
from understudy.inputs.parallel import (
    Reshape,
    check_stdin_once,
    kept,
    read_texts,
    warn_json_lines_as_text,
    warn_reference_as_system,
)
from understudy.stats import Stats, Totals
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.datasets.references import SetReferences
    from understudy.metric import Metric
    from understudy.result import Result

CHUNK_LINES = 20_000
"""Segments read and scored at a time: memory stays flat however long the files are."""


class FieldCountError(InputError):
    """A line of a TAB-separated file with another number of fields than expected; the command
    line exits with :attr:`status` (17), as sacrebleu's does."""

    status = 17


class Columns:
    """One input file read a chunk at a time, as one column or TAB-separated columns.

    ``fields`` is the number of columns; ``None`` takes it from the first line (systems
    on standard input). A line with another number of fields raises :class:`FieldCountError`.

    >>> columns = Columns(ListReader(["a\\tb", "c\\td"], "pasted"), None, "systems")
    >>> columns.chunk(5), columns.names
    ([['a', 'c'], ['b', 'd']], ['pasted (field 1)', 'pasted (field 2)'])
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
                raise FieldCountError(
                    f"{self.reader.name}:{lineno}: expected {self.fields} TAB-separated "
                    f"{self.what}{as_on}, found {len(parts)}"
                )
            for column, part in zip(columns, parts, strict=True):
                column.append(part.rstrip())
        if first == 1 and lines:
            # Each column is a file's text (paste A B): its byte-order mark goes, as a file's does.
            for column in columns:
                column[0] = column[0].removeprefix("\ufeff")
        return columns


def length_error(sources: Sequence[Columns]) -> UnderstudyError:
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

    def corpus_scores(self) -> list[list[Result]]:
        """Per metric, each system's corpus score (from the running totals)."""
        return [[total.score() for total in per_metric] for per_metric in self.totals]


@dataclass
class RunningTotals:
    """Per metric and system: the running total and (when ``keep_rows``) every chunk's rows;
    ``on_rows`` sees each chunk's statistics of the first system (sentence scores, as they come)."""

    metrics: list[Metric[Any, Any]]
    keep_rows: bool
    on_rows: Callable[[Stats[Any, Any]], None] | None = None
    totals: list[list[Totals]] = field(default_factory=list)
    kept: list[list[list[Stats[Any, Any]]]] = field(default_factory=list)

    def add(self, chunk: ChunkStats) -> None:
        """Add one chunk's statistics of every metric."""
        if not self.totals:
            self.totals = [[Totals.empty(m.config) for _ in chunk[0]] for m in self.metrics]
            self.kept = [[[] for _ in chunk[0]] for _ in self.metrics]
        for m, chunk_stats in enumerate(chunk):
            if self.on_rows is not None:
                self.on_rows(chunk_stats[0])
            self.totals[m] = [t + s for t, s in zip(self.totals[m], chunk_stats, strict=True)]
            if self.keep_rows:
                for parts, part in zip(self.kept[m], chunk_stats, strict=True):
                    parts.append(part)

    def merged(self) -> list[list[Stats[Any, Any]]]:
        """Per metric and system, every row kept, in input order."""
        return [[parts[0].merge(*parts[1:]) for parts in per] for per in self.kept]


@dataclass(frozen=True)
class Reading:
    """How :func:`stream_statistics` reads: rows kept (``keep_rows``), lines kept (``keep``: a
    mask over the input lines, a test set's subset), a Dask scheduler (``dask``: an address or
    ``local``), ``on_rows`` (one system only: each chunk's rows as they are scored) and
    ``progress`` (called after each chunk with the bytes read and the total, when known)."""

    keep_rows: bool = False
    keep: Sequence[bool] | None = None
    dask: str | None = None
    on_rows: Callable[[Stats[Any, Any]], None] | None = None
    progress: Callable[[int, int | None], None] | None = None


def stream_statistics(
    systems: Sequence[Columns],
    references: Sequence[Columns],
    metrics: list[Metric[Any, Any]],
    reading: Reading,
) -> Scored:
    """Read ``systems`` and ``references`` a chunk at a time and score every chunk with every
    metric (:class:`Reading` says how); lengths are checked as they are read."""
    run = RunningTotals(metrics, reading.keep_rows, reading.on_rows)
    with ExitStack() as stack:
        chunks = Chunks(metrics, run.add)
        lines = chunk_lines(metrics, reading.dask)
        if reading.dask is not None:
            chunks.connect(reading.dask, stack)
        try:
            _feed(chunks, systems, references, lines, reading)
            chunks.finish()
        except BaseException:
            chunks.cancel()
            raise
    if not run.totals:
        raise EmptyInputError(f"{references[0].reader.name}: empty input (no lines)")
    names = [name for src in systems for name in src.names]
    return Scored(names, metrics, run.totals, run.merged() if reading.keep_rows else None)


def _feed(
    chunks: Chunks, systems: Sequence[Columns], refs: Sequence[Columns], lines: int, reading: Reading
) -> None:
    """Hand every chunk of the inputs to ``chunks``, in order."""
    sources = [*systems, *refs]
    tracked = next((s.reader for s in sources if s.reader.total_bytes), refs[0].reader)
    keep, first = reading.keep, 0
    line = 1  # the input line of the chunk's first segment
    while True:
        sys_columns = [col for src in systems for col in src.chunk(lines)]
        ref_columns = [col for src in refs for col in src.chunk(lines)]
        sizes = {len(col) for col in [*sys_columns, *ref_columns]}
        if sizes == {0}:
            return
        if len(sizes) > 1:
            raise length_error(sources)
        if reading.on_rows is not None and len(sys_columns) > 1:
            raise InputError("sentence-level scoring takes one system")
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
        if reading.progress is not None:
            reading.progress(tracked.bytes_read, tracked.total_bytes)


def chunk_lines(metrics: Sequence[Metric[Any, Any]], dask: str | None) -> int:
    """Lines read at a time: :data:`CHUNK_LINES`, or every line in one pass when a metric needs
    the whole reference corpus first (which Dask's chunks cannot give it)."""
    whole = [m.config.name for m in metrics if m.config.needs_corpus]
    if not whole:
        return CHUNK_LINES
    if dask is not None:
        needs = ", ".join(whole)
        raise ConfigError(f"--dask scores chunks apart, and {needs} needs the whole corpus at once")
    return sys.maxsize


def score_files(
    references: Sequence[str | PathLike[str]],
    systems: Sequence[str | PathLike[str]],
    metrics: list[Metric[Any, Any]],
    *,
    num_refs: int = 1,
    encoding: str = "utf-8",
    reading: Reading = Reading(),
) -> Scored:
    """Every system file scored against the reference files (``num_refs`` TAB-separated
    references a line of a single file) by every metric, a chunk of lines at a time; ``.gz``
    files are read as they are; see the module's example."""
    with ExitStack() as stack:
        refs, hyps = open_inputs(stack, references, systems, num_refs=num_refs, encoding=encoding)
        return stream_statistics(hyps, refs, metrics, reading)


def open_inputs(
    stack: ExitStack,
    references: Sequence[str | PathLike[str]],
    systems: Sequence[str | PathLike[str]],
    *,
    num_refs: int = 1,
    encoding: str = "utf-8",
    testset: SetReferences | None = None,
    reshape: Reshape | None = None,
    whole: bool = False,
) -> tuple[list[Columns], list[Columns]]:
    """The references' and the systems' columns for :func:`stream_statistics`, closed with
    ``stack``: reference files (``num_refs`` TAB-separated references a line of a single file) or
    ``testset``'s streams; system files, or with none, standard input (TAB-separated systems, as
    many as its first line has). Where the inputs are reshaped first (``reshape``: cut, joined),
    or a system is a test set's JSON lines (``whole``: a document a line), they are read whole.
    Standard input named twice is refused, and a reference given as a system warned of."""
    if num_refs < 1:
        raise ConfigError(f"--num-refs must be at least 1, got {num_refs}")
    if num_refs > 1 and len(references) > 1:
        raise ConfigError("--num-refs takes one TAB-separated reference file, not several files")
    paths, hyps = [fspath(path) for path in references], [fspath(path) for path in systems]
    if len(set(hyps)) != len(hyps):
        raise ConfigError("the same system file is given twice with -i")
    warn_reference_as_system(paths, hyps or [STDIN])
    named = [(p, f"system {k + 1} (-i)") for k, p in enumerate(hyps)] or [(STDIN, "the hypotheses")]
    check_stdin_once([(p, f"reference {k + 1}") for k, p in enumerate(paths)] + named)

    def opened(path: str, fields: int | None, what: str) -> Columns:
        return Columns(stack.enter_context(LineReader(path, encoding=encoding)), fields, what)

    def listed(streams: Iterable[tuple[str, list[str]]], what: str) -> list[Columns]:
        return [Columns(ListReader(lines, name), 1, what) for name, lines in streams]

    if reshape is not None or (testset is not None and testset.documents is not None and hyps):
        from understudy.datasets.references import read_systems  # the package only when used

        streams = testset.streams if testset is not None else list(zip(paths, read_texts(paths), strict=True))
        lines, read = [lines for _, lines in streams], read_systems(hyps, testset, whole)
        if reshape is not None:
            lines, read = reshape(lines, read)
        names = [name for name, _ in streams]
        return listed(zip(names, lines, strict=True), "references"), listed(
            zip(hyps, read, strict=True), "systems"
        )
    if testset is not None:
        refs = listed(testset.streams, "references")
    else:
        refs = [opened(path, num_refs, "references") for path in paths]
    warn_json_lines_as_text(hyps)
    return refs, [opened(path, 1, "systems") for path in hyps] or [opened(STDIN, None, "systems")]


__all__ = [
    "CHUNK_LINES",
    "Columns",
    "FieldCountError",
    "Reading",
    "RunningTotals",
    "Scored",
    "chunk_lines",
    "length_error",
    "open_inputs",
    "score_files",
    "stream_statistics",
]
