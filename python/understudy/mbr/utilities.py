"""Utilities of MBR decoding: one source's candidates x pseudo-references scores under a text
metric's sentence score or a computed metric's, and which way a metric's best lies.

>>> from understudy import CHRF
>>> utility_matrix(CHRF(), ["abc", "xyz"], ["abc"], None).round(2).tolist()
[[100.0], [0.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from understudy.errors import InputTypeError

if TYPE_CHECKING:
    from understudy.computed.metric import ComputedMetric
    from understudy.metric import Metric


def utility_matrix(
    metric: Metric[Any, Any] | ComputedMetric, hyps: list[str], refs: list[str], source: str | None
) -> NDArray[np.float64]:
    """The ``hyps`` x ``refs`` utility matrix of one source (``source`` for a computed metric
    that reads it): each cell the sentence score of a candidate against one pseudo-reference."""
    from understudy.computed.metric import ComputedMetric

    if not isinstance(metric, ComputedMetric):
        return metric.pairwise(hyps, refs)
    return computed_matrices(metric, [hyps], [refs], None if source is None else [source])[0]


def computed_matrices(
    metric: ComputedMetric,
    hyps: Sequence[Sequence[str]],
    refs: Sequence[Sequence[str]],
    sources: Sequence[str] | None,
) -> list[NDArray[np.float64]]:
    """Each source's utility matrix under a computed metric, all sources' pairs in one call: the
    metric embeds each distinct sentence once and batches them by length across the sources."""
    pairs = [
        (k, h, r)
        for k, (listed, pseudo) in enumerate(zip(hyps, refs, strict=True))
        for h in listed
        for r in pseudo
    ]
    given = metric.system_scores(
        {"pairs": [h for _, h, _ in pairs]},
        [r for _, _, r in pairs],
        None if sources is None else [sources[k] for k, _, _ in pairs],
    )
    scores = np.asarray(given.segment_stats("pairs").sentence_scores(), dtype=np.float64)
    matrices, start = [], 0
    for listed, pseudo in zip(hyps, refs, strict=True):
        size = len(listed) * len(pseudo)
        matrices.append(scores[start : start + size].reshape(len(listed), len(pseudo)))
        start += size
    return matrices


def lower_is_better(metric: object) -> bool:
    """Whether ``metric``'s lowest score is its best; a metric that is no utility is refused.

    >>> from understudy import TER
    >>> lower_is_better(TER())
    True
    """
    from understudy.computed.metric import ComputedMetric
    from understudy.metric import Metric

    if isinstance(metric, ComputedMetric):
        return metric.lower_is_better
    if isinstance(metric, Metric):
        return not metric.config.higher_is_better
    raise InputTypeError(
        f"{type(metric).__name__} cannot serve as a utility: give a metric object (BLEU(), CHRF(), TER(),"
        " a computed metric)"
    )


__all__ = ["computed_matrices", "lower_is_better", "utility_matrix"]
