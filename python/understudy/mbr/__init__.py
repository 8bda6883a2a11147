"""Choosing the best translation among candidates: minimum Bayes risk (MBR) decoding and
quality-estimation reranking, on understudy's metrics.

MBR scores every candidate against every pseudo-reference (by default the candidates
themselves, each against itself too, as mbrs does), takes each candidate's mean score, its
expected utility, and chooses the best: the highest, or the lowest where lower is better (TER,
MetricX), reported as is. A text metric's utility is its sentence score, as
:meth:`understudy.metric.Metric.pairwise` computes it: mbrs' utilities are sacrebleu's
``sentence_score`` with BLEU's ``effective_order=True`` and chrF's and TER's defaults, so
``BLEU(effective_order=True)``, ``CHRF()`` and ``TER()`` choose as mbrs 0.1.8's exact MBR does.
Ties go to the first index; :attr:`Choice.tied` names the others.

>>> from understudy import CHRF
>>> [choice] = select([["the cat sat on the mat", "a cat sat on a mat", "the dog ran"]], CHRF())
>>> choice.index, choice.candidate
(0, 'the cat sat on the mat')
>>> [round(u, 2) for u in choice.expected]
[56.65, 50.82, 38.51]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from understudy.errors import ConfigError, EmptyInputError, InputTypeError, LengthMismatchError
from understudy.mbr.pruning import Pruning, pruned_expected
from understudy.mbr.utilities import lower_is_best

if TYPE_CHECKING:
    from understudy.metrics.protocol import MetricObject

METHODS = ("exact", "aggregate", "prune")
"""The MBR methods: ``exact`` (every candidate against every pseudo-reference), ``aggregate``
(each candidate against the pseudo-references aggregated into one: BLEU and chrF) and
``prune`` (exact on a growing prefix of the pseudo-references, dropping the candidates that
are confidently worse: :mod:`understudy.mbr.pruning`)."""

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Choice:
    """One source's choice: the chosen candidate's ``index`` and text, every candidate's
    ``expected`` utility (MBR) or QE score (reranking), the other indices ``tied`` with the
    chosen one, and the candidates x pseudo-references ``utilities`` when asked for. ``scored``
    names what ``expected`` holds in the record: ``expected`` (MBR's expected utilities) or
    ``qe_scores`` (a reranker's own scores)."""

    index: int
    candidate: str
    expected: tuple[float, ...]
    tied: tuple[int, ...] = ()
    utilities: NDArray[np.float64] | None = field(default=None, compare=False)  # arrays have no ==
    scored: str = "expected"

    def to_dict(self) -> dict[str, Any]:
        """The JSON record ``understudy mbr --scores`` writes (the matrix when kept); what was
        not scored (NaN: a pruned candidate) is ``None``, JSON's null."""
        record: dict[str, Any] = {
            "index": self.index,
            "candidate": self.candidate,
            self.scored: _nulls(self.expected),
        }
        if self.tied:
            record["tied"] = list(self.tied)
        if self.utilities is not None:
            record["utilities"] = [_nulls(row) for row in self.utilities.tolist()]
        return record


def _nulls(values: Sequence[float]) -> list[float | None]:
    """``values`` with NaN as ``None``."""
    return [None if math.isnan(v) else v for v in values]


def select(
    candidates: Sequence[Sequence[str]],
    metric: MetricObject,
    *,
    sources: Sequence[str] | None = None,
    pseudo_references: Sequence[Sequence[str]] | None = None,
    method: str = "exact",
    utilities: bool = False,
    pruning: Pruning | None = None,
    progress: Progress | None = None,
) -> list[Choice]:
    """The MBR choice among each source's ``candidates`` (a list of strings per source; their
    number may differ) under ``metric``: a text metric's sentence score, or a computed
    metric's (``sources`` for those that read them). ``pseudo_references`` default to the
    candidates; ``method`` is one of :data:`METHODS` (``pruning``: its settings, mbrs'
    defaults); ``utilities`` keeps each matrix (not for ``aggregate``, which has none; NaN
    where ``prune`` scored nothing, and a pruned candidate's expected utility is NaN);
    ``progress(done, total)`` follows the sources.

    >>> from understudy import TER
    >>> [choice] = select([["a b c d", "a b c", "x y"]], TER())
    >>> choice.index, [round(u, 1) for u in choice.expected]  # lower is better: the lowest TER
    (1, [77.8, 58.3, 66.7])
    >>> from understudy import BLEU
    >>> [choice] = select([["a b c d", "a b c", "x y"]], BLEU(effective_order=True), method="aggregate")
    >>> choice.index, [round(u, 1) for u in choice.expected]  # mbrs' aggregate_mbr: the same
    (1, [48.2, 66.7, 20.2])
    """
    if method not in METHODS:
        raise ConfigError(f"unknown MBR method {method!r}; there are {', '.join(METHODS)}")
    if pruning is not None and method != "prune":
        raise ConfigError(f"pruning settings are for method='prune', not {method!r}")
    pseudo = candidates if pseudo_references is None else pseudo_references
    _check(candidates, pseudo, sources)
    lower = lower_is_best(metric)
    if method == "exact":
        # One call for every source: a computed metric embeds each distinct sentence once.
        matrices = metric.utilities(candidates, pseudo, sources)
    choices = []
    for k, (hyps, refs) in enumerate(zip(candidates, pseudo, strict=True)):
        matrix: NDArray[np.float64] | None
        if method == "exact":
            matrix = next(matrices)
            expected = matrix.mean(axis=1)
        else:
            source = None if sources is None else sources[k]
            expected, matrix = _expected(metric, list(hyps), list(refs), source, method, pruning)
        choices.append(_chosen(list(hyps), expected, lower, matrix if utilities else None))
        if progress is not None:
            progress(k + 1, len(candidates))
    return choices


def _expected(
    metric: MetricObject,
    hyps: list[str],
    refs: list[str],
    source: str | None,
    method: str,
    pruning: Pruning | None,
) -> tuple[NDArray[np.float64], NDArray[np.float64] | None]:
    """One source's expected utilities under ``prune`` or ``aggregate``, and its utility matrix
    if it has one."""
    if method == "prune":
        return pruned_expected(metric, hyps, refs, source, pruning or Pruning())
    return metric.aggregate(hyps, refs), None


def rerank(
    candidates: Sequence[Sequence[str]],
    metric: MetricObject,
    sources: Sequence[str] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Choice]:
    """Quality-estimation reranking: the candidate of each source that a reference-free
    ``metric`` (CometKiwi, MetricX's QE, a judge: given each source's ``sources`` line) scores
    best, every candidate scored once.
    ``progress(amount)`` follows the metric's work, batch by batch."""
    _check(candidates, candidates, sources)
    flat = [hyp for hyps in candidates for hyp in hyps]
    flat_sources = (
        None
        if sources is None
        else [source for source, hyps in zip(sources, candidates, strict=True) for _ in hyps]
    )
    [stats] = metric.statistics({"candidates": flat}, None, flat_sources, progress)
    scores = stats.sentence_scores()
    lower, choices, start = lower_is_best(metric), [], 0
    for hyps in candidates:
        chosen = _chosen(list(hyps), np.asarray(scores[start : start + len(hyps)]), lower, None)
        choices.append(replace(chosen, scored="qe_scores"))  # each candidate's own score, no expectation
        start += len(hyps)
    return choices


def _chosen(
    hyps: list[str], expected: NDArray[np.float64], lower: bool, matrix: NDArray[np.float64] | None
) -> Choice:
    """The best of ``expected`` (the first of equals; NaN, a pruned candidate, never) and the
    indices tied with it."""
    best = int(np.nanargmin(expected) if lower else np.nanargmax(expected))
    tied = tuple(int(i) for i in np.flatnonzero(expected == expected[best]) if i != best)
    return Choice(best, hyps[best], tuple(float(v) for v in expected), tied, matrix)


def _check(
    candidates: Sequence[Sequence[str]], pseudo: Sequence[Sequence[str]], sources: Sequence[str] | None
) -> None:
    """Refuse what has no choice in it: no sources, a source without candidates or
    pseudo-references, lists of different lengths."""
    if isinstance(candidates, str) or any(isinstance(c, str) for c in candidates):
        raise InputTypeError("candidates must be a list of lists of strings: one list per source")
    if not candidates:
        raise EmptyInputError("no candidates: give one list of candidates per source")
    for what, lists in (("candidates", candidates), ("pseudo-references", pseudo)):
        empty = next((k for k, texts in enumerate(lists) if not texts), None)
        if empty is not None:
            raise EmptyInputError(f"source {empty + 1} has no {what}")
    if len(pseudo) != len(candidates):
        raise LengthMismatchError(
            f"{len(pseudo)} lists of pseudo-references for {len(candidates)} sources' candidates"
        )
    if sources is not None and len(sources) != len(candidates):
        raise LengthMismatchError(f"{len(sources)} sources for {len(candidates)} lists of candidates")


__all__ = ["METHODS", "Choice", "Pruning", "rerank", "select"]
