"""A system's history on a test set as small inline SVG plots: each of its signatures' scores in
the order they were kept, a point per record (its time, score and revision in the tooltip, a link
to its page); the candidates ``understudy gate --log`` kept are marked with its verdict.

The plots are drawn here, not with matplotlib: a site of 10,000 records draws thousands of them,
and a polyline of a few points needs no plotting library.

>>> from understudy.ledger import Record
>>> def kept(id, score, created):
...     return Record(id, created, "A", "bleu", "s", "t", "", score, 3, "", "", "")
>>> plot = history_plot([kept(1, 20.0, "2026-11-01T00:00"), kept(2, 30.0, "2026-11-03T00:00")], 2)
>>> [(p.x, p.y, p.label) for p in plot.points]
[(44.0, 64.0, '20.00'), (232.0, 8.0, '30.00')]
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from understudy.ledger import Record

WIDTH, HEIGHT, MARGIN, LEFT = 240.0, 72.0, 8.0, 44.0
"""A plot's size in pixels, the margin kept free around its points, and the room at the left
for the lowest and highest score's labels."""


@dataclass(frozen=True)
class Point:
    """A record in a plot: where it is drawn, its score as printed, and whether the gate kept it."""

    x: float
    y: float
    label: str
    record: Record
    gate: str
    """``pass`` or ``fail`` for a candidate the gate judged and kept (``gate --log``), else empty."""


@dataclass(frozen=True)
class Plot:
    """A series' points, the polyline through them, and the lowest and highest score shown."""

    points: list[Point]
    line: str
    low: str
    high: str


def history_plot(records: list[Record], decimals: int) -> Plot:
    """``records`` (one system's, one signature's, oldest first) as a plot: time across, score up
    (the lowest at the bottom, whichever way the metric is better)."""
    times = [datetime.fromisoformat(r.created).timestamp() for r in records]
    scores = [r.score for r in records]
    first, span = times[0], (times[-1] - times[0]) or 1.0
    low, high = min(scores), max(scores)
    rise = (high - low) or 1.0
    points = []
    for record, when, score in zip(records, times, scores, strict=True):
        x = LEFT + (WIDTH - LEFT - MARGIN) * ((when - first) / span if len(records) > 1 else 0.5)
        y = HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * ((score - low) / rise if high > low else 0.5)
        points.append(Point(round(x, 1), round(y, 1), f"{score:.{decimals}f}", record, gate_verdict(record)))
    line = " ".join(f"{p.x},{p.y}" for p in points)
    return Plot(points, line, f"{low:.{decimals}f}", f"{high:.{decimals}f}")


def kept_by_gate(record: Record) -> bool:
    """Whether ``understudy gate --log`` kept the record (the candidate a gate judged)."""
    return _words(record.command)[1:2] == ["gate"]


def gate_verdict(record: Record) -> str:
    """The gate's verdict on a candidate it kept, ``pass`` or ``fail``, from the tag ``gate --log``
    adds (``gate:pass``); empty for a record the gate did not keep.

    >>> from understudy.ledger import Record
    >>> command = "understudy gate r --baseline tag:release --candidate c --log"
    >>> gate_verdict(Record(1, "", "c", "bleu", "", "", "", 0.0, 1, command, "", "", tags=("gate:fail",)))
    'fail'
    """
    if not kept_by_gate(record):
        return ""
    return next((tag[5:] for tag in record.tags if tag in ("gate:pass", "gate:fail")), "")


def report_written(record: Record) -> str:
    """The report ``understudy report ... -o FILE --log`` wrote beside keeping the record, as its
    command names it; empty for a record kept otherwise.

    >>> from understudy.ledger import Record
    >>> command = "understudy report r -i A -o 'out/r 1.html' --log"
    >>> report_written(Record(1, "", "A", "bleu", "", "", "", 0.0, 1, command, "", ""))
    'out/r 1.html'
    """
    words = _words(record.command)
    if words[1:2] != ["report"]:
        return ""
    for k, word in enumerate(words[:-1]):
        if word in ("-o", "--output"):
            return words[k + 1]
        if word.startswith("--output="):
            return word.partition("=")[2]
    return ""


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:  # an unbalanced quote: not a command line this package kept
        return []


__all__ = ["Plot", "Point", "gate_verdict", "history_plot", "kept_by_gate", "report_written"]
