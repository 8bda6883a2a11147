"""The ledger's history as a figure: scores over time with their 95% intervals, one panel per
metric and one line per system or tag. Needs matplotlib (extra ``plot``).

>>> from understudy import BLEU
>>> from understudy.ledger import Ledger
>>> ledger = Ledger(":memory:")
>>> refs = [["the cat sat on the mat", "a dog barked"]]
>>> for hyps in (["the cat sat on a mat", "a dog barked"], refs[0]):
...     _ = ledger.append(BLEU().segment_stats(hyps, refs), "ckpt", "toy", tags=["run-1"])
>>> figure = history_figure({"tag:run-1": ledger.history(tag="run-1", n=100)})
>>> (axis,) = figure.axes
>>> axis.get_title(), axis.get_legend_handles_labels()[1]
('BLEU', ['tag:run-1'])
>>> [round(float(y), 2) for y in axis.containers[0].lines[0].get_ydata()]  # sacrebleu: 59.69, 100.00
[59.69, 100.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from os import PathLike
from typing import Any

from understudy.ledger import HistoryPoint
from understudy.metrics import FAMILIES


def history_figure(lines: Mapping[str, Sequence[HistoryPoint]]) -> Any:
    """A matplotlib figure of each line's records (its name: the system or ``tag:NAME`` it
    follows): the score at the time it was kept, with the bootstrap interval (±), one panel per
    metric."""
    import matplotlib.dates as mdates

    from understudy.correlation.plot import pyplot

    plt = pyplot()
    metrics = list(dict.fromkeys(p.record.metric for points in lines.values() for p in points))
    figure, axes = plt.subplots(len(metrics) or 1, 1, figsize=(7, 2.6 * max(1, len(metrics))), squeeze=False)
    for axis, metric in zip(axes[:, 0], metrics, strict=False):
        for label, mine in _series(lines, metric):
            when = [datetime.fromisoformat(p.record.created) for p in mine]
            scores = [p.record.score for p in mine]
            axis.errorbar(when, scores, yerr=[p.ci for p in mine], marker="o", capsize=3, label=label)
        family = FAMILIES.get(metric)
        axis.set_title(family.config.title if family else metric)
        axis.set_ylabel("score (95% CI)")
        axis.legend(fontsize=7)
        # Dates and times as a reader writes them (26 Nov, 14:05), never microseconds.
        locator = mdates.AutoDateLocator(minticks=3, maxticks=8)  # type: ignore[no-untyped-call]
        axis.xaxis.set_major_locator(locator)
        axis.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    axes[-1, 0].set_xlabel("kept at (UTC)")
    return figure


def _series(lines: Mapping[str, Sequence[HistoryPoint]], metric: str) -> list[tuple[str, list[HistoryPoint]]]:
    """Each line's points of ``metric``. A tag whose systems recur (two systems each kept over
    time) draws a line per system (``tag:run-7: sys-A``), never one line zigzagging through all;
    a tag of one record per system (a run's checkpoints, each named anew) stays one line."""
    series = []
    for name, points in lines.items():
        mine = [p for p in points if p.record.metric == metric]
        systems = [p.record.system for p in mine]
        if len(set(systems)) == len(systems) or len(set(systems)) == 1:
            series += [(name, mine)] if mine else []
            continue
        for system in dict.fromkeys(systems):
            series.append((f"{name}: {system}", [p for p in mine if p.record.system == system]))
    return series


def history_plot(lines: Mapping[str, Sequence[HistoryPoint]], path: str | PathLike[str]) -> None:
    """Write :func:`history_figure` to ``path`` (``.png`` or ``.svg``)."""
    from understudy.correlation.plot import checked_path, pyplot, save

    target, kind = checked_path(path)
    save(history_figure(lines), pyplot(), target, kind)


__all__ = ["history_figure", "history_plot"]
