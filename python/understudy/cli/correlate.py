"""``understudy correlate``: metric scores against human scores, at system or segment level."""

from __future__ import annotations

import argparse
import os
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np

from understudy.cli import meta_evaluation
from understudy.cli.computed import computed_chosen, computed_scores
from understudy.cli.inputs import read_parallel, read_texts, warn_reference_as_system
from understudy.cli.messages import CliError
from understudy.cli.options import (
    add_command,
    add_metric_options,
    add_threads_option,
    check_width,
    metrics_named,
    scorers,
    seed_value,
    width_value,
)
from understudy.cli.scores import add_scores_options, given_scores, given_stats, wants_scores
from understudy.cli.systems import system_names
from understudy.cli.table import Table, emit, text_table
from understudy.correlation import (
    DEFAULT_SEED,
    DEFAULT_STATISTICS,
    STATISTICS,
    CorrelationResult,
    compare,
    correlate,
    segment_resampler,
    unscored_notes,
)
from understudy.correlation import meta_evaluation as meta
from understudy.correlation.evalset import read_evalset
from understudy.correlation.paper import (
    EVERY_SUBSET_UP_TO,
    adjacent_differences,
    normalized_table,
    reference_subsets,
    regression,
)
from understudy.correlation.perm_both import Clusters
from understudy.errors import InputFileError, LengthMismatchError
from understudy.inputs.human import HumanScores, read_human
from understudy.inputs.score_files import read_named_scores, select_systems
from understudy.metric import Metric
from understudy.metrics import family_titles, lower_is_better
from understudy.metrics.scores import GivenScores
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
        EXAMPLES.format(lower=", ".join(lower_is_better())),
    )
    p.add_argument("refs", nargs="*", metavar="REF", help="reference file(s)")
    p.add_argument("-i", "--input", nargs="+", metavar="HYP", help="system output files")
    p.add_argument("--names", nargs="+", metavar="NAME", help="the systems' names in the human file")
    p.add_argument(
        "--human",
        metavar="FILE",
        help="human scores (TSV, CSV, JSON or MQM); with --evalset, the scorer's name (default: the only "
        "one, else mqm)",
    )
    p.add_argument(
        "--evalset",
        metavar="DIR",
        help="an mt-metrics-eval EvalSet folder (references/, system-outputs/, human-scores/, "
        "metric-scores/): its reference, systems, human scores and metric scores, for --lp",
    )
    p.add_argument("--lp", metavar="PAIR", help="the language pair of --evalset (en-de)")
    p.add_argument(
        "--evalset-ref", metavar="NAME", help="--evalset's reference (default: the only one, else refA)"
    )
    p.add_argument(
        "--metric-scores",
        nargs="+",
        default=[],
        metavar="FILE",
        help="scores of other metrics, read as --human reads (system scores too); --scores is the form with"
        " signatures, directions and --resample segments",
    )
    _add_statistics_options(p)
    add_metric_options(p, neural=True)
    add_scores_options(p)
    p.add_argument(
        "-f", "--format", default="text", choices=["text", "json", "csv", "latex"], help="default: text"
    )
    p.add_argument("-w", "--width", type=width_value, default=3, help="decimal places (default: 3)")
    add_threads_option(p)
    p.set_defaults(run=run)


def _add_statistics_options(p: argparse.ArgumentParser) -> None:
    """What is computed: level, statistics, intervals, comparisons, plots, the paper's analyses."""
    p.add_argument("--level", choices=["system", "segment"], default="system", help="default: system")
    p.add_argument(
        "--statistics",
        nargs="+",
        choices=[*STATISTICS, *meta.META_STATISTICS],
        default=list(DEFAULT_STATISTICS),
        metavar="STAT",
        help=f"any of {' '.join(STATISTICS)} (with bootstrap intervals), or WMT24's spa (soft pairwise "
        "accuracy, system level, from segment scores), spa-corpus (SPA with the corpus metric on permuted "
        "statistics rows) and acc-eq (tie-calibrated pairwise accuracy, segment level; with --average-by "
        f"item as WMT24) (default: {' '.join(DEFAULT_STATISTICS)})",
    )
    p.add_argument(
        "-n", "--bootstrap", type=int, default=1000, metavar="N", help="resamples for intervals (1000)"
    )
    p.add_argument(
        "--seed",
        type=seed_value,
        default=None,
        help="random seed (bootstrap and --compare: 12345; SPA's permutations: 4, mt-metrics-eval's)",
    )
    p.add_argument(
        "--resample",
        choices=["systems", "segments"],
        default="systems",
        help="what system-level intervals draw: the systems (default), or the segments, every system "
        "rescored on each draw (with segment-level human scores, those are drawn too)",
    )
    p.add_argument(
        "--compare", action="store_true", help="test each pair of metrics' difference (permutation)"
    )
    meta_evaluation.add_options(p)
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="the regression of human on metric scores (.png or .svg); with --paper also "
        "FILE.normalized and FILE.adjacent beside it",
    )
    p.add_argument(
        "--paper",
        action="store_true",
        help="also the BLEU paper's analyses: regression and residuals, range-normalized scores, "
        "adjacent systems' human differences (segment scores), every subset of the references",
    )


def _given_stats(
    args: argparse.Namespace, given: list[GivenScores], segments: int
) -> list[list[Stats[Any, Any]]]:
    """Each --scores metric's statistics of the systems of -i, checked against the text's length."""
    for metric in given:
        if len(metric) != segments:
            raise LengthMismatchError(
                f"{metric.config.source}: {len(metric)} {metric.config.name} scores per system, but the"
                f" references have {segments} lines"
            )
    return given_stats(given, args.input)


def _system_level(
    args: argparse.Namespace,
    metrics: list[Metric[Any, Any]],
    given: list[GivenScores],
    names: list[str],
    human: HumanScores,
) -> tuple[dict[str, list[float]], list[float], list[str], dict[str, str]]:
    refs, systems = read_parallel(args.refs, args.input)
    scores: dict[str, list[float]] = {}
    signatures: dict[str, str] = {}
    all_stats = [m.segment_stats_many(systems, refs) for m in metrics] + _given_stats(
        args, given, len(refs[0])
    )
    for per_system in all_stats:
        results = [stats.score() for stats in per_system]
        scores[results[0].name] = [r.score for r in results]
        signatures[results[0].name] = results[0].signature.format()
        args.collected_stats[results[0].name] = per_system
    for path in args.metric_scores:
        other = read_human(path)
        keys = system_names(args, other.system, path)
        scores[Path(path).name.rsplit(".", 1)[0]] = [other.system[k] for k in keys]
    return scores, [human.system[n] for n in names], names, signatures


def _segment_level(
    args: argparse.Namespace,
    metrics: list[Metric[Any, Any]],
    given: list[GivenScores],
    names: list[str],
    human: HumanScores,
) -> tuple[dict[str, list[float]], list[float], list[str], dict[str, str]]:
    if not human.has_segments:
        raise CliError(f"{args.human} has system scores only; --level segment needs segment scores")
    refs = read_texts(args.refs)
    items = [(n, seg) for n in names for seg in sorted(human.segments.get(n, {}))]
    beyond = next(((n, seg) for n, seg in items if seg > len(refs[0])), None)
    if beyond:
        raise CliError(
            f"{args.human} scores segment {beyond[1]} of {beyond[0]!r}, but the references have"
            f" {len(refs[0])} lines"
        )
    if not items:
        raise CliError(f"{args.human} scores none of the segments of these systems")
    scores: dict[str, list[float]] = {}
    signatures: dict[str, str] = {}
    systems = dict(zip(names, read_texts(args.input), strict=True))
    all_stats = [[metric.segment_stats(hyps, refs) for hyps in systems.values()] for metric in metrics]
    for listed in all_stats + _given_stats(args, given, len(refs[0])):
        per_system = dict(zip(names, listed, strict=True))
        sentence = {n: stats.sentence_scores() for n, stats in per_system.items()}
        first = next(iter(per_system.values()))
        scores[first.config.name] = [float(sentence[n][seg - 1]) for n, seg in items]
        signatures[first.config.name] = first.signature.format()
    for path in args.metric_scores:
        scores[Path(path).name.rsplit(".", 1)[0]] = _segment_scores_of(read_human(path), items, path)
    return (
        scores,
        [human.segments[n][seg] for n, seg in items],
        [f"{n}:{seg}" for n, seg in items],
        signatures,
    )


def _segment_scores_of(other: HumanScores, items: list[tuple[str, int]], path: str) -> list[float]:
    """The scores ``other`` gives the judged segments; a missing one is an error naming it."""
    missing = [(n, seg) for n, seg in items if seg not in other.segments.get(n, {})]
    if missing:
        n, seg = missing[0]
        raise CliError(
            f"{path} has no score for segment {seg} of {n!r}, which the human scores judge"
            f" ({len(missing)} judged segment{'s' if len(missing) > 1 else ''} missing)"
        )
    return [other.segments[n][seg] for n, seg in items]


def run(args: argparse.Namespace) -> int:
    """Score, correlate and print."""
    check_width(args.width)
    if args.plot:
        from understudy.correlation.plot import checked_path

        checked_path(args.plot)  # before any work
    human = _inputs(args)
    names = system_names(args, human.system, args.human)
    warn_reference_as_system(args.refs, args.input)
    text = metrics_named(args) or not wants_scores(args)
    metrics = scorers(args, sentence_level=args.level == "segment") if text else []
    _alias_metric_scores(args)
    given = given_scores(args, args.input, None, with_text=text)[0]
    if computed_chosen(args):
        given += computed_scores(args, args.input, *read_parallel(args.refs, args.input))
    if args.resample == "segments" and (args.level != "system" or args.metric_scores):
        raise CliError(
            "--resample segments is for system-level correlations of -m and --scores metrics (not"
            " --metric-scores)"
        )
    args.collected_stats = {}
    collect = _system_level if args.level == "system" else _segment_level
    scores, human_scores, items, signatures = collect(args, metrics, given, names, human)
    configs = [m.config for m in metrics] + [g.config for g in given]
    higher = {c.name: c.higher_is_better for c in configs}
    result = correlate(
        scores,
        human_scores,
        items,
        level=args.level,
        statistics=meta.classic(args.statistics) or ["pearson"],
        n_bootstrap=args.bootstrap,
        seed=DEFAULT_SEED if args.seed is None else args.seed,
        higher_is_better=higher,
        human_name=Path(args.human).name,
        metric_signatures=signatures,
        resample=segment_resampler(args.collected_stats, human, names, higher)
        if args.resample == "segments"
        else None,
    )
    found: list[Clusters] = []
    if meta_evaluation.wanted(args):
        result, found = _meta(args, result, given, names, human, higher)
    swap = args.compare and args.compare_test == "swap"
    comparisons = _comparisons(args, scores, human_scores, higher) if swap else []
    unscored = {n: v for n, v in human.system.items() if n not in names} if args.level == "system" else {}
    paper = _paper(args, result, human, names, metrics) if args.paper else None
    _print(result, comparisons, unscored, args, higher, paper, found)
    if args.plot:
        _plots(args.plot, result, paper, higher)
    return 0


def _meta(
    args: argparse.Namespace,
    result: CorrelationResult,
    given: list[GivenScores],
    names: list[str],
    human: HumanScores,
    higher: dict[str, bool],
) -> tuple[CorrelationResult, list[Clusters]]:
    """The WMT24 statistics from every metric's segment scores, merged into ``result`` (replacing the
    classic ones where --average-by groups them), and the clusters of --compare-test perm-*."""
    if args.level == "system":
        stats = dict(args.collected_stats)
    else:
        refs, systems = read_parallel(args.refs, args.input)
        corpus = scorers(args, sentence_level=False) if metrics_named(args) or not given else []
        listed = [m.segment_stats_many(systems, refs) for m in corpus] + given_stats(given, args.input)
        stats = {per_system[0].config.name: list(per_system) for per_system in listed}
    segments = len(next(iter(stats.values()))[0])
    matrices = meta.segment_matrices(stats, higher)
    h = meta.human_matrix(human, names, segments, args.human)
    found = meta.correlations(meta_evaluation.settings_of(args), stats, matrices, h)
    replaced = {(c.metric, c.statistic) for c in found}
    kept = [
        c
        for c in result.correlations
        if c.statistic in args.statistics and (c.metric, c.statistic) not in replaced
    ]
    without = tuple(c for c in result.without_outliers if c.statistic in args.statistics)
    result = replace(result, correlations=(*kept, *found), without_outliers=without)
    clusters = (
        meta.cluster_all(meta_evaluation.settings_of(args), list(result.correlations), matrices, h)
        if args.compare and args.compare_test != "swap"
        else []
    )
    return result, clusters


def _inputs(args: argparse.Namespace) -> HumanScores:
    """The human scores; with --evalset, its reference, systems and metric scores become REF, -i
    (unless given) and --scores."""
    if args.evalset is None:
        missing = [
            flag for flag, v in (("REF", args.refs), ("-i", args.input), ("--human", args.human)) if not v
        ]
        if missing:
            raise CliError(f"correlate needs {', '.join(missing)} (or --evalset DIR --lp PAIR)")
        return read_human(args.human)
    if args.lp is None:
        raise CliError("--evalset needs --lp (the language pair, as en-de)")
    if args.refs:
        raise CliError("--evalset gives the reference: name another with --evalset-ref, not as REF")
    found = read_evalset(args.evalset, args.lp, args.evalset_ref, args.human)
    args.refs = [str(found.reference)]
    args.input = args.input or [str(p) for p in found.systems.values()]
    args.scores += [f"{name}={path}" for name, path in found.metrics.items()]
    args.human = found.human.source
    return found.human


def _alias_metric_scores(args: argparse.Namespace) -> None:
    """``--metric-scores FILE``, the older form: a file with every segment of every system goes the
    ``--scores`` way (a signature, ``--resample segments``) as ``STEM=FILE``, higher is better as
    before; a file of system scores, or of some segments only, is read as ``--human`` reads."""
    kept = []
    for path in args.metric_scores:
        try:
            whole = read_human(path).has_segments
            if whole:
                select_systems(read_named_scores(path), args.input, path)
        except InputFileError:
            whole = False
        if not whole:
            kept.append(path)
            continue
        stem = Path(path).name.rsplit(".", 1)[0]
        args.scores.append(f"{stem}={path}")
        args.scores_higher_is_better.append(stem)
    args.metric_scores = kept


def _comparisons(
    args: argparse.Namespace, scores: dict[str, list[float]], human: list[float], higher: dict[str, bool]
) -> list[Any]:
    """Each pair of metrics' difference in correlation, by paired permutation."""
    names = list(scores)
    return [
        compare(
            (a, scores[a]),
            (b, scores[b]),
            human,
            meta.classic(args.statistics)[0] if meta.classic(args.statistics) else "pearson",
            args.bootstrap or 1000,
            DEFAULT_SEED if args.seed is None else args.seed,
            higher,
        )
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    ]


def _plots(
    path: str, result: CorrelationResult, paper: dict[str, Any] | None, higher: dict[str, bool]
) -> None:
    """The regression plot at ``path``; with --paper, the other figures beside it
    (``NAME.normalized.EXT``, ``NAME.adjacent.EXT``)."""
    from understudy.correlation.paper import AdjacentDifference
    from understudy.correlation.plot import adjacent_plot, normalized_plot, regression_plot

    regression_plot(result, path, higher)
    if paper is None:
        return
    stem, extension = os.path.splitext(path)
    if paper["range_normalized"]:
        normalized_plot(paper["range_normalized"], result.items, f"{stem}.normalized{extension}")
    if paper.get("adjacent_differences"):
        differences = [AdjacentDifference(**d) for d in paper["adjacent_differences"]]
        adjacent_plot(differences, f"{stem}.adjacent{extension}")


def _paper(
    args: argparse.Namespace,
    result: CorrelationResult,
    human: HumanScores,
    names: list[str],
    metrics: list[Metric[Any, Any]],
) -> dict[str, Any]:
    """The BLEU paper's analyses of these scores (see :mod:`understudy.correlation.paper`)."""
    fits = {m: regression(s, result.human) for m, s in result.scores.items()}
    out: dict[str, Any] = {
        "regression": {m: asdict(f) for m, f in fits.items()},
        "range_normalized": normalized_table(result.scores, result.human) if result.level == "system" else {},
    }
    if human.has_segments:
        out["adjacent_differences"] = [asdict(d) for d in adjacent_differences(human, names)]
    if result.level == "system" and len(args.refs) > 1:
        refs, systems = read_parallel(args.refs, args.input)
        statistic = args.statistics[0]
        by_metric = {}
        for metric in metrics:

            def scores(subset: Any, metric: Metric[Any, Any] = metric) -> list[float]:
                return [r.score for r in metric.corpus_scores(systems, [refs[i] for i in subset])]

            found = reference_subsets(
                scores, len(refs), result.human, statistic, metric.config.higher_is_better
            )
            by_metric[metric.config.name] = {k: [asdict(c) for c in v] for k, v in found.items()}
        names = [Path(p).name for p in args.refs]
        out["reference_subsets"] = {"statistic": statistic, "names": names, "metrics": by_metric}
    return out


def _paper_lines(paper: dict[str, Any], result: CorrelationResult, w: int) -> list[str]:
    lines = ["", "The BLEU paper's analyses:"]
    for metric, fit in paper["regression"].items():
        worst = sorted(zip(result.items, fit["residuals"], strict=True), key=lambda kv: -abs(kv[1]))[:3]
        listed = ", ".join(f"{n} ({e:+.{w}f})" for n, e in worst)
        lines.append(
            f"  regression: human = {fit['intercept']:.{w}f} + {fit['slope']:.{w}f} x {metric}, "
            f"r = {fit['r']:.{w}f}; largest residuals: {listed}"
        )
    table = paper["range_normalized"]
    if table:
        header = ["System", *table]
        rows = [[n, *(f"{table[c][k]:.{w}f}" for c in table)] for k, n in enumerate(result.items)]
        rows.sort(key=lambda r: -float(r[1]))
        lines += ["", "  Range-normalized (each column scaled to 0..1, as the paper's Figure 7):"]
        lines += ["  " + line for line in text_table(header, rows).splitlines()]
    for d in paper.get("adjacent_differences", []):
        mark = "" if d["low"] <= 0 <= d["high"] else " *"
        lines.append(
            f"  {d['higher']} over {d['lower']}: {d['mean']:+.{w}f} [{d['low']:+.{w}f}, {d['high']:+.{w}f}] "
            f"on {d['segments']} segments{mark}"
        )
    subsets = paper.get("reference_subsets")
    if subsets:
        names = subsets["names"]
        lines.append(
            f"  {subsets['statistic']} with each subset of the references (k: the mean over k of them):"
        )
        if len(names) > EVERY_SUBSET_UP_TO:
            lines.append(
                f"  (of {len(names)} references, subsets of 1, {len(names) - 1} and {len(names)} only: every"
                f" subset is scored up to {EVERY_SUBSET_UP_TO} references)"
            )
        for metric, per_k in subsets["metrics"].items():
            for k, found in per_k.items():
                each = "; ".join(
                    f"{' + '.join(names[i - 1] for i in c['references'])}: {c['value']:.{w}f}" for c in found
                )
                mean = np.mean([c["value"] for c in found])
                lines.append(f"    {metric}, k={k}: {mean:.{w}f} ({each})")
    return lines


def _rows(
    result: CorrelationResult, statistics: list[str], width: int, without: bool = False
) -> list[list[str]]:
    chosen = result.without_outliers if without else result.correlations
    rows = []
    for metric in result.scores:
        found = {c.statistic: c for c in chosen if c.metric == metric}
        cells = [found[s].format(width) if s in found else "-" for s in statistics]
        rows.append([metric, *cells])
    return rows


def _print(
    result: CorrelationResult,
    comparisons: list[Any],
    unscored: dict[str, float],
    args: argparse.Namespace,
    higher: dict[str, bool],
    paper: dict[str, Any] | None = None,
    clusters: list[Clusters] | None = None,
) -> None:
    w, stats = args.width, args.statistics
    record = result.to_dict()
    record["comparisons"] = [c.to_dict() for c in comparisons]
    if clusters:
        record["clusters"] = meta.clusters_record(clusters)
    record["unscored_in_human_file"] = unscored
    if paper is not None:
        record["paper"] = paper
    ranks = meta.rank_columns(clusters or [])
    header = ["Metric", *stats, *(f"{name} rank" for name in ranks)]
    rows = [[*row, *(str(r.get(row[0], "-")) for r in ranks.values())] for row in _rows(result, stats, w)]
    intervals = (f"{s}{part}" for s in stats for part in ("", "_low", "_high"))
    csv_ranks = [f"{name}_rank" for name in ranks]
    table = Table(
        header,
        rows,
        notes=[result.signature],
        csv_header=["metric", *intervals, *csv_ranks, "signature"],
        csv_rows=[
            [*row[:-1], *(r.get(metric, "") for r in ranks.values()), row[-1]]
            for metric, row in ((m, _csv_row(result, m, stats)) for m in result.scores)
        ],
        record=record,
        text=_text(result, comparisons, unscored, args, higher, paper, clusters or [])
        if args.format == "text"
        else None,
    )
    emit(table, args.format)


def _text(
    result: CorrelationResult,
    comparisons: list[Any],
    unscored: dict[str, float],
    args: argparse.Namespace,
    higher: dict[str, bool],
    paper: dict[str, Any] | None,
    clusters: list[Clusters],
) -> str:
    """The text form: the correlations with what they rest on, then the systems and analyses."""
    w, stats = args.width, args.statistics
    header = ["Metric", *stats]
    level = "System" if result.level == "system" else "Segment"
    source = Path(args.human).name
    count = f"{len(result.items)} {result.level}s"
    unit = "them" if f"resample:{result.level}s" in result.signature else "the segments, systems rescored"
    intervals = (
        f"; 95% intervals from {result.n_bootstrap} bootstrap resamples of {unit}"
        if meta.classic(stats)
        else ""
    )
    lines = [
        f"{level}-level correlation with {source} ({count}{intervals})",
        "",
        text_table(header, _rows(result, stats, w)),
    ]
    negated = [m for m in result.scores if not higher.get(m, True)]
    if negated:
        lines.append(f"({', '.join(negated)} negated before correlating: lower is better)")
    lines += meta_evaluation.note_lines(list(result.correlations), w)
    lines += meta_evaluation.cluster_lines(clusters, w)
    if result.outliers:
        lines += [
            "",
            f"Far from the other human scores: {', '.join(result.outliers)}; without "
            f"{'them' if len(result.outliers) > 1 else 'it'}:",
            text_table(header, _rows(result, stats, w, without=True)),
        ]
    lines += _system_lines(result, unscored, w)
    for c in comparisons:
        lines.append(
            f"{c.a} vs {c.b}: {c.statistic} differs by {c.difference:+.{w}f}, "
            f"p = {c.p_value:.4f} ({c.n} permutations)"
        )
    if paper is not None:
        lines += _paper_lines(paper, result, w)
    lines += ["", f"Signature: {result.signature}"]
    lines += [f"{m} signature: {s}" for m, s in result.metric_signatures.items()]
    return "\n".join(lines)


def _csv_row(result: CorrelationResult, metric: str, stats: list[str]) -> list[Any]:
    """A metric's CSV row: each statistic with its interval, and the metric's signature."""
    cells: list[Any] = [metric]
    for s in stats:
        c = result.get(metric, s)
        cells += [c.value, c.low, c.high]
    return [*cells, result.metric_signatures.get(metric, result.signature)]


def _system_lines(result: CorrelationResult, unscored: dict[str, float], w: int) -> list[str]:
    """At system level, every system's human and metric scores, best first; then what the human
    file scores that was not scored here (a reference, often), and whether it is judged worse."""
    lines: list[str] = []
    if result.level == "system":
        table_rows = [
            [name, f"{h:.{w}f}", *(f"{result.scores[m][k]:.{w}f}" for m in result.scores)]
            for k, (name, h) in enumerate(zip(result.items, result.human, strict=True))
        ]
        table_rows.sort(key=lambda r: -float(r[1]))
        lines += ["", text_table(["System", "Human", *result.scores], table_rows)]
    if unscored:
        lines += ["", *unscored_notes(result.human, unscored, w)]
    return lines
