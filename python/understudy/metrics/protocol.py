"""The questions every metric object answers, whatever computes its scores: a text family's
(:class:`~understudy.metric.Metric`), a computed metric's (a model, a judge:
:class:`~understudy.computed.metric.ComputedMetric`) or given segment scores
(:class:`~understudy.metrics.scores.GivenScores`).

The generic layer (evaluation, significance, ranking, report, gate, site, MBR) asks these and
never which kind a metric is: its name and title, its one direction (``higher_is_better``), the
inputs it reads of a segment, every system's statistics, MBR's utility matrices, and where it
runs.

>>> from understudy import CHRF, TER
>>> [(m.name, m.higher_is_better, m.inputs()) for m in (CHRF(), TER())]
[('chrF2', True, ('hypothesis', 'reference')), ('TER', False, ('hypothesis', 'reference'))]
>>> stats = CHRF().statistics({"A": ["abc"], "B": ["abd"]}, [["abc"]])
>>> [round(s.score().score, 2) for s in stats]  # sacrebleu's sentence_chrf: 100.0 and 38.89
[100.0, 38.89]
>>> [m.round(1).tolist() for m in CHRF().utilities([["abc", "xyz"]], [["abc"]])]
[[[100.0], [0.0]]]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from understudy.stats import Stats

INPUTS = ("source", "hypothesis", "reference")
"""What a metric may read of each segment, in this order."""

Progress = Callable[[int], None]
"""Told the amount of work done (texts encoded, segments judged), batch by batch."""

Systems = Mapping[str, Sequence[str]]
"""Systems by name, each one hypothesis a segment."""


class MetricObject(Protocol):
    """What every metric object answers. A new kind of metric implements these; nothing that
    uses metrics asks more of it."""

    @property
    def name(self) -> str:
        """The name its scores print under (``BLEU``, ``chrF2++``, ``COMET``)."""

    @property
    def title(self) -> str:
        """The name of the metric itself, for prose and correlations (``chrF`` for chrF++)."""

    @property
    def higher_is_better(self) -> bool:
        """Whether a higher score is better (TER and MetricX: no)."""

    def inputs(self) -> tuple[str, ...]:
        """What it reads of each segment, among :data:`INPUTS` (given scores: nothing)."""

    def statistics(
        self,
        systems: Systems,
        references: Sequence[Sequence[str]] | None,
        sources: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> Sequence[Stats[Any, Any]]:
        """Each system's statistics, in ``systems``' order, against the reference streams
        (``None``: none, as quality estimation asks) and the ``sources``."""

    def utilities(
        self,
        candidates: Sequence[Sequence[str]],
        pseudo_references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> Iterator[NDArray[np.float64]]:
        """Each source's candidates x pseudo-references matrix of segment scores, for MBR; a
        metric that cannot serve as a utility refuses (:class:`~understudy.errors.InputTypeError`)."""

    def aggregate(self, hyps: Sequence[str], refs: Sequence[str]) -> NDArray[np.float64]:
        """Each candidate's score against all of ``refs`` at once (reference aggregation, as
        mbrs' ``aggregate_mbr``); a metric that has none refuses (:class:`~understudy.errors.ConfigError`)."""

    def running_on(self, runner: Any) -> AbstractContextManager[bool]:
        """For the block it opens, the metric's work done by ``runner`` (a cluster's: Dask
        today) where the metric can run there; it yields whether it does."""


__all__ = ["INPUTS", "MetricObject", "Progress", "Systems"]
