"""A correlation as ``understudy correlate`` prints it: the statistics with what they rest on,
the systems' scores, the comparisons, WMT24's notes and clusters, the BLEU paper's analyses and
the signatures.

>>> from understudy.correlation import correlate
>>> result = correlate({"m": [1.0, 2.0, 4.0]}, [1.0, 3.0, 4.0], ["a", "b", "c"], n_bootstrap=0,
...                    statistics=["pearson"])
>>> print("\\n".join(text(result, ["pearson"], 2, "h.tsv").splitlines()[:4]))
System-level correlation with h.tsv (3 systems; 95% intervals from 0 bootstrap resamples of them)
<BLANKLINE>
Metric  pearson
------  -------
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from understudy.correlation import Comparison, Correlation, CorrelationResult, unscored_notes
from understudy.correlation.meta_evaluation import classic, clusters_record, rank_columns
from understudy.correlation.paper import EVERY_SUBSET_UP_TO
from understudy.files.tables import Table, text_table

if TYPE_CHECKING:
    from understudy.correlation.perm_both import Clusters


@dataclass(frozen=True)
class Extras:
    """What a correlation's text shows beside its statistics: the metrics' directions, the
    comparisons of pairs of metrics, what the human file scores unscored here, the paper's
    analyses (:func:`understudy.correlation.paper.analyses`) and WMT24's clusters."""

    higher: Mapping[str, bool] = field(default_factory=dict)
    comparisons: Sequence[Comparison] = ()
    unscored: Mapping[str, float] = field(default_factory=dict)
    paper: Mapping[str, Any] | None = None
    clusters: Sequence[Clusters] = ()


def rows(
    result: CorrelationResult, statistics: Sequence[str], width: int, without: bool = False
) -> list[list[str]]:
    """Each metric's row: each statistic with its interval (``-`` where not computed)."""
    chosen = result.without_outliers if without else result.correlations
    listed = []
    for metric in result.scores:
        found = {c.statistic: c for c in chosen if c.metric == metric}
        listed.append([metric, *(found[s].format(width) if s in found else "-" for s in statistics)])
    return listed


def text(
    result: CorrelationResult,
    statistics: Sequence[str],
    width: int,
    human_name: str,
    extras: Extras | None = None,
) -> str:
    """The text form of ``result``'s ``statistics`` against the human scores of ``human_name``,
    numbers to ``width`` decimals."""
    extras, w = extras or Extras(), width
    header = ["Metric", *statistics]
    level = "System" if result.level == "system" else "Segment"
    count = f"{len(result.items)} {result.level}s"
    unit = "them" if f"resample:{result.level}s" in result.signature else "the segments, systems rescored"
    intervals = (
        f"; 95% intervals from {result.n_bootstrap} bootstrap resamples of {unit}"
        if classic(list(statistics))
        else ""
    )
    lines = [
        f"{level}-level correlation with {human_name} ({count}{intervals})",
        "",
        text_table(header, rows(result, statistics, w)),
    ]
    negated = [m for m in result.scores if not extras.higher.get(m, True)]
    if negated:
        lines.append(f"({', '.join(negated)} negated before correlating: lower is better)")
    lines += note_lines(list(result.correlations), w) + cluster_lines(extras.clusters, w)
    if result.outliers:
        lines += [
            "",
            f"Far from the other human scores: {', '.join(result.outliers)}; without "
            f"{'them' if len(result.outliers) > 1 else 'it'}:",
            text_table(header, rows(result, statistics, w, without=True)),
        ]
    lines += system_lines(result, extras.unscored, w)
    lines += [
        f"{c.a} vs {c.b}: {c.statistic} differs by {c.difference:+.{w}f}, "
        f"p = {c.p_value:.4f} ({c.n} permutations)"
        for c in extras.comparisons
    ]
    if extras.paper is not None:
        lines += paper_lines(extras.paper, result, w)
    lines += ["", f"Signature: {result.signature}"]
    lines += [f"{m} signature: {s}" for m, s in result.metric_signatures.items()]
    return "\n".join(lines)


def table(
    result: CorrelationResult,
    statistics: Sequence[str],
    width: int,
    human_name: str,
    extras: Extras,
    as_text: bool = True,
) -> Table:
    """``result`` as the one table every format renders: the text above (``as_text``), CSV rows
    of each statistic with its interval (and WMT24's ranks), the JSON record with the
    comparisons, clusters, unscored systems and the paper's analyses.

    >>> from understudy.correlation import correlate
    >>> result = correlate({"m": [1.0, 2.0, 4.0]}, [1.0, 3.0, 4.0], ["a", "b", "c"], n_bootstrap=0,
    ...                    statistics=["pearson"])
    >>> table(result, ["pearson"], 2, "h.tsv", Extras()).csv_header
    ['metric', 'pearson', 'pearson_low', 'pearson_high', 'signature']
    """
    w, stats = width, list(statistics)
    record = result.to_dict()
    record["comparisons"] = [c.to_dict() for c in extras.comparisons]
    if extras.clusters:
        record["clusters"] = clusters_record(list(extras.clusters))
    record["unscored_in_human_file"] = dict(extras.unscored)
    if extras.paper is not None:
        record["paper"] = extras.paper
    ranks = rank_columns(list(extras.clusters))
    header = ["Metric", *stats, *(f"{name} rank" for name in ranks)]
    body = [[*row, *(str(r.get(row[0], "-")) for r in ranks.values())] for row in rows(result, stats, w)]
    intervals = (f"{s}{part}" for s in stats for part in ("", "_low", "_high"))
    return Table(
        header,
        body,
        notes=[result.signature],
        csv_header=["metric", *intervals, *(f"{name}_rank" for name in ranks), "signature"],
        csv_rows=[
            [*row[:-1], *(r.get(metric, "") for r in ranks.values()), row[-1]]
            for metric, row in ((m, _csv_row(result, m, stats)) for m in result.scores)
        ],
        record=record,
        text=text(result, stats, w, human_name, extras) if as_text else None,
    )


def _csv_row(result: CorrelationResult, metric: str, stats: list[str]) -> list[Any]:
    """A metric's CSV row: each statistic with its interval, and the metric's signature."""
    cells: list[Any] = [metric]
    for s in stats:
        c = result.get(metric, s)
        cells += [c.value, c.low, c.high]
    return [*cells, result.metric_signatures.get(metric, result.signature)]


def system_lines(result: CorrelationResult, unscored: Mapping[str, float], w: int) -> list[str]:
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


def cluster_lines(found: Sequence[Clusters], w: int) -> list[str]:
    """Each statistic's ranking with WMT's significance clusters."""
    lines = []
    for c in found:
        table_rows = [[str(r), m, f"{v:.{w}f}"] for m, v, r in zip(c.metrics, c.values, c.ranks, strict=True)]
        lines += [
            "",
            f"Significance clusters by {c.statistic} (average by {c.average_by}; "
            f"{'pairs test' if c.test == 'pairs' else 'PERM-BOTH'}, alpha {c.alpha}, seed {c.seed}; "
            "rank 1 is the top cluster):",
            text_table(["Rank", "Metric", c.statistic], table_rows),
        ]
    return lines


def note_lines(found: Sequence[Correlation], w: int) -> list[str]:
    """What WMT24's statistics rest on: SPA's permutations, acc-eq's thresholds."""
    lines = []
    spa = next((c for c in found if c.statistic in ("spa", "spa-corpus")), None)
    if spa is not None:
        extra = spa.extra
        lines.append(
            f"SPA: soft pairwise accuracy (Thompson et al. 2024) over {extra['segments']} segments rated "
            f"for every system, {extra['permutations']} permutations, seed {extra['seed']}; spa-corpus: "
            "each pair's metric p-value from the corpus metric on permuted statistics rows"
        )
    tied = [c for c in found if c.statistic == "acc-eq"]
    if tied:
        listed = ", ".join(f"{c.metric} {c.extra['threshold']:.{w}g}" for c in tied)
        by = tied[0].extra["average_by"]
        lines.append(
            f"acc-eq: tie-calibrated pairwise accuracy by {by} (Deutsch et al. 2023); thresholds: {listed}"
        )
    return lines


def paper_lines(paper: Mapping[str, Any], result: CorrelationResult, w: int) -> list[str]:
    """The BLEU paper's analyses: regressions, the range-normalized table, adjacent systems'
    differences, the reference subsets."""
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
        table_rows = [[n, *(f"{table[c][k]:.{w}f}" for c in table)] for k, n in enumerate(result.items)]
        table_rows.sort(key=lambda r: -float(r[1]))
        lines += ["", "  Range-normalized (each column scaled to 0..1, as the paper's Figure 7):"]
        lines += ["  " + line for line in text_table(["System", *table], table_rows).splitlines()]
    for d in paper.get("adjacent_differences", []):
        mark = "" if d["low"] <= 0 <= d["high"] else " *"
        lines.append(
            f"  {d['higher']} over {d['lower']}: {d['mean']:+.{w}f} [{d['low']:+.{w}f}, {d['high']:+.{w}f}] "
            f"on {d['segments']} segments{mark}"
        )
    return lines + _subset_lines(paper.get("reference_subsets"), w)


def _subset_lines(subsets: Mapping[str, Any] | None, w: int) -> list[str]:
    if not subsets:
        return []
    names = subsets["names"]
    lines = [f"  {subsets['statistic']} with each subset of the references (k: the mean over k of them):"]
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


__all__ = ["Extras", "cluster_lines", "note_lines", "paper_lines", "rows", "system_lines", "table", "text"]
