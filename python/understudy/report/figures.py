"""The report's figures: matplotlib set up for the page, a figure as inline SVG, a colour per system."""

from __future__ import annotations

import importlib
import io
from collections.abc import Sequence
from typing import Any

from understudy.errors import MissingExtraError

EXTRA = "reports need matplotlib, Jinja2 and SciPy: pip install 'understudy-mt[report]'"
"""What a report needs installed, and how."""


def pyplot() -> Any:
    """matplotlib's pyplot as the page draws with it (text as SVG text, a fixed salt)."""
    from understudy.correlation import plot

    try:
        plt = plot.pyplot()
    except MissingExtraError:
        raise MissingExtraError(EXTRA) from None
    # Text as SVG text (not glyph outlines): a third of the size and of the time. A fixed
    # salt for the SVG ids: the same inputs give the same page, byte for byte.
    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "understudy"})
    return plt


def svg(figure: Any) -> str:
    """``figure`` as inline SVG, closed afterwards."""
    out = io.StringIO()
    # No metadata: the page carries nothing about the machine that made it.
    figure.savefig(out, format="svg", metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    pyplot().close(figure)
    text = out.getvalue()
    return text[text.index("<svg") :]  # inline: without the XML prolog and doctype


def colours(order: Sequence[str]) -> dict[str, str]:
    """A colour per system, never two alike (tab20, or beyond 20 systems the turbo map sampled
    evenly): the bucket tables are the plots' legend."""
    plt = pyplot()
    to_hex = importlib.import_module("matplotlib.colors").to_hex
    if len(order) <= 20:
        return {name: to_hex(plt.get_cmap("tab20").colors[k]) for k, name in enumerate(order)}
    turbo = plt.get_cmap("turbo")
    return {name: to_hex(turbo(k / (len(order) - 1))) for k, name in enumerate(order)}
