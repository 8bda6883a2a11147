"""``understudy score``: corpus or sentence BLEU, chrF and TER of one or more systems, sacrebleu's flags."""

from __future__ import annotations

import argparse
import warnings
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from understudy.cli.computed import computed_scores
from understudy.cli.keep import add_log_options, log_scored
from understudy.cli.messages import CliError
from understudy.cli.options import (
    add_command,
    add_dask_option,
    add_declared,
    add_metric_options,
    add_threads_option,
)
from understudy.cli.progress import Progress
from understudy.cli.sacrebleu_cli import (
    DIFFERENCES,
    add_sacrebleu_options,
    apply_environment,
    print_detail,
    run_early_action,
)
from understudy.cli.score_printers import SentenceWriter, print_corpus
from understudy.cli.scores import add_scores_options, wants_scores
from understudy.cli.segments import (
    add_segment_options,
    reshaper,
    reshaping,
    signature_pairs,
    sources_as_scored,
    whole_documents,
)
from understudy.cli.stream import score_stream
from understudy.cli.testset import add_testset_options, testset_refs
from understudy.execution.asked import MetricsAsked
from understudy.files.tables import SCORE_WIDTH_HELP, check_width, width_value
from understudy.inputs.parallel import read_parallel
from understudy.metric import Metric
from understudy.metrics import family_titles
from understudy.metrics.given_files import given_stats
from understudy.metrics.scores import GivenScores
from understudy.signature import Signed, tagged
from understudy.significance.resampling import Resampling
from understudy.stats import Stats, Totals

if TYPE_CHECKING:
    from understudy.datasets.references import SetReferences
    from understudy.significance import Test

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
  understudy score ref.de -i a.de b.de -m bleu chrf --scores COMET-22=comet.out --paired-bs -f text
  understudy score --scores COMET-22=comet.out -f text    given scores alone: their means
  understudy score ref.de -i a.de b.de -m bleu comet metricx --source src.en -f text
                                                          COMET-22 and MetricX-24 computed here

Files are read and scored 20,000 lines at a time, so memory stays flat however
long they are; a progress bar is shown when standard error is a terminal.
"""


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
    add_metric_options(p, language=False, neural=True)  # -l is among the test-set options
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
    p.add_argument("-w", "--width", type=width_value, default=1, help=SCORE_WIDTH_HELP)
    p.add_argument("-b", "--score-only", action="store_true", help="print the score alone")
    p.add_argument("-sh", "--short", action="store_true", help="abbreviated signature in text output")
    add_testset_options(p)
    add_declared(p, Resampling)
    add_scores_options(p)
    add_threads_option(p)
    add_dask_option(p)
    add_log_options(p)
    add_sacrebleu_options(p)
    add_segment_options(p)
    p.set_defaults(run=run)


class _Tagger:
    """Adds the test set's keys (test, lang, origlang, subset) to a result's signature."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    def __call__(self, result: Signed) -> Signed:
        return tagged(result, self.pairs)


def _testset(args: argparse.Namespace) -> SetReferences | None:
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
    """Score every system with every metric asked and print the results: the text metrics a
    chunk of segments at a time (:func:`~understudy.cli.stream.score_stream`), then every other
    metric object over the same systems (:func:`_other_metrics`)."""
    check_width(args.width)
    apply_environment(args, getattr(args, "bare", False))
    early = run_early_action(args)
    if early is not None:
        return early
    asked = MetricsAsked(vars(args))
    paired = Resampling.from_values(vars(args)).test
    # Given scores alone name their own systems: no text is read.
    text = bool(args.refs or args.test_set or args.input) or not wants_scores(args)
    _check(args, asked, paired, text)
    # The scorers first: a tokenizer's missing extra is named before a test set is fetched.
    metrics = asked.text_metrics(args.sentence_level) if text else []
    testset = _testset(args) if text else None
    tag = _Tagger(((testset.signature if testset else []) + signature_pairs(args)) if text else [])
    if args.detail and (testset is None or paired or args.confidence or args.sentence_level):
        warnings.warn(
            "--detail breaks one system's corpus score of a test set (-t) down; ignored", stacklevel=1
        )
    elif args.detail and testset is not None:
        return _run_detail(args, metrics, testset, tag)
    # The bare form prints sacrebleu's numbers: where its float sums differ, they need every row.
    sacrebleu_sums = getattr(args, "bare", False) and any(m.stats_type.sums_as_sacrebleu for m in metrics)
    keep_rows = bool(paired or args.confidence or args.log or sacrebleu_sums)
    names: list[str] | None = args.input if text else None
    stats: list[list[Stats[Any, Any]]] | None = [] if keep_rows else None
    totals: list[list[Totals]] | None = None
    if metrics:
        sentences = SentenceWriter(args, tag) if args.sentence_level else None
        scored = score_stream(args, metrics, keep_rows=keep_rows, testset=testset, sentences=sentences)
        if scored is None:
            return 0
        names, stats, totals = scored.names, scored.stats, scored.totals
    segments = totals[0][0].n_segments if totals else None
    others, names = _other_metrics(args, asked, names, segments, testset)
    if args.sentence_level:
        # One computed metric of one system (checked): its segment scores, as -sl prints any metric's.
        writer = SentenceWriter(args, tag)
        writer.write(others[0].segment_stats(names[0]).sentence_results())
        writer.close()
        return 0
    if stats is not None:
        stats += given_stats(others, names)
    return _finish(args, names, (stats, totals), paired, tag, others, testset)


def _check(args: argparse.Namespace, asked: MetricsAsked, paired: Test | None, text: bool) -> None:
    """Refuse options that do not fit together, before anything is read: given scores follow
    every line of -i; the computed metrics read whole files, once more."""
    if not text and asked.named:
        raise CliError("-m scores the text of systems: give reference files and -i")
    for flag, given in [
        ("-sl", args.sentence_level),
        ("--origlang/--subset", args.origlang is not None or args.subset is not None),
        ("--detail", args.detail),
    ]:
        if given and wants_scores(args):
            raise CliError(f"--scores cannot be combined with {flag}: its scores are of every line of -i")
    if not text:
        return
    reshaping(args)  # its conflicts named before any reading
    if (paired or args.confidence) and args.sentence_level:
        raise CliError("confidence intervals and paired tests are for corpus scores, not -sl")
    if args.log and (args.sentence_level or args.detail):
        raise CliError("--log keeps corpus results: it cannot be combined with -sl or --detail")
    if args.sentence_level and len(asked.text_names) + len(asked.computed_names) > 1:
        raise CliError("sentence-level scoring (-sl) takes one metric, as in sacrebleu")
    if not asked.computed_names:
        return
    flag = f"-m {' '.join(asked.computed_names)}"
    if args.origlang is not None or args.subset is not None:
        raise CliError(f"{flag} scores every segment of a test set: --origlang and --subset cannot filter it")
    if not args.input or "-" in [*args.input, *args.refs]:
        raise CliError(f"{flag} reads its systems from files: give them with -i (not standard input)")
    if args.detail:
        raise CliError(f"{flag}: --detail breaks a test set's score down; use -sl for segment scores")
    if args.sentence_level and len(args.input) != 1:
        raise CliError("sentence-level scoring takes one system")


def _other_metrics(
    args: argparse.Namespace,
    asked: MetricsAsked,
    names: list[str] | None,
    segments: int | None,
    testset: SetReferences | None,
) -> tuple[list[GivenScores], list[str]]:
    """Every metric asked beside the text metrics, over the same systems (``None``: the score
    files' own), and their names: the given scores, then the computed metrics' (on whole files)."""
    inputs = _neural_inputs(args, testset) if asked.computed_names else None
    if segments is None and inputs is not None:
        segments = len(inputs[0][0])
    given, names = asked.given(names, segments)
    if inputs is not None:
        given += computed_scores(args, names, *inputs)
    return given, names


def _neural_inputs(
    args: argparse.Namespace, testset: SetReferences | None
) -> tuple[list[list[str]], list[list[str]], list[str] | None]:
    """The references, the systems' lines and the test set's source (``None`` for files) the
    computed metrics read, every system as long as the references."""
    if testset is None:
        return (*read_parallel(args.refs, args.input, reshaper(args)), None)
    refs, systems = testset.read_against(args.input, reshaper(args, testset.units), whole_documents(args))
    return refs, systems, sources_as_scored(args, testset.sources, testset.units)


def _finish(
    args: argparse.Namespace,
    names: list[str],
    scored: tuple[list[list[Stats[Any, Any]]] | None, list[list[Totals]] | None],
    paired: Test | None,
    tag: _Tagger,
    given: list[GivenScores],
    testset: SetReferences | None,
) -> int:
    """Print the results (:func:`_print_scored`: ``scored`` are the statistics, where kept, and
    the text metrics' totals) and keep them with ``--log``."""
    stats, totals = scored
    _print_scored(args, names, stats, paired, tag, given, totals)
    if args.log:
        assert stats is not None
        log_scored(args, names, stats, testset.signature if testset else [], args.command_line)
    return 0


def _print_scored(
    args: argparse.Namespace,
    names: list[str],
    stats: list[list[Stats[Any, Any]]] | None,
    paired: Test | None,
    tag: _Tagger,
    given: list[GivenScores],
    totals: list[list[Totals]] | None,
) -> None:
    """Paired tests, intervals or corpus scores of every metric: the text's (``totals``), then given."""
    if paired is not None:
        assert stats is not None
        _run_paired(args, names, stats, paired, tag)
        return
    if args.confidence:
        if len(names) > 1:
            raise CliError("--confidence takes one system; for several, use --paired-bs or --paired-ar")
        assert stats is not None
        from understudy.significance import bootstrap_ci

        cis = [tag(bootstrap_ci(per[0], args.confidence_n, args.seed, names[0])) for per in stats]
        from understudy.cli.compare import print_confidence  # the compare command's module, when asked

        print_confidence(cis, [per[0] for per in stats], args)
        return
    if getattr(args, "bare", False) and stats is not None:
        texts = [
            [tag(per[k].sacrebleu_score()) for per in stats[: len(totals or [])]] for k in range(len(names))
        ]
    else:
        texts = [[tag(t[k].score()) for t in totals or []] for k in range(len(names))]
    results = [
        (name, [*texts[k], *(tag(g.corpus_score(name)) for g in given)]) for k, name in enumerate(names)
    ]
    print_corpus(results, args)


def _run_paired(
    args: argparse.Namespace,
    names: list[str],
    all_stats: list[list[Stats[Any, Any]]],
    paired: Test,
    tag: _Tagger,
) -> None:
    """Each system against the first (the baseline) with every metric, as sacrebleu's command line does."""
    if len(names) < 2:
        raise CliError("paired tests need at least two systems (the first is the baseline)")
    from understudy.significance import paired_tests

    n = Resampling.from_values(vars(args)).paired_n
    with Progress("paired test", unit="systems") as bar:
        # As sacrebleu's command line: no bootstrap interval beside randomization.
        found = paired_tests(all_stats, names, paired, n, args.seed, args.p_values, 0, bar.update)
    tests = [tag(result) for result in found]
    from understudy.cli.compare import print_paired

    print_paired(tests, args)


def _run_detail(
    args: argparse.Namespace, metrics: list[Metric[Any, Any]], testset: SetReferences, tag: _Tagger
) -> int:
    """One system's corpus score, then sacrebleu's ``--detail`` breakdown of the test set."""
    # Every segment is scored; the filters of -ol/--subset pick rows, here and per subset.
    scored = score_stream(args, metrics, keep_rows=True, testset=replace(testset, keep=None))
    assert scored is not None and scored.stats is not None
    if len(scored.names) > 1:
        raise CliError("--detail takes one system, as in sacrebleu")
    stats = [per_metric[0] for per_metric in scored.stats]
    kept = [k for k, keep in enumerate(testset.keep or [True] * len(stats[0])) if keep]
    main = [tag(s[kept].score()) for s in stats]
    print_corpus([(scored.names[0], main)], args)
    print_detail(args, stats)
    return 0
