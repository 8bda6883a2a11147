"""One self-contained HTML report of systems scored against references: what the numbers say,
whether differences are real, and what BLEU cannot see.

:func:`build` computes nothing of its own: every number comes from the metrics'
statistics, :func:`understudy.significance.all_pairs` and the results' signatures;
:func:`render` fills the package's Jinja2 template (autoescaped: every system name,
file name and segment is text) and inlines the plots as SVG, so the file opens from
disk with nothing fetched. Needs the ``report`` extra (Jinja2 and matplotlib).
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from understudy._version import __version__
from understudy.errors import MissingExtraError
from understudy.metric import Metric
from understudy.result import BLEUResult
from understudy.significance import AllPairsResult, all_pairs
from understudy.stats import Stats

BLEU_BANDS = (
    (10.0, "Almost useless"),
    (20.0, "Hard to get the gist"),
    (30.0, "The gist is clear, but has significant grammatical errors"),
    (40.0, "Understandable to good translations"),
    (50.0, "High quality translations"),
    (60.0, "Very high quality, adequate, and fluent translations"),
    (float("inf"), "Quality often better than human"),
)
"""The cloud vendor's guide (seeds/003): a rough reading of BLEU percentages, upper bounds."""

CAVEATS = (
    "BLEU is a corpus metric: a band describes a test set's score, not any one sentence.",
    "Scores are comparable only on the same test set, references and tokenization (see each signature).",
    "BLEU counts n-gram overlap: it does not see meaning preserved in other words, nor fluency as such.",
)
"""The guide's warnings, shown beside the bands."""

WORST_SEGMENTS = 5
FOLD_CHARS = 400
"""Segments longer than this are shown folded (the page stays usable with 10 MB segments)."""


def interpretation(score: float) -> str:
    """The guide's band of a BLEU percentage.

    >>> interpretation(9.9), interpretation(35.0), interpretation(61.0)
    ('Almost useless', 'Understandable to good translations', 'Quality often better than human')
    """
    return next(text for bound, text in BLEU_BANDS if score < bound)


@dataclass(frozen=True)
class Segment:
    """One segment as the report shows it."""

    number: int
    score: float
    hypothesis: str
    reference: str


@dataclass(frozen=True)
class SystemView:
    """One system's view: BLEU's precisions and brevity penalty, the histogram, worst segments."""

    name: str
    bleu: BLEUResult | None
    histogram_svg: str
    worst: tuple[Segment, ...]


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


def _pyplot() -> Any:
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise MissingExtraError(
            "reports need matplotlib and Jinja2: pip install 'understudy[report]'"
        ) from None
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def _histogram_svg(scores: np.ndarray, name: str) -> str:
    plt = _pyplot()
    figure, axis = plt.subplots(figsize=(4.0, 2.2))
    axis.hist(scores, bins=20, range=(0, 100))
    axis.set_xlabel(f"sentence {name}")
    axis.set_ylabel("segments")
    figure.tight_layout()
    out = io.StringIO()
    # No metadata: the page carries nothing about the machine that made it.
    figure.savefig(out, format="svg", metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    plt.close(figure)
    svg = out.getvalue()
    return svg[svg.index("<svg") :]  # inline: without the XML prolog and doctype


def build(
    metrics: Sequence[Metric[Any]],
    names: Sequence[str],
    systems: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    command: str,
    n: int = 1000,
    seed: int = 12345,
    title: str = "Translation quality report",
) -> Report:
    """The report of ``systems`` (named ``names``) against reference streams ``refs``."""
    rankings = []
    per_metric: dict[str, list[Stats[Any, Any]]] = {}
    for metric in metrics:
        stats = metric.segment_stats_many(systems, refs)
        per_metric[metric.config.name] = stats
        rankings.append(all_pairs(stats, names, "bs", n, seed))
    bleu = per_metric.get("BLEU")
    views = []
    for k, name in enumerate(names):
        first_metric = next(iter(per_metric))
        sentence = per_metric[first_metric][k].sentence_scores()
        order = np.argsort(sentence, kind="stable")[:WORST_SEGMENTS]
        worst = tuple(Segment(int(i) + 1, float(sentence[i]), systems[k][i], refs[0][i]) for i in order)
        views.append(
            SystemView(
                name,
                bleu[k].score() if bleu is not None else None,
                _histogram_svg(sentence, first_metric),
                worst,
            )
        )
    bands = tuple((f"< {bound:g}" if bound != float("inf") else "> 60", text) for bound, text in BLEU_BANDS)
    return Report(title, command, tuple(rankings), tuple(views), bands=bands)


def render(report: Report) -> str:
    """The report as one HTML page (inline CSS and SVG; no script or font from the network)."""
    try:
        jinja2: Any = importlib.import_module("jinja2")
    except ImportError:
        raise MissingExtraError(
            "reports need matplotlib and Jinja2: pip install 'understudy[report]'"
        ) from None
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("understudy.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.filters["band"] = interpretation
    template = environment.get_template("report.html.j2")
    html: str = template.render(report=report, fold=FOLD_CHARS)
    return html


__all__ = ["BLEU_BANDS", "CAVEATS", "Report", "build", "interpretation", "render"]
