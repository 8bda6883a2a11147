"""The diff's document view and cut points: where each segment's document is known, the diff
groups its rows under their documents, each with its own score for both systems (the metric's
score of the document's segments together); where a system was cut into the reference's
segments (``--resegment``), each of its rows says which lines of the file as given its words came
from, so that a cut inside a line shows.

>>> origin_text(((3, 8, 19, 19), (4, 1, 2, 30)))
'line 3 (words 8-19, to its end) + line 4 (words 1-2 of 30)'
>>> origin_text(((5, 1, 1, 7),))
'line 5 (word 1 of 7)'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from understudy.report.model import DocumentView, PairView
from understudy.segmentation import Origin, documents
from understudy.stats import Stats


@dataclass(frozen=True)
class Layout:
    """What the report knows of its segments beyond the text: each segment's document, and for
    each system that was cut, the origins of its segments (:func:`understudy.segmentation.origins`)."""

    documents: Sequence[str] | None = None
    origins: Mapping[str, Sequence[tuple[Origin, ...]]] = field(default_factory=dict)
    unit: str = "words"
    """What the origins count: ``words``, or ``characters`` (``--resegment-split chars``)."""


def origin_text(parts: tuple[Origin, ...], unit: str = "words") -> str:
    """A segment's origins in words: each line it came from, and which of the line's units."""
    shown = []
    for line, first, last, of in parts:
        if first == 1 and last == of:
            shown.append(f"line {line} (all {of} {unit})" if of > 1 else f"line {line}")
            continue
        which = f"{unit[:-1]} {first}" if first == last else f"{unit} {first}-{last}"
        shown.append(f"line {line} ({which}, to its end)" if last == of else f"line {line} ({which} of {of})")
    return " + ".join(shown) if shown else "no words"


def with_layout(
    pair: PairView | None, layout: Layout | None, stats: Sequence[Stats[Any, Any]]
) -> PairView | None:
    """The diff with its rows grouped by document (each document's score for A and B, from
    ``stats``, the two systems' statistics of the diff's metric) and its cut systems' origins."""
    if pair is None or layout is None:
        return pair
    rows = list(pair.rows)
    found_a, found_b = layout.origins.get(pair.a), layout.origins.get(pair.b)
    if found_a is not None:
        rows = [replace(r, origin_a=origin_text(found_a[r.number - 1], layout.unit)) for r in rows]
    if found_b is not None:
        rows = [replace(r, origin_b=origin_text(found_b[r.number - 1], layout.unit)) for r in rows]
    views: tuple[DocumentView, ...] = ()
    if layout.documents is not None:
        grouped = documents(layout.documents)
        starts = np.cumsum([0, *grouped.sizes])
        index = np.searchsorted(starts, [r.number - 1 for r in rows], side="right") - 1
        rows = [replace(r, document=int(k)) for r, k in zip(rows, index, strict=True)]
        views = tuple(
            DocumentView(
                name,
                int(starts[k]) + 1,
                size,
                *(float(s[int(starts[k]) : int(starts[k]) + size].score().score) for s in stats),
            )
            for k, (name, size) in enumerate(zip(grouped.names, grouped.sizes, strict=True))
        )
    return replace(pair, rows=tuple(rows), documents=views)


__all__ = ["Layout", "origin_text", "with_layout"]
