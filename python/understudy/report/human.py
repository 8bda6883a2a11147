"""Human scores in the report: what the human file gives (one object), the correlations section,
and each segment's human score beside the metric's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from understudy.report import figures
from understudy.report.model import HumanView, PairView, Segment, SystemView
from understudy.stats import Stats


@dataclass(frozen=True)
class HumanInputs:
    """What a human score file gives the report.

    >>> HumanInputs([0.5, 0.25], "mqm.tsv").names is None  # the file calls the systems as the report does
    True
    """

    scores: Sequence[float]
    """Each system's human score, in the report's order of systems."""
    source: str = ""
    """The file's name, as the page names it."""
    names: Sequence[str] | None = None
    """The systems as the file calls them (default: the report's names)."""
    unscored: Mapping[str, float] | None = None
    """What the file scores beyond these systems (a reference, say), by name."""
    segments: Sequence[Mapping[int, float]] | None = None
    """Each system's segment scores by segment number, where the file has them."""


def read_inputs(path: str, inputs: Sequence[str], names: Sequence[str] | None = None) -> HumanInputs:
    """The human scores of the systems of ``inputs`` (their files; ``names``: as the file calls
    them, else matched to its systems) from the file at ``path`` (TSV, CSV, JSON or MQM): each
    system's score, what else the file scores, and each system's segment scores if it has them.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "human.tsv")
    >>> _ = open(path, "w").write("A\\t0.5\\nB\\t0.25\\nC\\t0.75\\nref\\t1.0\\n")
    >>> found = read_inputs(path, ["out/A.de", "out/B.de", "out/C.de"])
    >>> found.scores, found.names, found.unscored
    ([0.5, 0.25, 0.75], ['A', 'B', 'C'], {'ref': 1.0})
    """
    from pathlib import Path

    from understudy.errors import ConfigError
    from understudy.inputs.human import read_human
    from understudy.inputs.score_files import named_systems

    if len(inputs) < 3:
        raise ConfigError(f"--human correlates systems with human scores: give 3 or more, not {len(inputs)}")
    human = read_human(path)
    named = named_systems(human.system, inputs, names, path)
    unscored = {n: v for n, v in human.system.items() if n not in named}
    segments = [human.segments.get(name, {}) for name in named] if human.has_segments else None
    return HumanInputs([human.system[name] for name in named], Path(path).name, named, unscored, segments)


def human_view(
    per_metric: dict[str, list[Stats[Any, Any]]],
    names: Sequence[str],
    human: HumanInputs,
    n: int,
    seed: int,
) -> HumanView:
    """Every metric's system scores against the human scores: the correlations and their plot."""
    from understudy.correlation import correlate, unscored_notes
    from understudy.correlation.plot import regression_figure

    configs = [stats[0].config for stats in per_metric.values()]
    higher = {c.name: c.higher_is_better for c in configs}
    scores = {metric: [float(s.score().score) for s in stats] for metric, stats in per_metric.items()}
    signatures = {metric: stats[0].signature.format() for metric, stats in per_metric.items()}
    result = correlate(
        scores,
        human.scores,
        human.names or names,
        n_bootstrap=n,
        seed=seed,
        higher_is_better=higher,
        human_name=human.source,
        metric_signatures=signatures,
    )
    negated = tuple(c.name for c in configs if not c.higher_is_better)
    notes = tuple(unscored_notes(human.scores, human.unscored or {}))
    return HumanView(result, figures.svg(regression_figure(result, higher)), human.source, negated, notes)


def with_human_segments(
    views: tuple[SystemView, ...],
    pair: PairView | None,
    names: Sequence[str],
    segments: Sequence[Mapping[int, float]] | None,
) -> tuple[tuple[SystemView, ...], PairView | None]:
    """The worst segments and the diff with each segment's human score beside the metric's (each
    system's ``segments`` in ``names`` order; ``None``: no segment scores, nothing changes)."""
    if segments is None:
        return views, pair
    human = dict(zip(names, segments, strict=True))

    def judged(segments: tuple[Segment, ...], system: str) -> tuple[Segment, ...]:
        return tuple(replace(s, human=human[system].get(s.number)) for s in segments)

    views = tuple(
        replace(
            v,
            worst=judged(v.worst, v.name),
            others=tuple(replace(o, worst=judged(o.worst, v.name)) for o in v.others),
        )
        for v in views
    )
    if pair is not None:
        rows = tuple(
            replace(r, human_a=human[pair.a].get(r.number), human_b=human[pair.b].get(r.number))
            for r in pair.rows
        )
        pair = replace(pair, rows=rows)
    return views, pair
