"""A folder of the organisers' scores ranked: each language pair's systems with their AutoRank and
system scores, in ranking order, and the tables that print them (text, JSON, LaTeX, CSV).

>>> row = Row("en-de_DE", "sysA", "sysA", 1.0, {"m": 0.5})
>>> row.record()["autorank"], row.record()["scores"]
(1.0, {'m': 0.5})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from understudy.autorank.bootstrap import Certainty, Position, certainty, method
from understudy.autorank.files import Scores
from understudy.autorank.method import autorank, system_score
from understudy.autorank.wmt25 import QE_METRIC, Preset, printed
from understudy.errors import ConfigError, InputError
from understudy.files.tables import Table, text_table


@dataclass(frozen=True)
class Row:
    """One system of one pair: its file's name, the name printed, its AutoRank and scores."""

    language_pair: str
    system: str
    printed_name: str
    autorank: float
    scores: dict[str, float]
    position: Position | None = None
    """With ``--bootstrap``: its intervals and cluster."""

    def record(self) -> dict[str, Any]:
        """The row as JSON writes it."""
        out: dict[str, Any] = {
            "language_pair": self.language_pair,
            "system": self.system,
            "autorank": self.autorank,
            "scores": self.scores,
            "printed_name": self.printed_name,
        }
        if self.position is not None:
            out |= {
                "autorank_interval": list(self.position.interval),
                "rank": self.position.rank,
                "rank_interval": list(self.position.rank_interval),
                "cluster": self.position.cluster,
            }
        return out


def metrics_of(
    scores: Scores,
    pair: str,
    preset: Preset | None,
    asked: Sequence[str] | None,
    references: Mapping[str, bool] | None = None,
) -> tuple[str, ...]:
    """The columns of ``pair``: those asked, else the preset's (``references``: which pairs have
    human references, as a test set says; else the preset's table), else every metric all its
    systems have."""
    if asked:
        return tuple(asked)
    if preset is not None:
        return preset.metrics_for(pair, None if references is None else references.get(pair))
    shared = set.intersection(*(set(per) for per in scores[pair].values()))
    return tuple(sorted(shared))


@dataclass(frozen=True)
class Resampling:
    """``--bootstrap N --seed S``: how the positions' certainty is measured."""

    n: int
    seed: int
    alpha: float = 0.05


@dataclass(frozen=True)
class Asked:
    """What a ranking is asked beside the scores: the columns (``None``: the preset's), the pairs
    (``None``: all), the resampling, and which pairs have human references (as a test set says;
    ``None``: as the preset's table says)."""

    metrics: Sequence[str] | None = None
    pairs: Sequence[str] | None = None
    resampling: Resampling | None = None
    references: Mapping[str, bool] | None = None


def rank(scores: Scores, preset: Preset | None, asked: Asked | None = None) -> list[Row]:
    """Every pair's rows (only the pairs asked), pairs in the preset's order, systems best first;
    with a resampling asked, each with its intervals and cluster."""
    asked = asked or Asked()
    chosen = list(scores) if not asked.pairs else list(asked.pairs)
    unknown = [p for p in chosen if p not in scores]
    if unknown:
        has = f"; the folder has {', '.join(sorted(scores))}" if scores else " in the folder"
        raise ConfigError(f"no scores for {', '.join(unknown)}{has}")
    ordered = preset.order(chosen) if preset is not None else sorted(chosen)
    return [row for pair in ordered for row in _pair_rows(scores, pair, preset, asked)]


def _pair_rows(scores: Scores, pair: str, preset: Preset | None, asked: Asked) -> list[Row]:
    metrics = metrics_of(scores, pair, preset, asked.metrics, asked.references)
    table: dict[str, dict[str, float]] = {}
    for system, per in scores[pair].items():
        lacking = [m for m in metrics if m not in per]
        if lacking:
            raise InputError(f"{pair}: {system} has no {lacking[0]} scores (its file lacks them)")
        try:
            table[system] = {m: system_score(per[m]) for m in metrics}
        except InputError as err:
            raise InputError(f"{pair}: {system}: {err}") from None
    ranks = autorank(table, metrics)
    names = preset.names if preset is not None else {}
    order = sorted(table, key=lambda s: (ranks[s], s))
    found: Certainty | None = None
    if asked.resampling is not None:
        r = asked.resampling
        found = certainty(scores[pair], metrics, r.n, r.seed, r.alpha)
    at = {} if found is None else {p.system: p for p in found.systems}
    return [Row(pair, s, names.get(s, s), ranks[s], table[s], at.get(s)) for s in order]


def tables(rows: Sequence[Row], preset: Preset | None) -> list[Table]:
    """One table a pair, in the organisers' layout: system, AutoRank, each metric's system score."""
    out = []
    for pair in dict.fromkeys(r.language_pair for r in rows):
        mine = [r for r in rows if r.language_pair == pair]
        metrics = list(mine[0].scores)
        sure = ["95% interval", "Rank", "rank 95%", "Cluster"] if mine[0].position is not None else []
        header = ["System", "AutoRank", *sure, *metrics]
        cells = [
            [
                r.printed_name,
                printed(r.autorank, "AutoRank"),
                *_certain(r),
                *(printed(r.scores[m], m) for m in metrics),
            ]
            for r in mine
        ]
        title = preset.title(pair) if preset is not None else pair
        out.append(
            Table(
                header,
                cells,
                notes=[f"{title} ({pair}): {len(mine)} systems; AutoRank 1 is the best"],
                csv_header=["language_pair", "system", "autorank", *metrics],
                csv_rows=[[pair, r.system, r.autorank, *(r.scores[m] for m in metrics)] for r in mine],
                record=[r.record() for r in mine],
            )
        )
    return out


def _certain(row: Row) -> list[str]:
    """A row's intervals and cluster, as text (none without ``--bootstrap``)."""
    p = row.position
    if p is None:
        return []
    low, high = (printed(v, "AutoRank") for v in p.interval)
    return [f"{low}-{high}", str(p.rank), f"{p.rank_interval[0]}-{p.rank_interval[1]}", str(p.cluster)]


def render(rows: Sequence[Row], preset: Preset | None, form: str, asked: Asked | None = None) -> str:
    """Every pair's table as ``form`` writes it (JSON: one list of rows, in ranking order per pair);
    the text ends with where the pairs' references were learnt and how the intervals were found."""
    import json

    if form == "json":
        return json.dumps([r.record() for r in rows], indent=1, ensure_ascii=False)
    made = tables(rows, preset)
    if form == "csv":
        parts = [t.render(form) for t in made]
        return parts[0] + "".join(p.split("\r\n", 1)[1] for p in parts[1:])
    if form == "latex":
        return "\n\n".join(t.render(form) for t in made)
    asked = asked or Asked()
    notes = _closing(preset, asked)
    if form == "html":
        from understudy.site.pages import autorank_page

        pages = [
            {"pair": t.record[0]["language_pair"], "title": t.notes[0], "header": t.header, "rows": t.rows}
            for t in made
        ]
        return autorank_page(pages, notes)
    return "\n\n".join(["\n\n".join(f"{t.notes[0]}\n\n{text_table(t.header, t.rows)}" for t in made), *notes])


def _closing(preset: Preset | None, asked: Asked) -> list[str]:
    """The lines after the tables: where the pairs' references were learnt, how intervals were found."""
    lines = []
    if preset is not None and asked.metrics is None:
        told = asked.references is not None
        lines.append(
            f"{QE_METRIC} left out where a pair has no human references, as "
            + (
                "the test set says"
                if told
                else f"the {preset.name} preset's table says (the report's columns)"
            )
        )
    if asked.resampling is not None:
        r = asked.resampling
        lines.append(method(r.n, r.seed, r.alpha))
    return lines
