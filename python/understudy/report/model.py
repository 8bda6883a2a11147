"""What the report's page shows, as data: each section a frozen dataclass the template reads,
and the limits that keep the page a few megabytes at any corpus size."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from understudy._version import __version__
from understudy.report.analysis import Buckets, NgramDifference
from understudy.report.bands import CAVEATS
from understudy.report.edits import Run
from understudy.report.overview import Overview
from understudy.significance import AllPairsResult

if TYPE_CHECKING:
    from understudy.correlation import CorrelationResult
    from understudy.metrics.bleu import BLEUResult
    from understudy.report.kept import HistoryView

WORST_SEGMENTS = 5
CUT_CHARS = 20_000
"""Of a folded segment, at most this much is in the page (the rest is counted, not shown)."""
DIFF_ROWS = 1000
"""Segments the two-system diff shows at most: beyond, a chosen set (see :func:`diff_segments`),
so that the page stays a few megabytes and opens in a browser at any corpus size."""
DIFF_CHARS = 3_000_000
"""Characters of text the diff holds at most: each folded cell is cut shorter when rows are many."""


@dataclass(frozen=True)
class Segment:
    """One segment as the report shows it."""

    number: int
    score: float
    hypothesis: str
    reference: str
    human: float | None = None
    """The segment's human score, where the human file has segment scores."""


@dataclass(frozen=True)
class MetricView:
    """One system's sentence scores by one more metric (given scores): histogram, worst segments."""

    metric: str
    decimals: int
    histogram_svg: str
    worst: tuple[Segment, ...]
    worst_are: str


@dataclass(frozen=True)
class SystemView:
    """One system's view: BLEU's precisions and brevity penalty, the histogram, worst segments."""

    name: str
    bleu: BLEUResult | None
    histogram_svg: str
    worst: tuple[Segment, ...]
    worst_are: str = "lowest"
    """``lowest`` (or ``highest``, for a metric where lower is better): what the worst segments score."""
    others: tuple[MetricView, ...] = ()
    """The same of each given metric (``--scores``)."""


@dataclass(frozen=True)
class AnalysisView:
    """A bucketed analysis: its table and its plot."""

    buckets: Buckets
    svg: str


@dataclass(frozen=True)
class DiffRow:
    """One segment of the two-system diff; ``rest_*`` is what is folded away."""

    number: int
    score_a: float
    score_b: float
    runs_a: tuple[Run, ...]
    rest_a: str
    runs_b: tuple[Run, ...]
    rest_b: str
    reference: str
    human_a: float | None = None
    human_b: float | None = None
    marks_a: tuple[tuple[str, str], ...] = ()
    marks_b: tuple[tuple[str, str], ...] = ()
    """A metric's error spans in each hypothesis, ``(severity, text)`` (xCOMET's)."""
    document: int = -1
    """The segment's document (an index into :attr:`PairView.documents`; -1: none known)."""
    origin_a: str = ""
    origin_b: str = ""
    """Where a cut system's segment came from in its file as given (``--resegment``)."""


@dataclass(frozen=True)
class DocumentView:
    """One document of the diff: its id, its segments (the first's number, how many), and each
    system's score of the document (its segments' statistics together)."""

    name: str
    first: int
    size: int
    score_a: float
    score_b: float


@dataclass(frozen=True)
class PairView:
    """Two systems side by side: the n-grams each matches more often, and every segment."""

    a: str
    b: str
    metric: str
    better_a: tuple[NgramDifference, ...]
    better_b: tuple[NgramDifference, ...]
    rows: tuple[DiffRow, ...]
    max_order: int
    total: int = 0
    """Segments in the corpus (``len(rows)`` when the diff shows them all)."""
    chosen: str = ""
    """How the shown segments were chosen, when they are not all of them."""
    cut: int = CUT_CHARS
    """Of a folded cell, at most this many characters are in the page."""
    aligned: bool = False
    """Whether the hypotheses show WER's alignment (else BLEU's matched n-grams)."""
    marked_by: str = ""
    """The metric whose error spans the rows mark (xCOMET's), if any."""
    documents: tuple[DocumentView, ...] = ()
    """The documents the rows belong to, where known (the rows are then grouped under them)."""


@dataclass(frozen=True)
class HumanView:
    """Metric scores against human scores (``understudy.correlation``), with the regression plot;
    ``negated``: the metrics correlated with their sign flipped (lower is better); ``notes``: what the
    command line says of what the human file scores beyond these systems."""

    result: CorrelationResult
    svg: str
    source: str
    negated: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Report:
    """Everything the template shows."""

    title: str
    command: str
    rankings: tuple[AllPairsResult, ...]
    systems: tuple[SystemView, ...]
    version: str = f"understudy-{__version__}"
    caveats: tuple[str, ...] = CAVEATS
    bands: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    analyses: tuple[AnalysisView, ...] = ()
    colours: dict[str, str] = field(default_factory=dict)
    pair: PairView | None = None
    human: HumanView | None = None
    overview: Overview | None = None
    short: dict[str, str] = field(default_factory=dict)
    """Each system's short name (what the paths share cut away); the full name is a tooltip."""
    history: HistoryView | None = None
    """Kept records over time (``report --history``)."""
    without_text: tuple[str, ...] = ()
    """The sections left out of a report made from kept statistics alone (they need the text)."""
