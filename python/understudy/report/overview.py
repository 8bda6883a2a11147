"""The report's overview: one rankings table with a column per metric (and the human scores),
a forest plot of every score with its interval, and each metric's matrix of pairwise p-values.

Everything here is laid out from :func:`understudy.significance.all_pairs` results; nothing is
computed again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from understudy.significance import AllPairsResult

FOREST_ROW_INCHES = 0.22
"""Height of one system in the forest plot: sixteen systems fit a screen."""

_CONTROL = {c: f"\\x{c:02x}" for c in [*range(32), 127]}


@dataclass(frozen=True)
class Column:
    """One metric of the rankings table."""

    metric: str
    higher_is_better: bool
    decimals: int
    signature: str


@dataclass(frozen=True)
class Cell:
    """One system's score by one metric: the score, its resampled mean and 95% half-width, its cluster."""

    score: float
    mean: float
    ci: float
    cluster: int


@dataclass(frozen=True)
class Row:
    """One system: its name (a path, say), its short name, a cell per metric, its human score."""

    name: str
    short: str
    cells: tuple[Cell, ...]
    human: float | None


@dataclass(frozen=True)
class PValues:
    """One metric's pairwise p-values, systems in its ranking order; ``None`` on the diagonal;
    ``colours`` shade each cell by its p-value (darker: more significant)."""

    metric: str
    names: tuple[str, ...]
    values: tuple[tuple[float | None, ...], ...]
    colours: tuple[tuple[str, ...], ...]
    alpha: float


@dataclass(frozen=True)
class Overview:
    """The rankings table, the forest plot and the p-value matrices."""

    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    human_name: str
    forest_svg: str
    pvalues: tuple[PValues, ...]


def _cell(ranking: AllPairsResult, name: str) -> Cell:
    cluster = next(k + 1 for k, members in enumerate(ranking.clusters) if name in members)
    s = next(s for s in ranking.ranking if s.name == name)
    return Cell(s.score, s.mean or s.score, s.ci or 0.0, cluster)


def rows_of(
    rankings: Sequence[AllPairsResult], short: Mapping[str, str], human: Mapping[str, float] | None
) -> tuple[Row, ...]:
    """A row per system, in the first metric's ranking order."""
    order = [s.name for s in rankings[0].ranking]
    return tuple(
        Row(
            name,
            short[name],
            tuple(_cell(r, name) for r in rankings),
            None if human is None else human[name],
        )
        for name in order
    )


def shade(p: float, alpha: float) -> str:
    """A cell's colour: white for p = 1, ever darker green as p falls, the darkest below ``alpha``.

    >>> shade(1.0, 0.05), shade(0.001, 0.05)
    ('#ffffff', '#5aa05a')
    """
    strength = 1.0 if p <= alpha else max(0.0, 0.6 * (1 - (p - alpha) / (1 - alpha)))
    white, green = (255, 255, 255), (90, 160, 90)
    rgb = [round(w + (g - w) * strength) for w, g in zip(white, green, strict=True)]
    return "#" + "".join(f"{c:02x}" for c in rgb)


def pvalue_matrix(ranking: AllPairsResult) -> PValues:
    """A metric's p-values between every two systems, in its ranking order."""
    names = tuple(s.name for s in ranking.ranking)
    values = ranking.ranked_p_values()
    colours = tuple(tuple("#f4f4f4" if p is None else shade(p, ranking.alpha) for p in row) for row in values)
    return PValues(ranking.signature.config.name, names, values, colours, ranking.alpha)


def forest_figure(rankings: Sequence[AllPairsResult], short: Mapping[str, str], pyplot: Any) -> Any:
    """Every system's score (dot) and 95% interval (bar) by each metric, a panel per metric,
    systems in the first metric's ranking order, the best at the top."""
    order = [s.name for s in rankings[0].ranking]
    height = 0.9 + FOREST_ROW_INCHES * len(order)
    panels = min(9.6, 2.4 * len(rankings) + 0.2)
    figure, axes = pyplot.subplots(1, len(rankings), figsize=(panels, height), sharey=True, squeeze=False)
    positions = list(range(len(order)))[::-1]
    for axis, ranking in zip(axes[0], rankings, strict=True):
        by_name = {s.name: s for s in ranking.ranking}
        scores = [by_name[n].score for n in order]
        errors = [by_name[n].ci or 0.0 for n in order]
        means = [by_name[n].mean or by_name[n].score for n in order]
        axis.errorbar(means, positions, xerr=errors, fmt="none", ecolor="#7a9cc6", elinewidth=2)
        axis.plot(scores, positions, "o", color="#1f4e8c", markersize=4)
        config = ranking.signature.config
        axis.set_xlabel(config.name + ("" if config.higher_is_better else " (lower is better)"), fontsize=9)
        axis.tick_params(labelsize=8)
        axis.grid(axis="x", color="#e4e4e4")
    # A name's control characters (a TAB, say) have no glyph: they are shown escaped.
    axes[0][0].set_yticks(positions, [short[n].translate(_CONTROL) for n in order])
    axes[0][0].set_ylim(-0.7, len(order) - 0.3)
    # The names' own width, measured once, is added on the left: no name is cut at the edge.
    renderer = figure.canvas.get_renderer()
    names = max(label.get_window_extent(renderer).width for label in axes[0][0].get_yticklabels())
    left = names / figure.dpi + 0.15
    figure.set_figwidth(panels + left)
    figure.subplots_adjust(left=left / (panels + left), right=1 - 0.05 / (panels + left))
    figure.subplots_adjust(bottom=0.6 / height, top=1 - 0.15 / height, wspace=0.08)
    return figure


def overview(
    rankings: Sequence[AllPairsResult],
    short: Mapping[str, str],
    human: Mapping[str, float] | None,
    human_name: str,
    svg: Callable[[Any], str],
    pyplot: Any,
) -> Overview:
    """The overview of ``rankings`` (one per metric); ``svg`` turns a figure into inline SVG."""
    columns = tuple(
        Column(
            r.signature.config.name,
            r.signature.config.higher_is_better,
            r.signature.config.decimals(2),
            r.signature.format(),
        )
        for r in rankings
    )
    return Overview(
        columns,
        rows_of(rankings, short, human),
        human_name,
        svg(forest_figure(rankings, short, pyplot)),
        tuple(pvalue_matrix(r) for r in rankings),
    )


__all__ = ["Cell", "Column", "Overview", "PValues", "Row", "overview", "pvalue_matrix", "shade"]
