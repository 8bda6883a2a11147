"""A metric's running total for training and evaluation loops, framework-free.

``metric.accumulator()`` gives an :class:`Accumulator`: ``update(hyps, refs)`` after
each batch, ``compute()`` at the end, identical to the corpus score of everything it
saw. Across processes, each worker's :attr:`Accumulator.state` (one int64 array) is
summed by whatever the loop already has (``torch.distributed.all_reduce``, an MPI
sum, ``np.add`` of gathered arrays) and read back with :meth:`Accumulator.from_state`;
or whole accumulators are merged.

>>> from understudy import BLEU
>>> bleu = BLEU()
>>> acc = bleu.accumulator()
>>> acc.update(["The cat sat on the mat."], [["The cat sat on the mat."]])
>>> acc.update(["A dog barked."], [["The dog barked loudly."]])
>>> acc.compute().score == bleu.corpus_score(
...     ["The cat sat on the mat.", "A dog barked."], [["The cat sat on the mat.", "The dog barked loudly."]]
... ).score
True
>>> acc.state.dtype, acc.n_segments
(dtype('int64'), 2)
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from numpy.typing import NDArray

from understudy.config import check_parts
from understudy.errors import ConfigError, EmptyInputError, InputTypeError
from understudy.inputs.tokens import RefStreams
from understudy.result import Result
from understudy.stats import Totals

if TYPE_CHECKING:
    from understudy.config import MetricConfig
    from understudy.stats import Stats


class Scoring(Protocol):
    """What an accumulator asks of its metric object (a :class:`~understudy.metric.Metric`,
    which makes accumulators: this module never imports it)."""

    @property
    def config(self) -> MetricConfig:
        """The metric's configuration."""

    def segment_stats(self, hyps: Sequence[str], refs: Any = None) -> Stats[Any, Any]:
        """The batch's statistics rows."""


class Accumulator:
    """Sufficient statistics summed over batches; see the module's documentation.

    Safe to share between threads (data-loader workers): batches are scored in parallel and
    added one at a time under a lock, so none is lost.
    """

    def __init__(self, metric: Scoring, totals: Totals | None = None) -> None:
        check_parts(metric.config, "an accumulator's batches")
        self.metric = metric
        self._lock = threading.Lock()
        self._totals = totals if totals is not None else Totals.empty(metric.config)

    def __getstate__(self) -> dict[str, Any]:
        # The lock is the process's own: a copy or a pickle gets a new one.
        return {"metric": self.metric, "totals": self.totals}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["metric"], state["totals"])  # type: ignore[misc]

    @property
    def totals(self) -> Totals:
        """Everything seen so far, as a :class:`~understudy.stats.Totals`."""
        with self._lock:
            return self._totals

    def update(self, hyps: Sequence[str], refs: RefStreams | None = None) -> None:
        """Add a batch: hypotheses and their reference streams (``refs[k][i]``), or the
        metric's cached references when it was built with ``references=`` for this batch."""
        batch = Totals.of(self.metric.segment_stats(hyps, refs))
        with self._lock:
            self._totals = self._totals + batch

    def merge(self, other: Accumulator) -> None:
        """Add everything ``other`` saw (another worker's accumulator, say)."""
        if not isinstance(other, Accumulator):
            raise InputTypeError(f"can merge another Accumulator, not {type(other).__name__}")
        if other.metric.config != self.metric.config:
            raise ConfigError(
                f"cannot merge an accumulator of {other.metric.config} into {self.metric.config}"
            )
        seen = other.totals
        with self._lock:
            self._totals = self._totals + seen

    @property
    def state(self) -> NDArray[np.int64]:
        """Everything seen, as one int64 array that sums element-wise across workers; it carries
        a stamp of the metric's configuration, checked when read back."""
        return self.totals.state

    @classmethod
    def from_state(cls, metric: Scoring, state: NDArray[Any] | Sequence[int]) -> Accumulator:
        """The accumulator a (summed) :attr:`state` describes, for ``metric``'s configuration (a
        state of another metric or configuration, or counts no text gives, are refused)."""
        return cls(metric, Totals.from_state(metric.config, state))

    @property
    def n_segments(self) -> int:
        """Segments seen so far."""
        return self.totals.n_segments

    def compute(self) -> Result:
        """The corpus score of every segment seen (an empty accumulator raises ``EmptyInputError``)."""
        totals = self.totals
        if totals.n_segments == 0:
            raise EmptyInputError("the accumulator has seen no segments")
        return totals.score()

    def reset(self) -> None:
        """Forget everything seen (for the next evaluation)."""
        with self._lock:
            self._totals = Totals.empty(self.metric.config)


__all__ = ["Accumulator"]
