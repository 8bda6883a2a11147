"""``understudy correlate``: metric scores against human scores, at system or segment level."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from understudy.cli.computed import asked_metrics
from understudy.cli.messages import CliError
from understudy.cli.options import (
    add_command,
    add_declared,
    add_metric_options,
    add_threads_option,
    metrics_named,
    scorers,
)
from understudy.cli.scores import add_scores_options, wants_scores
from understudy.cli.table import emit
from understudy.correlation import (
    Comparison,
    CorrelationResult,
    compare_all,
    correlate,
    segment_resampler,
)
from understudy.correlation import meta_evaluation as meta
from understudy.correlation.judged import Judged, segment_level, system_level
from understudy.correlation.options import CorrelationInputs, CorrelationOptions
from understudy.correlation.paper import analyses
from understudy.correlation.perm_both import Clusters
from understudy.correlation.text import Extras, table
from understudy.evaluation import Evaluation
from understudy.files.tables import check_width, width_value
from understudy.inputs.human import HumanScores, read_human
from understudy.inputs.parallel import read_parallel, warn_reference_as_system
from understudy.inputs.score_files import named_systems
from understudy.metrics import family_titles, inverted_titles
from understudy.metrics.protocol import MetricObject
from understudy.stats import Stats

EXAMPLES = """examples:
  understudy correlate ref-B.txt -i sys/*.txt --human mqm_system_scores.tsv -m bleu chrf ter
  understudy correlate ref.de -i *.de --human da.tsv --statistics pearson kendall-wmt accuracy
  understudy correlate ref.de -i *.de --human mqm.tsv --level segment       segment level, pooled
  understudy correlate ref.de -i *.de --human h.tsv --metric-scores comet.tsv --compare
  understudy correlate ref.de -i *.de --human h.tsv -f json --plot regression.svg
  understudy correlate ref.de -i *.de --human mqm.tsv -m bleu --scores COMET-22=comet.out --compare
  understudy correlate ref.zh -i *.txt --human mqm.tsv -m bleu chrf --statistics spa acc-eq \
      --average-by item --compare --compare-test wmt24          WMT24's meta-evaluation, clusters
  understudy correlate --evalset mt-metrics-eval-v2/wmt23 --lp en-de -m bleu --statistics spa

A system's name is its file's name without the last extension (--names to give others); the
human file must score every system (TSV/CSV 'system<TAB>score' or 'system<TAB>segment<TAB>score',
JSON, or WMT MQM annotations). Metrics where lower is better ({lower}) are negated before
correlating, so that every metric should correlate positively. Intervals: 95%, from bootstrap
resamples of the items (systems or segments).
"""


def add_parser(commands: Any) -> None:
    """Register the ``correlate`` subcommand."""
    p = add_command(
        commands,
        "correlate",
        "metric scores against human judgments (Pearson, Spearman, Kendall, accuracy)",
        f"Score each system with {family_titles()} (-m), or read another metric's scores, and correlate "
        "them with human scores, with bootstrap intervals; as the BLEU paper's Section 5 does.",
        EXAMPLES.format(lower=", ".join(inverted_titles())),
    )
    p.add_argument("refs", nargs="*", metavar="REF", help="reference file(s)")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", help="system output files")
    add_declared(p, CorrelationInputs)
    add_declared(p, CorrelationOptions)
    add_metric_options(p, neural=True)
    add_scores_options(p)
    p.add_argument(
        "-f", "--format", default="text", choices=["text", "json", "csv", "latex"], help="default: text"
    )
    p.add_argument("-w", "--width", type=width_value, default=3, help="decimal places (default: 3)")
    add_threads_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Score, correlate and print."""
    check_width(args.width)
    asked = CorrelationOptions.from_values(vars(args))
    if asked.plot:
        from understudy.correlation.plot import checked_path

        checked_path(asked.plot)  # before any work
    human = _inputs(args)
    names = named_systems(human.system, args.input, args.names, args.human)
    warn_reference_as_system(args.refs, args.input)
    text = _check_metrics(args)
    refs, systems = read_parallel(args.refs, args.input)  # once: every metric and the tests share them
    segment = args.level == "segment"
    metrics = asked_metrics(args, args.input, refs, systems, with_text=text, sentence_level=segment)
    evaluation = Evaluation(dict(zip(args.input, systems, strict=True)), refs)
    stats = [evaluation.statistics(m) for m in metrics]
    judged = _judged(args, stats, names, human, len(refs[0]))
    args.collected_stats = dict(zip(judged.scores, stats, strict=False))  # --metric-scores follow
    higher = {m.name: m.higher_is_better for m in metrics}
    result = correlate(
        judged.scores,
        judged.human,
        judged.items,
        level=asked.level,
        statistics=asked.classic,
        n_bootstrap=asked.bootstrap,
        seed=asked.tests_seed,
        higher_is_better=higher,
        human_name=Path(args.human).name,
        metric_signatures=judged.signatures,
        resample=segment_resampler(args.collected_stats, human, names, higher)
        if asked.resample == "segments"
        else None,
    )
    found: list[Clusters] = []
    if asked.wants_matrices:
        result, found = _meta(args, asked, result, metrics, names, human, higher, (refs, systems))
    swap = asked.compare and asked.compare_test == "swap"
    unscored = {n: v for n, v in human.system.items() if n not in names} if asked.level == "system" else {}
    extras = Extras(
        higher,
        _comparisons(asked, judged, higher) if swap else [],
        unscored,
        _paper(args, asked, result, human, names, metrics, (refs, systems)) if asked.paper else None,
        found,
    )
    _print(result, args, extras)
    if asked.plot:
        from understudy.correlation.plot import figures

        figures(asked.plot, result, extras.paper, higher)
    return 0


def _comparisons(asked: CorrelationOptions, judged: Judged, higher: dict[str, bool]) -> list[Comparison]:
    """Each pair of metrics' difference in correlation, by paired permutation."""
    n = asked.bootstrap or 1000
    return compare_all(judged.scores, judged.human, asked.classic[0], n, asked.tests_seed, higher)


def _check_metrics(args: argparse.Namespace) -> bool:
    """Whether -m's text metrics are scored (not when only --scores names metrics), with
    --metric-scores read the --scores way and what does not fit refused, before the files are read."""
    text = metrics_named(args) or not wants_scores(args)
    if text:
        scorers(args, sentence_level=False)  # a tokenizer's missing extra named first
    _alias_metric_scores(args)
    if args.resample == "segments" and (args.level != "system" or args.metric_scores):
        raise CliError(
            "--resample segments is for system-level correlations of -m and --scores metrics (not"
            " --metric-scores)"
        )
    return text


def _judged(
    args: argparse.Namespace,
    stats: list[list[Stats[Any, Any]]],
    names: list[str],
    human: HumanScores,
    lines: int,
) -> Judged:
    """The metrics' and --metric-scores' scores of what the human scores judge, at --level."""
    read = [(Path(path).name.rsplit(".", 1)[0], read_human(path), path) for path in args.metric_scores]
    if args.level == "segment":
        return segment_level(stats, names, human, {name: other for name, other, _ in read}, lines)
    judged = system_level(stats, names, human)
    for name, other, path in read:
        judged.scores[name] = [
            other.system[k] for k in named_systems(other.system, args.input, args.names, path)
        ]
    return judged


def _meta(
    args: argparse.Namespace,
    asked: CorrelationOptions,
    result: CorrelationResult,
    metrics: list[MetricObject],
    names: list[str],
    human: HumanScores,
    higher: dict[str, bool],
    texts: tuple[list[list[str]], list[list[str]]],
) -> tuple[CorrelationResult, list[Clusters]]:
    """The WMT24 statistics from every metric's segment scores, merged into ``result`` (replacing the
    classic ones where --average-by groups them), and the clusters of --compare-test perm-*. At
    segment level the text metrics are scored as for corpus scores (BLEU without effective order)."""
    if args.level == "system":
        stats = dict(args.collected_stats)
    else:
        refs, systems = texts
        evaluation = Evaluation(dict(zip(args.input, systems, strict=True)), refs)
        corpus = scorers(args, sentence_level=False) if any(m.inputs() for m in metrics) else []
        listed = [evaluation.statistics(m) for m in [*corpus, *(m for m in metrics if not m.inputs())]]
        stats = {per_system[0].config.name: list(per_system) for per_system in listed}
    segments = len(next(iter(stats.values()))[0])
    h = meta.human_matrix(human, names, segments, args.human)
    return meta.meta_evaluate(result, asked.settings(), stats, higher, h, asked.with_clusters)


def _inputs(args: argparse.Namespace) -> HumanScores:
    """The human scores; with --evalset, its reference, systems and metric scores become REF, -i
    (unless given) and --scores (:meth:`CorrelationInputs.read`)."""
    read = CorrelationInputs.from_values(vars(args)).read(args.refs, args.input)
    args.refs, args.input, args.human = read.refs, read.systems, read.human_path
    args.scores += read.scores
    return read.human


def _alias_metric_scores(args: argparse.Namespace) -> None:
    """``--metric-scores FILE``, the older form: a file with every segment of every system goes the
    ``--scores`` way as ``STEM=FILE``, higher is better as before; others are read as ``--human``
    reads (:meth:`CorrelationInputs.whole_metric_scores`)."""
    whole, args.metric_scores = CorrelationInputs.from_values(vars(args)).whole_metric_scores(args.input)
    args.scores += [f"{stem}={path}" for stem, path in whole]
    args.scores_higher_is_better += [stem for stem, _ in whole]


def _paper(
    args: argparse.Namespace,
    asked: CorrelationOptions,
    result: CorrelationResult,
    human: HumanScores,
    names: list[str],
    metrics: list[MetricObject],
    texts: tuple[list[list[str]], list[list[str]]],
) -> dict[str, Any]:
    """The BLEU paper's analyses of these scores (see :mod:`understudy.correlation.paper`)."""
    refs, systems = texts
    reference_names = [Path(p).name for p in args.refs]
    return analyses(result, human, names, metrics, systems, refs, reference_names, asked.classic[0])


def _print(result: CorrelationResult, args: argparse.Namespace, extras: Extras) -> None:
    as_text = args.format == "text"
    emit(table(result, args.statistics, args.width, Path(args.human).name, extras, as_text), args.format)
