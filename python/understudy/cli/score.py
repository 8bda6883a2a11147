"""``understudy score``: corpus or sentence BLEU, chrF and TER of one or more systems, sacrebleu's flags."""

from __future__ import annotations

import argparse
import json
import textwrap
import warnings
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import numpy as np

from understudy.cli.chunks import Chunks, ChunkStats, add_dask_option
from understudy.cli.output import (
    CliError,
    add_command,
    add_metric_options,
    add_threads_option,
    check_stdin_once,
    check_width,
    encode,
    scorers,
    stdout,
    warn_reference_as_system,
    write,
)
from understudy.cli.progress import Progress
from understudy.cli.sacrebleu_cli import (
    DIFFERENCES,
    add_sacrebleu_options,
    apply_environment,
    print_detail,
    run_early_action,
)
from understudy.cli.significance import add_significance_options, print_confidence, print_paired
from understudy.cli.table import Table, emit
from understudy.cli.testset import Refs, add_testset_options, testset_refs
from understudy.errors import EmptyInputError, LengthMismatchError, UnderstudyError
from understudy.io import STDIN, LineReader, ListReader
from understudy.metric import Metric
from understudy.metrics import family_titles
from understudy.result import Result
from understudy.significance import ConfidenceResult, PairedResult, Test, bootstrap_ci, paired_test
from understudy.stats import Stats, Totals

EXAMPLES = """examples:
  understudy score ref.de -i hyp.de                       JSON (sacrebleu's default)
  understudy score ref.de -i sysA.de sysB.de -f text      a table of systems
  understudy score ref1.de ref2.de -i hyp.de -lc -tok intl
  understudy score refs.tsv -nr 2 -i hyp.de               two references per line, TAB-separated
  understudy score ref.de -i sysA.de sysB.de -m bleu chrf ter -f text   three metrics, a column each
  understudy score ref.de -i hyp.de -m chrf -cw 2          chrF++
  understudy score ref.de -i hyp.de -sl -f text           one sentence score per line
  cat hyp.de | understudy score ref.de -b                 hypotheses from stdin, score only
  paste sysA.de sysB.de | understudy score ref.de         several systems on stdin, TAB-separated
  understudy score ref.de -i base.de sysA.de sysB.de --paired-bs -f text   each against the baseline
  understudy score ref.de -i hyp.de --confidence          95% interval by bootstrap resampling
  understudy score -t wmt17 -l en-de -i hyp.de            against the official WMT17 reference
  understudy score -t wmt19 -l de-en -i hyp.en --origlang de   only documents written in German

Files are read and scored 20,000 lines at a time, so memory stays flat however
long they are; a progress bar is shown when standard error is a terminal.
"""

FIELD_COUNT_STATUS = 17
"""Exit status for a wrong number of TAB fields, as sacrebleu has it."""


def add_parser(commands: Any) -> None:
    """Register the ``score`` subcommand."""
    p = add_command(
        commands,
        "score",
        f"{family_titles()} of systems against reference files",
        "Score hypothesis files against reference files with BLEU (default), chrF, chrF++ or TER "
        "(-m). Defaults are sacrebleu's: for BLEU 13a tokenization, mixed case, exp smoothing, maximum "
        "order 4; chrF2 with character order 6; TER as Tercom.",
        EXAMPLES + DIFFERENCES,
    )
    p.add_argument(
        "refs", nargs="*", metavar="REF", help="reference file(s), .gz read transparently; or -t NAME -l PAIR"
    )
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", help="system output file(s); default: stdin")
    add_metric_options(p, language=False)  # -l is among the test-set options
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
    p.add_argument(
        "-f",
        "--format",
        default="json",
        choices=["json", "text", "latex", "csv"],
        help="default: json; csv: RFC 4180, a row per system, a column per number, the signatures in theirs",
    )
    p.add_argument("-w", "--width", type=int, default=1, help="decimal places of scores (default: 1)")
    p.add_argument("-b", "--score-only", action="store_true", help="print the score alone")
    p.add_argument("-sh", "--short", action="store_true", help="abbreviated signature in text output")
    add_testset_options(p)
    add_significance_options(p)
    add_threads_option(p)
    add_dask_option(p)
    add_sacrebleu_options(p)
    p.set_defaults(run=run)


CHUNK_LINES = 20_000
"""Segments read and scored at a time: memory stays flat however long the files are."""


class _Source:
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
        return columns


def _open_sources(
    args: argparse.Namespace, stack: ExitStack, testset: Refs | None
) -> tuple[list[_Source], list[_Source]]:
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

    def source(path: str, fields: int | None, what: str) -> _Source:
        src = _Source(LineReader(path, encoding=args.encoding), fields, what)
        stack.callback(src.reader.close)
        return src

    if testset is not None:
        refs = [_Source(ListReader(lines, name), 1, "references") for name, lines in testset.streams]
    else:
        refs = [source(path, args.num_refs, "references") for path in args.refs]
    systems = (
        [source(path, 1, "systems") for path in args.input]
        if args.input
        else [source(STDIN, None, "systems")]
    )
    return refs, systems


def _length_error(sources: list[_Source]) -> UnderstudyError:
    counts = [(name, src.reader.count_all()) for src in sources for name in src.names]
    empty = next((name for name, count in counts if count == 0), None)
    if empty is not None:
        return EmptyInputError(f"{empty}: empty input (no lines)")
    first_name, first_count = counts[0]
    name, count = next((n, c) for n, c in counts if c != first_count)
    return LengthMismatchError(f"{first_name} has {first_count} lines but {name} has {count}")


@dataclass
class _Scored:
    """One pass over the inputs: per metric and system, the running total and (when asked) all rows."""

    names: list[str]
    metrics: list[Metric[Any]]
    totals: list[list[Totals]]
    stats: list[list[Stats[Any, Any]]] | None


@dataclass
class _Totals:
    """Per metric and system: the running total and (when ``keep_rows``) every chunk's rows."""

    metrics: list[Metric[Any]]
    keep_rows: bool
    totals: list[list[Totals]] = field(default_factory=list)
    kept: list[list[list[Stats[Any, Any]]]] = field(default_factory=list)

    sentences: _SentenceWriter | None = None
    tag: _Tagger | None = None

    def add(self, chunk: ChunkStats) -> None:
        """Add one chunk's statistics of every metric (printing sentence scores when asked)."""
        if not self.totals:
            self.totals = [[Totals.empty(m.config) for _ in chunk[0]] for m in self.metrics]
            self.kept = [[[] for _ in chunk[0]] for _ in self.metrics]
        sentences, tag = self.sentences, self.tag
        for m, chunk_stats in enumerate(chunk):
            if sentences is not None and tag is not None:
                sentences.write([tag(r) for r in chunk_stats[0].sentence_results()])
            self.totals[m] = [t + s for t, s in zip(self.totals[m], chunk_stats, strict=True)]
            if self.keep_rows:
                for parts, part in zip(self.kept[m], chunk_stats, strict=True):
                    parts.append(part)


def _score_stream(
    args: argparse.Namespace, metrics: list[Metric[Any]], keep_rows: bool, testset: Refs | None, tag: _Tagger
) -> _Scored | None:
    """Read and score the inputs a chunk at a time; ``None`` when sentence scores were printed."""
    with ExitStack() as stack:
        refs, systems = _open_sources(args, stack, testset)
        sources = [*systems, *refs]
        tracked = next((s.reader for s in sources if s.reader.total_bytes), refs[0].reader)
        progress = stack.enter_context(Progress("scoring", total=tracked.total_bytes))
        keep = testset.keep if testset is not None else None
        first = 0
        line = 1  # the input line of the chunk's first segment
        sentences = _SentenceWriter(args) if args.sentence_level else None
        run = _Totals(metrics, keep_rows, sentences=sentences, tag=tag)
        chunks = Chunks(metrics, run.add)
        if args.dask is not None:
            chunks.connect(args.dask, stack)
        try:
            while True:
                sys_columns = [col for src in systems for col in src.chunk(CHUNK_LINES)]
                ref_columns = [col for src in refs for col in src.chunk(CHUNK_LINES)]
                sizes = {len(col) for col in [*sys_columns, *ref_columns]}
                if sizes == {0}:
                    break
                if len(sizes) > 1:
                    raise _length_error(sources)
                if sentences is not None and len(sys_columns) > 1:
                    raise CliError("sentence-level scoring takes one system")
                size = sizes.pop()
                if keep is not None:
                    mask = keep[first : first + size]
                    first += len(mask)
                    sys_columns, ref_columns = _kept(sys_columns, mask), _kept(ref_columns, mask)
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
        return _Scored(names, metrics, run.totals, merged)


def _kept(columns: list[list[str]], mask: list[bool]) -> list[list[str]]:
    return [[line for line, k in zip(column, mask, strict=True) if k] for column in columns]


_Tagged = TypeVar("_Tagged", Result, PairedResult, ConfidenceResult)


class _Tagger:
    """Adds the test set's keys (test, lang, origlang, subset) to a result's signature."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    def __call__(self, result: _Tagged) -> _Tagged:
        if not self.pairs:
            return result
        signature = result.signature.with_extras(self.pairs)
        if isinstance(result, Result):
            return result.with_signature(signature)
        return replace(result, signature=signature)


def _testset(args: argparse.Namespace) -> Refs | None:
    """The test set's references when -t is given, after checking the options fit together."""
    if args.test_set and args.refs:
        raise CliError("give reference files or -t NAME, not both")
    if not args.test_set:
        if not args.refs:
            raise CliError("no references: give reference files, or -t NAME -l PAIR for a built-in test set")
        if args.origlang is not None or args.subset is not None:
            raise CliError("--origlang and --subset filter a built-in test set (-t)")
        return None
    if args.num_refs != 1:
        raise CliError("--num-refs is for a TAB-separated reference file, not for -t")
    return testset_refs(args)


def run(args: argparse.Namespace) -> int:
    """Score every system with every metric, a chunk of segments at a time, and print the results."""
    check_width(args.width)
    apply_environment(args, getattr(args, "bare", False))
    early = run_early_action(args)
    if early is not None:
        return early
    paired: Test | None = "bs" if args.paired_bs else "ar" if args.paired_ar else None
    if (paired or args.confidence) and args.sentence_level:
        raise CliError("confidence intervals and paired tests are for corpus scores, not -sl")
    if args.sentence_level and len(set(args.metrics)) > 1:
        raise CliError("sentence-level scoring (-sl) takes one metric, as in sacrebleu")
    # The scorers first: a tokenizer's missing extra is named before a test set is fetched.
    metrics = scorers(args, sentence_level=args.sentence_level)
    testset = _testset(args)
    tag = _Tagger(testset.signature if testset else [])
    if args.detail and (testset is None or paired or args.confidence or args.sentence_level):
        warnings.warn(
            "--detail breaks one system's corpus score of a test set (-t) down; ignored", stacklevel=1
        )
    elif args.detail and testset is not None:
        return _run_detail(args, metrics, testset, tag)
    scored = _score_stream(args, metrics, keep_rows=bool(paired or args.confidence), testset=testset, tag=tag)
    if scored is None:
        return 0
    if paired is not None:
        _run_paired(args, scored, paired, tag)
        return 0
    if args.confidence:
        if len(scored.names) > 1:
            raise CliError("--confidence takes one system; for several, use --paired-bs or --paired-ar")
        assert scored.stats is not None
        cis = [
            tag(bootstrap_ci(stats[0], args.confidence_n, args.seed, scored.names[0]))
            for stats in scored.stats
        ]
        print_confidence(cis, [stats[0] for stats in scored.stats], args)
        return 0
    results = [
        (name, [tag(scored.totals[m][k].score()) for m in range(len(metrics))])
        for k, name in enumerate(scored.names)
    ]
    _print_corpus(results, args)
    return 0


def _run_paired(args: argparse.Namespace, scored: _Scored, paired: Test, tag: _Tagger) -> None:
    """Each system against the first (the baseline) with every metric, as sacrebleu's command line does."""
    if len(scored.names) < 2:
        raise CliError("paired tests need at least two systems (the first is the baseline)")
    assert scored.stats is not None
    n = args.paired_bs_n if paired == "bs" else args.paired_ar_n
    tests = []
    per_metric = len(scored.names) - 1
    with Progress("paired test", total=per_metric * len(scored.metrics), unit="systems") as bar:
        for m, stats in enumerate(scored.stats):

            def advance(k: int, _: int, done: int = m * per_metric) -> None:
                bar.update(done + k)

            # As sacrebleu's command line: no bootstrap interval beside randomization.
            result = paired_test(
                stats,
                scored.names,
                paired,
                n,
                args.seed,
                args.p_values,
                ar_confidence=0,
                progress=advance,
            )
            tests.append(tag(result))
    print_paired(tests, args)


def _run_detail(args: argparse.Namespace, metrics: list[Metric[Any]], testset: Refs, tag: _Tagger) -> int:
    """One system's corpus score, then sacrebleu's ``--detail`` breakdown of the test set."""
    # Every segment is scored; the filters of -ol/--subset pick rows, here and per subset.
    scored = _score_stream(args, metrics, keep_rows=True, testset=replace(testset, keep=None), tag=tag)
    assert scored is not None and scored.stats is not None
    if len(scored.names) > 1:
        raise CliError("--detail takes one system, as in sacrebleu")
    stats = [per_metric[0] for per_metric in scored.stats]
    keep = np.ones(len(stats[0]), dtype=bool) if testset.keep is None else np.array(testset.keep, dtype=bool)
    main = [tag(type(s)(s.rows[keep], s.refs_per_segment[keep], s.config).score()) for s in stats]
    _print_corpus([(scored.names[0], main)], args)
    print_detail(args, stats)
    return 0


class _SentenceWriter:
    """Prints sentence results as they are scored, numbering segments across chunks."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.json = args.format == "json" and not args.score_only
        self.count = 0
        self.started = False

    def write(self, results: list[Result]) -> None:
        """Print one chunk's results."""
        args = self.args
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


def _print_corpus(results: list[tuple[str, list[Result]]], args: argparse.Namespace) -> None:
    """One system: each metric's line (JSON: its record, a list for several); several: a table."""
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
    emit(_corpus_table(results, args), args.format)


def _corpus_table(results: list[tuple[str, list[Result]]], args: argparse.Namespace) -> Table:
    """Each system's scores: a row per system, a column per metric (CSV: with its signature)."""
    first = results[0][1]
    w = args.width
    return Table(
        header=["System", *(r.name for r in first)],
        rows=[[name, *(f"{r.score:.{w}f}" for r in scores)] for name, scores in results],
        notes=[f"{r.name} signature: {r.signature.format(args.short)}" for r in first],
        latex_join="\n% ",
        csv_header=["system", *(c for r in first for c in (r.name, f"{r.name}_signature"))],
        csv_rows=[
            [name, *(v for r in scores for v in (r.score, r.signature.format()))] for name, scores in results
        ],
        record=_corpus_record(results, w),
    )


def _corpus_record(results: list[tuple[str, list[Result]]], w: int) -> Any:
    """sacrebleu's JSON: one record, a list of a system's metrics, a list of systems."""
    if len(results) == 1:
        records = [r.to_dict(w) for r in results[0][1]]
        return records[0] if len(records) == 1 else records
    if len(results[0][1]) == 1:
        return [{"system": name, **r[0].to_dict(w)} for name, r in results]
    return [{"system": name, **{r.name: r.to_dict(w) for r in scores}} for name, scores in results]
