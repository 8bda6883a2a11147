"""Given segment scores read from files and matched to systems: what ``--scores NAME=FILE``
asks of every command, callable from Python.

Each NAME is a metric like BLEU: its files are read (see :mod:`understudy.inputs.score_files`
for the formats) and matched to the systems: by name for files that name their systems, in
order for files of one system each. With no systems given, the files' own are the systems,
and every NAME's must agree. A name's direction is given, or its preset's.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "a.txt").write_text("0.5\\n0.7\\n")
>>> _ = (folder / "b.txt").write_text("0.4\\n0.2\\n")
>>> asked = ScoreFiles.parse([f"COMET-22={folder / 'a.txt'}", f"COMET-22={folder / 'b.txt'}"])
>>> given, systems = read_given(asked, ["sysA", "sysB"], segments=2)
>>> systems, given[0].corpus_score("sysA").score, given[0].config.higher_is_better
(['sysA', 'sysB'], 0.6, True)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from understudy.config import Declared, option
from understudy.errors import ConfigError, LengthMismatchError, SignatureError
from understudy.inputs.score_files import FORMATS, scores_by_system
from understudy.metrics.scores import GivenScores, decode_range, preset, preset_names
from understudy.stats import Stats


def folded(name: str) -> str:
    """A metric name as names are compared: case, dashes, underscores, spaces and ``+`` ignored.

    >>> folded("COMET-22") == folded("comet_22")
    True
    """
    return re.sub(r"[-_\s+]", "", name.lower())


@dataclass(frozen=True)
class ScoresAsked(Declared):
    """``--scores NAME=FILE ...``, their direction, range and format, as a command is asked,
    declared as the families declare their options (the command line's flags are derived from
    it); :meth:`files` checks them.

    >>> ScoresAsked(scores=("COMET=a.out",), scores_range=("COMET=0..1",)).files().ranges
    {'COMET': '0..1'}
    """

    cli_group: ClassVar[str | None] = "given scores (COMET, MetricX, ...: any metric's segment scores)"

    scores: tuple[str, ...] = option(
        (),
        flags=("--scores",),
        nargs="+",
        action="extend",
        metavar="NAME=FILE",
        help="segment scores of another metric, NAME=FILE (repeatable; several files for one NAME: one per"
        " system, in -i order). Formats, told apart by content: one score a line;"
        " system<TAB>segment<TAB>score; comet-score's output or --to_json; MetricX's JSONL;"
        f" mt-metrics-eval's SYSTEM<TAB>score. Presets: {preset_names()}",
    )
    scores_lower_is_better: tuple[str, ...] = option(
        (),
        flags=("--scores-lower-is-better",),
        nargs="+",
        action="extend",
        metavar="NAME",
        help="metrics of --scores where lower is better (needed for a NAME without a preset)",
    )
    scores_higher_is_better: tuple[str, ...] = option(
        (),
        flags=("--scores-higher-is-better",),
        nargs="+",
        action="extend",
        metavar="NAME",
        help="metrics of --scores where higher is better (needed for a NAME without a preset)",
    )
    scores_range: tuple[str, ...] = option(
        (),
        flags=("--scores-range",),
        nargs="+",
        action="extend",
        metavar="NAME=LOW..HIGH",
        help="the range of a --scores metric (either end may be open: 1..5, 0.., ..0); it sets the decimals "
        "printed and the report's histograms, and is in the signature (default: the preset's)",
    )
    scores_format: str | None = option(
        None,
        flags=("--scores-format",),
        choices=FORMATS,
        help="the format of every --scores file (default: from content)",
    )

    def files(self, taken: Mapping[str, str] | None = None) -> ScoreFiles:
        """The files asked for, checked (:meth:`ScoreFiles.parse`; ``taken``: the names of the
        metrics scored beside)."""
        return ScoreFiles.parse(
            self.scores,
            self.scores_lower_is_better,
            self.scores_higher_is_better,
            self.scores_range,
            self.scores_format,
            taken,
        )


@dataclass(frozen=True)
class ScoreFiles:
    """What was asked: each metric name's files, the names whose lower (higher) scores are
    better, each name's declared range (``LOW..HIGH``) and the files' format (``None``: read
    from the content).

    >>> ScoreFiles.parse(["COMET=a.out", "COMET=b.out"], ranges=["COMET=0..1"]).files
    {'COMET': ['a.out', 'b.out']}
    """

    files: dict[str, list[str]]
    lower_is_better: tuple[str, ...] = ()
    higher_is_better: tuple[str, ...] = ()
    ranges: dict[str, str] = field(default_factory=dict)
    format: str | None = None

    @classmethod
    def parse(
        cls,
        items: Sequence[str],
        lower_is_better: Sequence[str] = (),
        higher_is_better: Sequence[str] = (),
        ranges: Sequence[str] = (),
        format: str | None = None,
        taken: Mapping[str, str] | None = None,
    ) -> ScoreFiles:
        """From ``NAME=FILE`` items (and ``NAME=LOW..HIGH`` ranges). A name that folds to another's
        (``COMET`` and ``comet``), or to one of ``taken`` (a text metric's name scored beside,
        mapped to how it was asked: ``{"BLEU": "-m bleu"}``), is refused: the results would hold
        one of the two under that name, silently."""
        files: dict[str, list[str]] = {}
        owner = {folded(name): asked for name, asked in (taken or {}).items()}
        for item in items:
            name, sep, path = item.partition("=")
            if not sep or not name.strip() or not path:
                raise ConfigError(f"--scores takes NAME=FILE, got {item!r}")
            clash = owner.get(folded(name))
            if clash is not None and clash != f"--scores {name}":
                raise ConfigError(f"--scores {name} clashes with {clash}: give each metric a name of its own")
            owner[folded(name)] = f"--scores {name}"
            files.setdefault(name, []).append(path)
        declared = {item.partition("=")[0]: item.partition("=")[2] for item in ranges}
        for flag, named in (
            ("scores-lower-is-better", lower_is_better),
            ("scores-higher-is-better", higher_is_better),
            ("scores-range", [item.partition("=")[0] for item in ranges]),
        ):
            unknown = [n for n in named if n not in files]
            if unknown:
                raise ConfigError(f"--{flag} names {', '.join(unknown)}, which --scores does not give")
        return cls(files, tuple(lower_is_better), tuple(higher_is_better), declared, format)

    def lower(self, name: str) -> bool:
        """Whether lower scores of ``name`` are better: as declared, else its preset's."""
        lower, higher = name in self.lower_is_better, name in self.higher_is_better
        if lower and higher:
            raise ConfigError(f"{name} is given as both lower and higher is better")
        if lower or higher:
            return lower
        known = preset(name)
        if known is None:
            raise ConfigError(
                f"{name} has no preset: say its direction with --scores-lower-is-better {name} or"
                f" --scores-higher-is-better {name} (presets: {preset_names()})"
            )
        return known[1]

    def span(self, name: str) -> tuple[float | None, float | None] | None:
        """``name``'s declared range, or ``None`` (the preset's, if any)."""
        if name not in self.ranges:
            return None
        try:
            bounds = decode_range(self.ranges[name])  # the signature's own reading of a range
        except SignatureError:
            raise ConfigError(
                f"--scores-range {name}= takes LOW..HIGH (either end may be empty), got {self.ranges[name]!r}"
            ) from None
        return bounds["low"], bounds["high"]


def read_given(
    asked: ScoreFiles, systems: Sequence[str] | None, segments: int | None = None
) -> tuple[list[GivenScores], list[str]]:
    """Every asked metric for ``systems`` (``None``: the files' own systems, which must agree),
    each checked to have ``segments`` scores per system when given; and the systems' names."""
    metrics: list[GivenScores] = []
    names = None if systems is None else list(systems)
    for name, paths in asked.files.items():
        lower = asked.lower(name)
        table, found, origin = scores_by_system(name, paths, names, asked.format)
        if names is not None and found != names:
            raise ConfigError(f"{name} scores the systems {', '.join(found)}, not {', '.join(names)}")
        names = found
        for system, values in table.items():
            if segments is not None and len(values) != segments:
                raise LengthMismatchError(
                    f"{origin[system]}: {len(values)} {name} scores for {system}, but the hypotheses have"
                    f" {segments} lines"
                )
        source = " + ".join(Path(p).name for p in paths)
        span = asked.span(name)
        metrics.append(GivenScores(table, name, lower_is_better=lower, score_range=span, source=source))
    return metrics, names or []


def given_stats(metrics: Sequence[GivenScores], systems: Sequence[str]) -> list[list[Stats[Any, Any]]]:
    """Per metric, each system's statistics.

    >>> given = GivenScores({"a": [0.5, 0.7]}, "COMET-22")
    >>> [len(per[0]) for per in given_stats([given], ["a"])]
    [2]
    """
    return [list(metric.segment_stats_many(list(systems))) for metric in metrics]


__all__ = ["ScoreFiles", "folded", "given_stats", "read_given"]
