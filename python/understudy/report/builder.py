"""The report built from the metrics' statistics: every number comes from the statistics,
:func:`understudy.significance.all_pairs`, the analyses of :mod:`understudy.report.analysis` and
:func:`understudy.correlation.correlate`; this module only gathers them into the page's model."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy.config import MetricConfig
from understudy.errors import ConfigError
from understudy.evaluation import Evaluation
from understudy.metrics.bleu import BLEU
from understudy.metrics.protocol import MetricObject
from understudy.metrics.scores import error_spans
from understudy.metrics.wer import WER
from understudy.report import figures, steps
from understudy.report.analysis import (
    Buckets,
    by_reference_length,
    by_sentence_score,
    by_word_frequency,
    ngram_differences,
    reference_lengths,
)
from understudy.report.bands import BANDS
from understudy.report.documents import Layout, with_layout
from understudy.report.edits import FOLD_CHARS, Run, edit_runs
from understudy.report.human import HumanInputs, with_human_segments
from understudy.report.human import human_view as report_human
from understudy.report.model import (
    CUT_CHARS,
    DIFF_CHARS,
    DIFF_ROWS,
    WORST_SEGMENTS,
    AnalysisView,
    DiffRow,
    HumanView,
    MetricView,
    PairView,
    Report,
    Segment,
    SystemView,
)
from understudy.report.names import short_names
from understudy.report.overview import Overview, overview
from understudy.significance import AllPairsResult
from understudy.stats import Stats


def _histogram_svg(scores: NDArray[np.float64], name: str, config: MetricConfig) -> str:
    figure, axis = figures.pyplot().subplots(figsize=(4.0, 2.2))
    low, high = config.score_range
    # An unbounded metric (TER past 100, WER past 1) starts from its scale's top and grows to hold
    # every segment; a given metric's scores can pass its declared range too.
    lower = min(low, float(scores.min(initial=low))) if low is not None else float(scores.min(initial=0.0))
    upper = max(high, float(scores.max(initial=high))) if high is not None else float(scores.max(initial=1.0))
    if low == 0 and high is None:
        upper = max(config.scale, upper)
    axis.hist(scores, bins=20, range=(lower, upper if upper > lower else lower + 1))
    axis.set_xlabel(f"sentence {name}")
    axis.set_ylabel("segments")
    # Fixed margins: tight_layout would measure the text of every figure again, which
    # doubles the time of sixteen histograms.
    figure.subplots_adjust(left=0.16, right=0.97, top=0.95, bottom=0.22)
    return figures.svg(figure)


def _buckets_svg(buckets: Buckets, colours: dict[str, str], figure_id: str = "b") -> str:
    figure, axis = figures.pyplot().subplots(figsize=(7.0, 2.6))
    # A bucket with nothing in it (words the references never use: no reference words) is in the
    # table, not the plot: its F-measure is 0 by construction and says nothing.
    kept = [k for k in range(len(buckets.labels)) if not buckets.sizes or buckets.sizes[k] > 0]
    x = np.arange(len(kept))
    for k, (name, colour) in enumerate(colours.items()):
        y = [np.nan if buckets.values[name][j] is None else buckets.values[name][j] for j in kept]
        # Each line is an SVG group named after the figure and the system's place in the table
        # below, so that pointing at a row picks its line out (report.js).
        axis.plot(x, y, marker="o", markersize=3, linewidth=1, color=colour, gid=f"{figure_id}-s{k}")
    axis.set_xticks(x, [buckets.labels[j] for j in kept], fontsize=8)
    axis.set_ylabel(buckets.quantity)
    # Fixed margins, no legend: the table below names each line by its colour.
    figure.subplots_adjust(left=0.1, right=0.98, top=0.96, bottom=0.12)
    return figures.svg(figure)


def _runs(
    tokens: Sequence[str], levels: Sequence[int], budget: int = FOLD_CHARS
) -> tuple[tuple[Run, ...], str]:
    """Tokens grouped by match level, up to ``budget`` characters; the rest as plain text.

    >>> _runs(["a", "b", "c", "dddd"], [1, 1, 0, 2], budget=6)
    ((Run(text='a b', level=1, kind='', was=''), Run(text='c', level=0, kind='', was='')), 'dddd')
    >>> _runs(["x" * 10, "y"], [0, 0], budget=4)  # one token longer than the budget is cut too
    ((Run(text='xxxx', level=0, kind='', was=''),), 'xxxxxx y')
    """
    runs: list[Run] = []
    used = 0
    for k, (token, level) in enumerate(zip(tokens, levels, strict=True)):
        if used + len(token) > budget:
            if runs:
                return tuple(runs), " ".join(tokens[k:])
            return (Run(token[:budget], level),), " ".join([token[budget:], *tokens[k + 1 :]])
        used += len(token) + 1
        if runs and runs[-1].level == level:
            runs[-1] = Run(f"{runs[-1].text} {token}", level)
        else:
            runs.append(Run(token, level))
    return tuple(runs), ""


def _worst(
    stats: Stats[Any, Any], systems: Sequence[str], refs: Sequence[Sequence[str]]
) -> tuple[NDArray[np.float64], tuple[Segment, ...], str]:
    """Sentence scores, the worst segments by the metric's declared direction (the highest TER,
    the lowest BLEU), and what those score."""
    sentence = stats.sentence_scores()
    higher = stats.config.higher_is_better
    order = np.argsort(sentence if higher else -sentence, kind="stable")[:WORST_SEGMENTS]
    worst = tuple(Segment(int(i) + 1, float(sentence[i]), systems[i], refs[0][i]) for i in order)
    return sentence, worst, "lowest" if higher else "highest"


def _system_views(
    names: Sequence[str],
    systems: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    first: list[Stats[Any, Any]],
    bleu: list[Stats[Any, Any]] | None,
    metric: str,
    others: Sequence[list[Stats[Any, Any]]] = (),
) -> tuple[SystemView, ...]:
    views = []
    for k, name in enumerate(names):
        sentence, worst, worst_are = _worst(first[k], systems[k], refs)
        histogram = _histogram_svg(sentence, metric, first[k].config)
        score = bleu[k].score() if bleu is not None else None
        extra = []
        for per_system in others:
            config = per_system[k].config
            scores, their_worst, are = _worst(per_system[k], systems[k], refs)
            svg = _histogram_svg(scores, config.name, config)
            extra.append(MetricView(config.name, config.decimals(1), svg, their_worst, are))
        views.append(SystemView(name, score, histogram, worst, worst_are, tuple(extra)))
    return tuple(views)


def _analysis_bleu(metrics: Sequence[MetricObject]) -> BLEU:
    """The BLEU whose tokenization the word and n-gram analyses use: the report's, else the default."""
    return next((m for m in metrics if isinstance(m, BLEU)), None) or BLEU()


def _pair_view(
    bleu: BLEU,
    names: Sequence[str],
    pair: tuple[int, int],
    systems: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    stats: list[Stats[Any, Any]],
    metric: str,
    seed: int,
    scored: Sequence[MetricObject] = (),
) -> PairView:
    """Two systems side by side. Where the diff's metric is WER or CER among the ``scored``
    metrics, each hypothesis is shown aligned with its reference, else BLEU's matched n-grams
    are shaded; the first metric that marks error spans (xCOMET) has them listed under each
    hypothesis, by severity."""
    aligner = next((m for m in scored if isinstance(m, WER) and m.config.name == metric), None)
    marking = [(m.name, spans) for m in scored if (spans := error_spans(m)) is not None]
    marker, spans = marking[0] if marking else ("", {})
    a, b = pair
    # The core releases the GIL: the two systems are counted side by side.
    with ThreadPoolExecutor(2) as pool:
        counts_a, counts_b = pool.map(lambda k: bleu.ngram_matches(systems[k], refs), pair)
    better_a, better_b = ngram_differences(counts_a, counts_b)
    scores_a, scores_b = (stats[k].sentence_scores() for k in pair)
    shown, chosen = diff_segments(scores_a, scores_b, stats[0].higher_is_better, DIFF_ROWS, seed)
    picked_refs = [[stream[i] for i in shown] for stream in refs]
    if aligner is None:
        tokens_a, tokens_b = (bleu.matched_tokens([systems[k][i] for i in shown], picked_refs) for k in pair)
        shown_a, shown_b = ([_runs(*tokens) for tokens in side] for side in (tokens_a, tokens_b))
    else:
        aligned = (aligner.alignments([systems[k][i] for i in shown], picked_refs) for k in pair)
        shown_a, shown_b = ([edit_runs(alignment) for alignment in side] for side in aligned)
    marks = [spans.get(names[k], [()] * len(refs[0])) for k in pair]
    rows = []
    for j, i in enumerate(shown):
        runs_a, rest_a = shown_a[j]
        runs_b, rest_b = shown_b[j]
        scores = float(scores_a[i]), float(scores_b[i])
        row = DiffRow(i + 1, *scores, runs_a, rest_a, runs_b, rest_b, refs[0][i])
        rows.append(replace(row, marks_a=tuple(marks[0][i]), marks_b=tuple(marks[1][i])))
    cut = max(FOLD_CHARS, min(CUT_CHARS, DIFF_CHARS // max(1, 3 * len(rows))))
    max_order = bleu.config.max_ngram_order
    return PairView(
        names[a],
        names[b],
        metric,
        better_a,
        better_b,
        tuple(rows),
        max_order,
        len(refs[0]),
        chosen,
        cut,
        aligner is not None,
        marker if spans else "",
    )


def diff_segments(
    scores_a: NDArray[np.floating[Any]],
    scores_b: NDArray[np.floating[Any]],
    higher_is_better: bool,
    limit: int,
    seed: int,
) -> tuple[list[int], str]:
    """The segments (0-based, in order) a diff of at most ``limit`` rows shows, and how they were
    chosen: all of them when they fit; else half with the largest score differences, an eighth
    each with A's and B's worst scores, and a seeded random sample of the rest.

    >>> diff_segments(np.array([1.0, 5.0, 2.0, 9.0]), np.array([1.0, 1.0, 2.0, 0.0]), True, 8, 1)
    ([0, 1, 2, 3], '')
    >>> shown, how = diff_segments(np.arange(100.0), np.zeros(100), True, 8, 1)
    >>> shown[-4:], how.split(":")[0]
    ([96, 97, 98, 99], '8 of 100 segments')
    """
    n = len(scores_a)
    if n <= limit:
        return list(range(n)), ""
    sign = 1.0 if higher_is_better else -1.0
    order = np.arange(n)
    picks: dict[int, None] = {}
    # Stable sorts: ties go to the earlier segment, so the choice is the same on every run.
    for ranked, share in (
        (np.argsort(-np.abs(scores_a - scores_b), kind="stable"), limit // 2),
        (np.argsort(sign * scores_a, kind="stable"), limit // 8),
        (np.argsort(sign * scores_b, kind="stable"), limit // 8),
        (np.random.default_rng(seed).permutation(order), limit),
    ):
        added = 0
        for i in ranked:
            if len(picks) >= limit or added >= share:
                break
            if int(i) not in picks:
                picks[int(i)] = None
                added += 1
    chosen = (
        f"{limit} of {n} segments: the {limit // 2} with the largest differences, the {limit // 8} worst"
        f" of each system, and a random sample (seeded) of the rest; {n - limit} are left out"
    )
    return sorted(picks), chosen


def build(
    metrics: Sequence[MetricObject],
    names: Sequence[str],
    systems: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    command: str,
    n: int = 1000,
    seed: int = 12345,
    title: str = "Translation quality report",
    pair: tuple[int, int] | None = None,
    human: HumanInputs | None = None,
    progress: Callable[[int, int], None] | None = None,
    given: Sequence[MetricObject] = (),
    keep: Callable[[dict[str, list[Stats[Any, Any]]]], object] | None = None,
    extras: Sequence[tuple[str, str]] = (),
    layout: Layout | None = None,
) -> Report:
    """The report of ``systems`` (named ``names``) against reference streams ``refs`` by every
    metric object of ``metrics``, then of ``given`` (as :func:`~understudy.execution.asked.metrics_asked`
    builds them); the first ranks the page, and each that reads no text has its own histograms.
    ``pair``: the two systems (indices) of the diff, by default the two best by the first metric.
    ``human``: a human score file's scores (:class:`~understudy.report.human.HumanInputs`).
    ``progress`` is told ``(steps done, steps)`` after each step; ``keep``, every metric's
    statistics by its name once computed (to log them); ``extras``, signature keys of what was
    done to the inputs (``reseg``, ``gran``); ``layout``, the segments' documents and the cut
    systems' origins (the diff's document view and cut points).

    >>> from understudy import BLEU, GivenScores
    >>> comet = GivenScores({"A": [0.9, 0.8], "B": [0.4, 0.7]}, "COMET-22")
    >>> systems, refs = [["the cat sat", "a dog"], ["the cat", "a dog ran"]], [["the cat sat", "a dog ran"]]
    >>> report = build([BLEU(), comet], ["A", "B"], systems, refs, "understudy report", n=10)
    >>> [r.signature.config.name for r in report.rankings], [v.metric for v in report.systems[0].others]
    (['BLEU', 'COMET-22'], ['COMET-22'])
    """
    scored = [*metrics, *given]
    tell = steps.step_counter(len(scored) + 2 + (len(names) > 1) + (human is not None), progress)
    per_metric, others = _statistics(scored, names, systems, refs, keep)
    rankings = [steps.ranked(stats, names, n, seed, tell, extras) for stats in per_metric.values()]
    first = next(iter(per_metric))
    sentences = [s.for_sentences() for s in per_metric[first]]  # as `score -sl`: Stats.for_sentences
    bleu = _analysis_bleu(scored)
    views = _system_views(names, systems, refs, sentences, per_metric.get("BLEU"), first, others)
    tell()
    order = [system.name for system in rankings[0].ranking]
    colours = figures.colours(order)
    analyses = _analyses(bleu, per_metric, [sentences, *others], names, systems, refs, colours)
    tell()
    pair_view = None
    if len(names) > 1:
        best = pair or (names.index(order[0]), names.index(order[1]))
        diff = _pair_view(bleu, names, best, systems, refs, sentences, first, seed, scored)
        pair_view = with_layout(diff, layout, [per_metric[first][k] for k in best])
        tell()
    human_view, short, summary = _overview(rankings, per_metric, names, human, (n, seed, tell))
    views, pair_view = with_human_segments(views, pair_view, names, human.segments if human else None)
    return Report(
        title, command, tuple(rankings), views, bands=BANDS, analyses=analyses, colours=colours,
        pair=pair_view, human=human_view, overview=summary, short=short,
    )  # fmt: skip


def _overview(
    rankings: Sequence[AllPairsResult],
    per_metric: dict[str, list[Stats[Any, Any]]],
    names: Sequence[str],
    human: HumanInputs | None,
    how: tuple[int, int, Callable[[], None]],
) -> tuple[HumanView | None, dict[str, str], Overview]:
    """The metrics against the human scores (if any; ``how``: resamples, seed, and the step to
    tell when done), each system's short name, and the page's overview of the rankings."""
    n, seed, tell = how
    human_view = None
    if human is not None:
        human_view = report_human(per_metric, names, human, n, seed)
        tell()
    short = dict(zip(names, short_names(names), strict=True))
    by_name = None if human is None else dict(zip(names, human.scores, strict=True))
    summary = overview(rankings, short, by_name, human.source if human else "", figures.svg, figures.pyplot())
    return human_view, short, summary


def _statistics(
    metrics: Sequence[MetricObject],
    names: Sequence[str],
    systems: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    keep: Callable[[dict[str, list[Stats[Any, Any]]]], object] | None = None,
) -> tuple[dict[str, list[Stats[Any, Any]]], list[list[Stats[Any, Any]]]]:
    """Every metric's statistics of every system, by the metric's name (given to ``keep`` too);
    and those of the metrics that read no text (their scores given or computed once) alone."""
    if len({m.name for m in metrics}) != len(metrics):
        raise ConfigError(
            f"two metrics of the report have the same name: {', '.join(m.name for m in metrics)}"
        )
    evaluation = Evaluation(dict(zip(names, systems, strict=True)), refs)
    per_metric = {m.name: evaluation.statistics(m) for m in metrics}
    others = [per_metric[m.name] for m in metrics if not m.inputs()]
    if keep is not None:
        keep(per_metric)
    return per_metric, others


def _analyses(
    bleu: BLEU,
    per_metric: dict[str, list[Stats[Any, Any]]],
    sentences: Sequence[list[Stats[Any, Any]]],
    names: Sequence[str],
    systems: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    colours: dict[str, str],
) -> tuple[AnalysisView, ...]:
    """compare-mt's analyses of every system: each metric by reference length (corpus scores of
    each bucket), segments by sentence score of the first metric (as ``score -sl`` scores them)
    and of each given one (``sentences``), word F-measure by the words' frequency in the references."""
    lengths = reference_lengths(bleu, refs)
    tables = [by_reference_length(per_metric[m], names, lengths) for m in per_metric]
    tables += [by_sentence_score(stats, names) for stats in sentences]
    words = BLEU.from_config(replace(bleu.config, max_ngram_order=1), threads=1)
    tables.append(by_word_frequency([words.ngram_matches(hyps, refs) for hyps in systems], names))
    return tuple(AnalysisView(t, _buckets_svg(t, colours, f"b{k}")) for k, t in enumerate(tables))
