"""Given segment scores on the command line: ``--scores NAME=FILE`` beside ``-m``.

Each NAME is a metric column like BLEU's: its scores are read (see
:mod:`understudy.inputs.score_files` for the formats) and matched to the systems of ``-i``: by
name for files that name their systems, in ``-i`` order for files of one system each. With
no text at all, the systems are the files' own.
"""

from __future__ import annotations

import argparse

from understudy.cli.options import chosen_metrics
from understudy.inputs.score_files import FORMATS
from understudy.metrics import metric_names
from understudy.metrics.given_files import ScoreFiles, read_given
from understudy.metrics.scores import GivenScores, preset_names

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


def given_scores(
    args: argparse.Namespace,
    systems: list[str] | None,
    segments: int | None,
    with_text: bool | None = None,
) -> tuple[list[GivenScores], list[str]]:
    """Every ``--scores`` metric for ``systems`` (:func:`~understudy.metrics.given_files.read_given`).
    ``with_text``: whether -m's metrics are scored beside them (default: when ``systems`` are
    given), whose names a --scores name may not take."""
    taken: dict[str, str] = {}
    if (systems is not None) if with_text is None else with_text:
        for metric in chosen_metrics(args):
            family, _ = metric_names()[metric]
            taken |= {metric: f"-m {metric}", family.config.title: f"-m {metric}"}
    asked = ScoreFiles.parse(
        args.scores,
        args.scores_lower_is_better,
        args.scores_higher_is_better,
        getattr(args, "scores_range", []),
        args.scores_format,
        taken,
    )
    return read_given(asked, systems, segments)


def wants_scores(args: argparse.Namespace) -> bool:
    """Whether ``--scores`` was given."""
    return bool(getattr(args, "scores", None))


__all__ = ["add_scores_options", "given_scores", "wants_scores"]
