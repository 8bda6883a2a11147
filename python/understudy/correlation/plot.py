"""The BLEU paper's figures for any data, written as PNG or SVG (told by the file's extension)
through a temporary file renamed into place. Needs matplotlib (extra ``plot``) and SciPy.

- :func:`regression_plot` (Figures 5-6): one panel per metric: the items, their
  names, the least-squares line (:func:`scipy.stats.linregress`) and r;
- :func:`normalized_plot` (Figure 7): the human and metric scores of every system,
  each range-normalized, systems in human order;
- :func:`adjacent_plot` (Figures 3-4): the human difference of each pair of systems
  adjacent in the ranking, with its 95% t interval.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping, Sequence
from os import PathLike
from typing import Any

import numpy as np

from understudy.correlation import CorrelationResult
from understudy.correlation.paper import AdjacentDifference
from understudy.correlation.statistics import scipy_stats
from understudy.errors import ConfigError, import_extra
from understudy.files.atomic import atomic_write, writable

FORMATS = (".png", ".svg")


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend with names drawn as plain text, or the error
    naming the ``plot`` extra."""
    matplotlib = import_extra("matplotlib", "plots need matplotlib: pip install 'understudy-mt[plot]'")
    matplotlib.use("Agg")
    # Names are plain text: a "$" in a system's name is not the start of a formula.
    matplotlib.rcParams["text.parse_math"] = False
    return importlib.import_module("matplotlib.pyplot")


def checked_path(path: str | PathLike[str]) -> tuple[str, str]:
    """``path`` and its format (``png`` or ``svg``); any other extension is a ``ConfigError``, and
    a path that cannot be written an ``OutputError`` (checked before the work)."""
    target = os.fspath(path)
    extension = os.path.splitext(target)[1].lower()
    if extension not in FORMATS:
        raise ConfigError(
            f"a plot is written as .png or .svg, not {extension or 'a file without extension'!r}"
        )
    writable(target)
    return target, extension[1:]


def save(figure: Any, plt: Any, target: str, kind: str) -> None:
    """Write ``figure`` to ``target`` (from :func:`checked_path`) atomically, then close it."""
    figure.tight_layout()
    with atomic_write(target) as out:
        figure.savefig(out, format=kind)
    plt.close(figure)


def normalized_plot(
    table: Mapping[str, Sequence[float]], items: Sequence[str], path: str | PathLike[str]
) -> None:
    """Figure 7: each column of ``table`` (``human`` and the metrics, range-normalized) per system."""
    target, kind = checked_path(path)
    plt = pyplot()
    order = np.argsort(np.asarray(table["human"]))
    figure, axis = plt.subplots(figsize=(max(5.0, 0.5 * len(items)), 3.6))
    for name, values in table.items():
        axis.plot(range(len(items)), np.asarray(values)[order], marker="o", label=name, linewidth=1)
    axis.set_xticks(range(len(items)), [items[k] for k in order], rotation=45, ha="right", fontsize=7)
    axis.set_ylabel("range-normalized score")
    axis.legend(fontsize=7)
    save(figure, plt, target, kind)


def adjacent_plot(differences: Sequence[AdjacentDifference], path: str | PathLike[str]) -> None:
    """Figures 3-4: each adjacent pair's mean human difference with its 95% interval."""
    target, kind = checked_path(path)
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(max(5.0, 0.6 * len(differences)), 3.6))
    means = [d.mean for d in differences]
    errors = [[d.mean - d.low for d in differences], [d.high - d.mean for d in differences]]
    axis.errorbar(range(len(differences)), means, yerr=errors, fmt="o", capsize=3)
    axis.axhline(0, linewidth=0.8, color="grey")
    labels = [f"{d.higher} - {d.lower}" for d in differences]
    axis.set_xticks(range(len(differences)), labels, rotation=45, ha="right", fontsize=7)
    axis.set_ylabel("human score difference")
    save(figure, plt, target, kind)


def regression_figure(result: CorrelationResult, higher_is_better: Mapping[str, bool] | None = None) -> Any:
    """The regression of the human scores on each metric's scores, one panel per metric, as a
    matplotlib figure (for :func:`regression_plot` and the HTML report)."""
    plt = pyplot()
    metrics = list(result.scores)
    figure, axes = plt.subplots(1, len(metrics), figsize=(4.2 * len(metrics), 4), squeeze=False)
    human = np.asarray(result.human)
    for axis, metric in zip(axes[0], metrics, strict=True):
        x = np.asarray(result.scores[metric])
        axis.scatter(x, human, s=18)
        if result.level == "system":
            for name, a, b in zip(result.items, x, human, strict=True):
                axis.annotate(name, (a, b), fontsize=7, xytext=(3, 3), textcoords="offset points")
        title = f"{metric}: r undefined (all its scores are equal)"
        if np.ptp(x) > 0:  # a line through equal scores is vertical: no regression
            fit = scipy_stats().linregress(x, human)
            line = np.linspace(x.min(), x.max(), 2)
            axis.plot(line, fit.intercept + fit.slope * line, linewidth=1)
            title = f"{metric}: r = {fit.rvalue:.3f}"
        lower = "" if (higher_is_better or {}).get(metric, True) else " (lower is better)"
        axis.set_xlabel(f"{metric}{lower}")
        axis.set_ylabel("human score")
        axis.set_title(title)
    figure.tight_layout()
    return figure


def regression_plot(
    result: CorrelationResult, path: str | PathLike[str], higher_is_better: Mapping[str, bool] | None = None
) -> None:
    """Write the regression of the human scores on each metric's scores to ``path``."""
    target, kind = checked_path(path)
    save(regression_figure(result, higher_is_better), pyplot(), target, kind)


def figures(
    path: str, result: CorrelationResult, paper: Mapping[str, Any] | None, higher: Mapping[str, bool]
) -> None:
    """The regression plot at ``path``; with the paper's analyses (``paper``, as
    :func:`understudy.correlation.paper.analyses` returns them), its other figures beside it:
    ``NAME.normalized.EXT`` and ``NAME.adjacent.EXT``."""
    regression_plot(result, path, higher)
    if paper is None:
        return
    stem, extension = os.path.splitext(path)
    if paper["range_normalized"]:
        normalized_plot(paper["range_normalized"], result.items, f"{stem}.normalized{extension}")
    if paper.get("adjacent_differences"):
        differences = [AdjacentDifference(**d) for d in paper["adjacent_differences"]]
        adjacent_plot(differences, f"{stem}.adjacent{extension}")


__all__ = [
    "adjacent_plot",
    "checked_path",
    "figures",
    "normalized_plot",
    "pyplot",
    "regression_figure",
    "regression_plot",
    "save",
]
