"""The report from what a ledger keeps: a run's records reported without its text, and the
history of systems or tags over time.

Kept statistics rebuild every ranking, interval, cluster and p-value exactly; the sections that
show text (worst segments, buckets, n-gram differences, the diff) need the files and are left
out, and the page says so (:data:`NEEDS_TEXT`).

>>> from understudy import BLEU
>>> from understudy.ledger import Ledger
>>> refs = [["the cat sat on the mat", "a dog barked", "it is raining"] * 4]
>>> ledger = Ledger(":memory:")
>>> for name, hyps in (("a", ["the cat sat", "a dog barked", "rain"]), ("b", refs[0][:3])):
...     _ = ledger.append(BLEU().segment_stats(hyps * 4, refs), name, "toy", tags=["run"])
>>> per_metric, names = kept_statistics(ledger, ["tag:run"])
>>> names, [len(stats) for stats in per_metric.values()]
(['a', 'b'], [2])
>>> report = build_from_stats(per_metric, names, "understudy report --records tag:run", n=100)
>>> [s.name for s in report.rankings[0].ranking], report.systems, len(report.without_text)
(['b', 'a'], (), 3)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from understudy.errors import LedgerError
from understudy.ledger import HistoryPoint, Ledger, Record
from understudy.stats import Stats

NEEDS_TEXT = (
    "per system: BLEU's n-gram precisions, the histograms of sentence scores and the worst segments",
    "the buckets (compare-mt's analyses)",
    "the n-grams one system matches more often, and the segment-by-segment diff",
)
"""The sections a report of kept statistics leaves out: they show or count the text."""


@dataclass(frozen=True)
class HistoryView:
    """The history section: its figure (inline SVG) and a row per record of each line."""

    svg: str
    rows: tuple[tuple[str, HistoryPoint], ...]
    """``(line, point)``: the system or ``tag:NAME`` a line follows, and one of its records."""
    n: int
    """The bootstrap resamples of each interval."""


def history_view(lines: Mapping[str, Sequence[HistoryPoint]], n: int) -> HistoryView:
    """The history section of ``lines`` (from :meth:`Ledger.history`, by line name)."""
    from understudy.ledger.plot import history_figure
    from understudy.report import figures

    figures.pyplot()  # the report's plot settings (text as SVG text, a fixed salt)
    rows = tuple((line, point) for line, points in lines.items() for point in points)
    return HistoryView(figures.svg(history_figure(lines)), rows, n)


def kept_statistics(
    ledger: Ledger, which: Sequence[str]
) -> tuple[dict[str, list[Stats[Any, Any]]], list[str]]:
    """The statistics of the records ``which`` names (ids, or ``tag:NAME`` for the latest record
    of each system and metric with that tag), by metric name then system; and the systems' names.

    Every metric must have one record of every system, and its records must be comparable."""
    records = _named_records(ledger, which)
    names = list(dict.fromkeys(r.system for r in records))
    by_metric: dict[str, dict[str, Record]] = {}
    for record in records:
        mine = by_metric.setdefault(record.metric, {})
        if record.system in mine:
            raise LedgerError(
                f"records {mine[record.system].id} and {record.id} are both {record.system}'s "
                f"{record.metric}: name one record per system and metric"
            )
        mine[record.system] = record
    per_metric = {}
    for metric, mine in by_metric.items():
        missing = [name for name in names if name not in mine]
        if missing:
            raise LedgerError(f"no {metric} record of {', '.join(missing)} among the records named")
        first = mine[names[0]].id
        for name in names[1:]:
            ledger.check_comparable(first, mine[name].id)
        stats = [ledger.stats(mine[name].id) for name in names]
        per_metric[stats[0].config.name] = stats
    return per_metric, names


def _named_records(ledger: Ledger, which: Sequence[str]) -> list[Record]:
    records: dict[int, Record] = {}
    for name in which:
        if name.startswith("tag:"):
            latest = {(r.system, r.metric): r for r in ledger.records(tag=name[4:])}
            if not latest:
                raise LedgerError(f"{name}: no record of the ledger {ledger.location} has this tag")
            records |= {r.id: r for r in latest.values()}
        elif name.isascii() and name.isdigit():
            records[int(name)] = ledger.get(int(name))
        else:
            raise LedgerError(f"{name}: a record is named by its id or as tag:NAME")
    return list(records.values())


def build_from_stats(
    per_metric: Mapping[str, Sequence[Stats[Any, Any]]],
    names: Sequence[str],
    command: str,
    n: int = 1000,
    seed: int = 12345,
    title: str = "Translation quality report",
    progress: Callable[[int, int], None] | None = None,
) -> Any:
    """The :class:`~understudy.report.Report` of kept statistics (``per_metric[metric][k]`` of
    system ``names[k]``): rankings, intervals, clusters and p-values, without the text."""
    from understudy.report import BANDS, Report, figures, steps
    from understudy.report.names import short_names
    from understudy.report.overview import overview

    tell = steps.step_counter(len(per_metric), progress)
    rankings = [steps.ranked(list(stats), names, n, seed, tell) for stats in per_metric.values()]
    short = dict(zip(names, short_names(names), strict=True))
    summary = overview(rankings, short, None, "", figures.svg, figures.pyplot())
    colours = figures.colours([system.name for system in rankings[0].ranking])
    return Report(
        title, command, tuple(rankings), (), bands=BANDS, colours=colours, overview=summary, short=short,
        without_text=NEEDS_TEXT,
    )  # fmt: skip


__all__ = ["NEEDS_TEXT", "HistoryView", "build_from_stats", "history_view", "kept_statistics"]
