"""Utilities of MBR decoding, as the metric protocol gives them (:meth:`utilities` of any metric
object: a text metric's sentence scores, a computed metric's), and which way a metric's best
lies.

>>> from understudy import CHRF
>>> utility_matrix(CHRF(), ["abc", "xyz"], ["abc"], None).round(2).tolist()
[[100.0], [0.0]]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from understudy.errors import InputTypeError

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from understudy.metrics.protocol import MetricObject


def utility_matrix(
    metric: MetricObject, hyps: list[str], refs: list[str], source: str | None
) -> NDArray[np.float64]:
    """The ``hyps`` x ``refs`` utility matrix of one source (``source`` for a metric that reads
    it): each cell the sentence score of a candidate against one pseudo-reference."""
    return next(metric.utilities([hyps], [refs], None if source is None else [source]))


def lower_is_best(metric: object) -> bool:
    """Whether ``metric``'s lowest score is its best (not its ``higher_is_better``); an object
    that is no metric is refused.

    >>> from understudy import TER
    >>> lower_is_best(TER())
    True
    """
    direction = getattr(metric, "higher_is_better", None)
    if not isinstance(direction, bool) or not callable(getattr(metric, "utilities", None)):
        raise InputTypeError(
            f"{type(metric).__name__} cannot serve as a utility: give a metric object (BLEU(), CHRF(),"
            " TER(), a computed metric)"
        )
    return not direction


__all__ = ["lower_is_best", "utility_matrix"]
