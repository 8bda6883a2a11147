"""The BLEU paper's Figures 5-6 for any data: human scores regressed on each metric's scores.

One panel per metric: the items, their names, the least-squares line
(:func:`scipy.stats.linregress`) and r. Written as PNG or SVG (told by the file's
extension) through a temporary file renamed into place. Needs matplotlib (extra
``plot``) and SciPy (extra ``stats``).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping
from os import PathLike
from typing import Any

import numpy as np

from understudy._atomic import atomic_write
from understudy.correlation import CorrelationResult
from understudy.correlation.statistics import scipy_stats
from understudy.errors import ConfigError, MissingExtraError

FORMATS = (".png", ".svg")


def _pyplot() -> Any:
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError:
        raise MissingExtraError("plots need matplotlib: pip install 'understudy[plot]'") from None
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def regression_plot(
    result: CorrelationResult, path: str | PathLike[str], higher_is_better: Mapping[str, bool] | None = None
) -> None:
    """Write the regression of the human scores on each metric's scores to ``path``."""
    target = os.fspath(path)
    extension = os.path.splitext(target)[1].lower()
    if extension not in FORMATS:
        raise ConfigError(
            f"a plot is written as .png or .svg, not {extension or 'a file without extension'!r}"
        )
    plt = _pyplot()
    metrics = list(result.scores)
    figure, axes = plt.subplots(1, len(metrics), figsize=(4.2 * len(metrics), 4), squeeze=False)
    human = np.asarray(result.human)
    for axis, metric in zip(axes[0], metrics, strict=True):
        x = np.asarray(result.scores[metric])
        fit = scipy_stats().linregress(x, human)
        axis.scatter(x, human, s=18)
        if result.level == "system":
            for name, a, b in zip(result.items, x, human, strict=True):
                axis.annotate(name, (a, b), fontsize=7, xytext=(3, 3), textcoords="offset points")
        line = np.linspace(x.min(), x.max(), 2)
        axis.plot(line, fit.intercept + fit.slope * line, linewidth=1)
        lower = "" if (higher_is_better or {}).get(metric, True) else " (lower is better)"
        axis.set_xlabel(f"{metric}{lower}")
        axis.set_ylabel("human score")
        axis.set_title(f"{metric}: r = {fit.rvalue:.3f}")
    figure.tight_layout()
    with atomic_write(target) as out:
        figure.savefig(out, format=extension[1:])
    plt.close(figure)


__all__ = ["regression_plot"]
