"""What the human scores judge, as the metrics score it: each metric's score of every judged item
(a system at system level; a system's segment at segment level) beside the human score of it.
What ``understudy correlate`` correlates, callable from Python.

>>> from understudy import BLEU
>>> from understudy.evaluation import Evaluation
>>> from understudy.inputs.human import HumanScores
>>> evaluation = Evaluation(
...     {"A": ["the cat sat on the mat", "a dog barked"], "B": ["cat sat mat", "dog barked a"]},
...     [["the cat sat on the mat", "a dog barked"]],
... )
>>> human = HumanScores({"A": 0.9, "B": 0.2}, {"A": {1: 1.0, 2: 0.8}, "B": {1: 0.3, 2: 0.1}}, "h.tsv")
>>> found = system_level([evaluation.statistics(BLEU())], evaluation.names, human)
>>> found.items, found.human, [round(s, 1) for s in found.scores["BLEU"]]
(['A', 'B'], [0.9, 0.2], [100.0, 0.0])
>>> found = segment_level([evaluation.statistics(BLEU())], evaluation.names, human)
>>> found.items
['A:1', 'A:2', 'B:1', 'B:2']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from understudy.errors import InputError
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.inputs.human import HumanScores
    from understudy.stats import Stats

Statistics = Sequence[Sequence["Stats[Any, Any]"]]


@dataclass(frozen=True)
class Judged:
    """Each metric's score of each judged item, by metric name, beside the human scores;
    ``items`` names the items (``system``, or ``system:segment``)."""

    scores: dict[str, list[float]]
    human: list[float]
    items: list[str]
    signatures: dict[str, str]


def system_level(statistics: Statistics, names: Sequence[str], human: HumanScores) -> Judged:
    """Every metric's corpus score of each system of ``names`` (``statistics``: a metric's
    statistics of each system, in that order), beside the human system scores."""
    scores: dict[str, list[float]] = {}
    signatures: dict[str, str] = {}
    for per_system in statistics:
        results = [stats.score() for stats in per_system]
        scores[results[0].name] = [r.score for r in results]
        signatures[results[0].name] = results[0].signature.format()
    return Judged(scores, [human.system[n] for n in names], list(names), signatures)


def judged_segments(human: HumanScores, names: Sequence[str], segments: int) -> list[tuple[str, int]]:
    """The (system, segment number) pairs ``human`` scores, of texts of ``segments`` lines."""
    if not human.has_segments:
        raise InputError(f"{human.source} has system scores only; --level segment needs segment scores")
    items = [(n, seg) for n in names for seg in sorted(human.segments.get(n, {}))]
    beyond = next(((n, seg) for n, seg in items if seg > segments), None)
    if beyond:
        raise InputError(
            f"{human.source} scores segment {beyond[1]} of {beyond[0]!r}, but the references have"
            f" {segments} lines"
        )
    if not items:
        raise InputError(f"{human.source} scores none of the segments of these systems")
    return items


def segment_level(
    statistics: Statistics,
    names: Sequence[str],
    human: HumanScores,
    others: Mapping[str, HumanScores] | None = None,
    segments: int | None = None,
) -> Judged:
    """Every metric's sentence score of each segment ``human`` judges, and the judged segments'
    scores in ``others`` (other metrics' score files, by metric name), pooled over the systems;
    the texts have ``segments`` lines (else as many as the statistics count)."""
    if segments is None:
        segments = len(statistics[0][0]) if statistics else _longest(human)
    items = judged_segments(human, names, segments)
    scores: dict[str, list[float]] = {}
    signatures: dict[str, str] = {}
    for listed in statistics:
        first = listed[0]
        sentence = {n: stats.sentence_scores() for n, stats in zip(names, listed, strict=True)}
        scores[first.config.name] = [float(sentence[n][seg - 1]) for n, seg in items]
        signatures[first.config.name] = first.signature.format()
    for name, other in (others or {}).items():
        scores[name] = _segment_scores_of(other, items)
    return Judged(
        scores,
        [human.segments[n][seg] for n, seg in items],
        [f"{n}:{seg}" for n, seg in items],
        signatures,
    )


def _longest(human: HumanScores) -> int:
    return max((seg for scored in human.segments.values() for seg in scored), default=0)


def _segment_scores_of(other: HumanScores, items: list[tuple[str, int]]) -> list[float]:
    """The scores ``other`` gives the judged segments; a missing one is an error naming it."""
    missing = [(n, seg) for n, seg in items if seg not in other.segments.get(n, {})]
    if missing:
        n, seg = missing[0]
        raise InputError(
            f"{other.source} has no score for segment {seg} of {n!r}, which the human scores judge"
            f" ({counted(len(missing), 'judged segment')} missing)"
        )
    return [other.segments[n][seg] for n, seg in items]
