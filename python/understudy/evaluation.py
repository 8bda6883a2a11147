"""One evaluation: systems scored against the same references (and sources) by any metric, a text
family's, a computed metric's (a model, a judge) or given segment scores, each turned into every
system's statistics; from them, corpus scores and a ranking into significance clusters. What
``understudy compare`` does, callable from Python.

>>> from understudy import BLEU, CHRF
>>> evaluation = Evaluation(
...     {"A": ["the cat sat on the mat", "a dog barked"], "B": ["cat sat mat", "dog barked a"]},
...     [["the cat sat on the mat", "a dog barked"]],
... )
>>> {name: round(result.score, 1) for name, result in evaluation.corpus_scores(CHRF()).items()}
{'A': 100.0, 'B': 52.4}
>>> [s.name for s in evaluation.ranking(BLEU(), n=100).ranking]
['A', 'B']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from understudy.errors import EmptyInputError, LengthMismatchError
from understudy.metrics.protocol import MetricObject, Progress
from understudy.seeding import DEFAULT_SEED
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.result import Result
    from understudy.significance import AllPairsResult, PValues, Test
    from understudy.stats import Stats


@dataclass(frozen=True)
class Evaluation:
    """``systems`` (name: one hypothesis a segment) against ``references`` (streams, as
    sacrebleu takes them) and, for metrics that read them, ``sources``; every input is checked
    to have as many segments as the references."""

    systems: Mapping[str, Sequence[str]]
    references: Sequence[Sequence[str]]
    sources: Sequence[str] | None = None

    def __post_init__(self) -> None:
        if not self.systems:
            raise EmptyInputError("nothing to evaluate: no systems")
        if not self.references:
            raise EmptyInputError("nothing to evaluate against: no references")
        count = len(self.references[0])
        named = [(f"reference stream {k + 1} has", stream) for k, stream in enumerate(self.references)]
        named += [(f"system {name!r} has", hyps) for name, hyps in self.systems.items()]
        named += [("the sources have", self.sources)] if self.sources is not None else []
        for what, texts in named:
            if len(texts) != count:
                raise LengthMismatchError(
                    f"{what} {counted(len(texts), 'segment')}; the references have {count}"
                )

    @property
    def names(self) -> list[str]:
        """The systems' names, in their order."""
        return list(self.systems)

    def statistics(
        self,
        metric: MetricObject,
        progress: Progress | None = None,
        quality_estimation: bool = False,
    ) -> list[Stats[Any, Any]]:
        """Each system's statistics under ``metric`` (any metric object: a text family's rows,
        a computed metric's segment scores, given scores by system name), against the
        references (none with ``quality_estimation``) and the sources; ``progress`` follows a
        computed metric as it runs."""
        references = None if quality_estimation else self.references
        return list(metric.statistics(self.systems, references, self.sources, progress))

    def corpus_scores(self, metric: MetricObject) -> dict[str, Result]:
        """Each system's corpus score under ``metric``, by name."""
        return {name: stats.score() for name, stats in zip(self.names, self.statistics(metric), strict=True)}

    def ranking(
        self,
        metric: MetricObject,
        test: Test = "bs",
        n: int | None = None,
        seed: int = DEFAULT_SEED,
        p_values: PValues = "at-least",
        alpha: float = 0.05,
    ) -> AllPairsResult:
        """The systems ranked under ``metric`` and grouped into significance clusters, as
        ``understudy compare`` ranks them (:func:`understudy.significance.all_pairs`)."""
        from understudy.significance import all_pairs

        return all_pairs(self.statistics(metric), self.names, test, n, seed, p_values, alpha)
