"""Given segment scores on the command line: ``--scores NAME=FILE`` beside ``-m``.

Each NAME is a metric column like BLEU's: its scores are read (see
:mod:`understudy.inputs.score_files` for the formats) and matched to the systems of ``-i``: by
name for files that name their systems, in ``-i`` order for files of one system each. With
no text at all, the systems are the files' own.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from understudy.cli.messages import CliError
from understudy.cli.options import chosen_metrics
from understudy.errors import LengthMismatchError, SignatureError
from understudy.inputs.score_files import FORMATS, scores_by_system
from understudy.metrics import metric_names
from understudy.metrics.scores import GivenScores, decode_range, preset, preset_names
from understudy.stats import Stats

HELP = (
    "segment scores of another metric, NAME=FILE (repeatable; several files for one NAME: one per "
    "system, in -i order). Formats, told apart by content: one score a line; system<TAB>segment<TAB>score; "
    "comet-score's output or --to_json; MetricX's JSONL; mt-metrics-eval's SYSTEM<TAB>score. Presets: "
    + preset_names()
)


def add_scores_options(parser: argparse.ArgumentParser) -> None:
    """``--scores NAME=FILE ...``, their direction and their format."""
    group = parser.add_argument_group("given scores (COMET, MetricX, ...: any metric's segment scores)")
    lists = [
        ("--scores", "NAME=FILE", HELP),
        (
            "--scores-lower-is-better",
            "NAME",
            "metrics of --scores where lower is better (needed for a NAME without a preset)",
        ),
        (
            "--scores-higher-is-better",
            "NAME",
            "metrics of --scores where higher is better (needed for a NAME without a preset)",
        ),
        (
            "--scores-range",
            "NAME=LOW..HIGH",
            "the range of a --scores metric (either end may be open: 1..5, 0.., ..0); it sets the decimals "
            "printed and the report's histograms, and is in the signature (default: the preset's)",
        ),
    ]
    for flag, metavar, help_text in lists:
        group.add_argument(flag, nargs="+", action="extend", default=[], metavar=metavar, help=help_text)
    group.add_argument(
        "--scores-format", choices=FORMATS, help="the format of every --scores file (default: from content)"
    )


def _folded(name: str) -> str:
    return re.sub(r"[-_\s+]", "", name.lower())


def _files_by_name(args: argparse.Namespace, with_text: bool) -> dict[str, list[str]]:
    """Each ``--scores`` name's files. A name that folds (case, dashes, spaces) to another's
    (``COMET`` and ``comet``), or to a metric of ``-m`` scored beside them (``BLEU`` with ``-m
    bleu``), is refused: the results would hold one of the two under that name, silently."""
    files: dict[str, list[str]] = {}
    taken: dict[str, str] = {}
    if with_text:
        for metric in chosen_metrics(args):
            family, _ = metric_names()[metric]
            taken |= {_folded(metric): f"-m {metric}", _folded(family.config.title): f"-m {metric}"}
    for item in args.scores:
        name, sep, path = item.partition("=")
        if not sep or not name.strip() or not path:
            raise CliError(f"--scores takes NAME=FILE, got {item!r}")
        clash = taken.get(_folded(name))
        if clash is not None and clash != f"--scores {name}":
            raise CliError(f"--scores {name} clashes with {clash}: give each metric a name of its own")
        taken[_folded(name)] = f"--scores {name}"
        files.setdefault(name, []).append(path)
    ranged = [item.partition("=")[0] for item in getattr(args, "scores_range", [])]
    for flag, named in (
        ("scores_lower_is_better", args.scores_lower_is_better),
        ("scores_higher_is_better", args.scores_higher_is_better),
        ("scores_range", ranged),
    ):
        unknown = [n for n in named if n not in files]
        if unknown:
            raise CliError(
                f"--{flag.replace('_', '-')} names {', '.join(unknown)}, which --scores does not give"
            )
    return files


def _score_range(args: argparse.Namespace, name: str) -> tuple[float | None, float | None] | None:
    """``--scores-range NAME=LOW..HIGH`` of ``name``, or ``None`` (the preset's, if any)."""
    declared = [
        item.partition("=")[2] for item in getattr(args, "scores_range", []) if item.startswith(f"{name}=")
    ]
    if not declared:
        return None
    try:
        bounds = decode_range(declared[-1])  # the signature's own reading of a range
    except SignatureError:
        raise CliError(
            f"--scores-range {name}= takes LOW..HIGH (either end may be empty), got {declared[-1]!r}"
        ) from None
    return bounds["low"], bounds["high"]


def _lower_is_better(args: argparse.Namespace, name: str) -> bool:
    lower, higher = name in args.scores_lower_is_better, name in args.scores_higher_is_better
    if lower and higher:
        raise CliError(f"{name} is given as both lower and higher is better")
    if lower or higher:
        return lower
    known = preset(name)
    if known is None:
        raise CliError(
            f"{name} has no preset: say its direction with --scores-lower-is-better {name} or"
            f" --scores-higher-is-better {name} (presets: {preset_names()})"
        )
    return known[1]


def given_scores(
    args: argparse.Namespace,
    systems: list[str] | None,
    segments: int | None,
    with_text: bool | None = None,
) -> tuple[list[GivenScores], list[str]]:
    """Every ``--scores`` metric for ``systems`` (``None``: the files' own systems, which must agree),
    each checked to have ``segments`` scores per system when given; and the systems' names.
    ``with_text``: whether -m's metrics are scored beside them (default: when ``systems`` are
    given), whose names a --scores name may not take."""
    metrics: list[GivenScores] = []
    names = systems
    text = systems is not None if with_text is None else with_text
    for name, paths in _files_by_name(args, text).items():
        lower = _lower_is_better(args, name)
        table, found, origin = scores_by_system(name, paths, names, args.scores_format)
        if names is not None and found != names:
            raise CliError(f"{name} scores the systems {', '.join(found)}, not {', '.join(names)}")
        names = found
        for system, values in table.items():
            if segments is not None and len(values) != segments:
                raise LengthMismatchError(
                    f"{origin[system]}: {len(values)} {name} scores for {system}, but the hypotheses have"
                    f" {segments} lines"
                )
        source = " + ".join(Path(p).name for p in paths)
        span = _score_range(args, name)
        metrics.append(GivenScores(table, name, lower_is_better=lower, score_range=span, source=source))
    return metrics, names or []


def given_stats(metrics: list[GivenScores], systems: list[str]) -> list[list[Stats[Any, Any]]]:
    """Per metric, each system's statistics."""
    return [list(metric.segment_stats_many(systems)) for metric in metrics]


def wants_scores(args: argparse.Namespace) -> bool:
    """Whether ``--scores`` was given."""
    return bool(getattr(args, "scores", None))


__all__ = ["add_scores_options", "given_scores", "given_stats", "wants_scores"]
