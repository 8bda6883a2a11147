"""Given segment scores on the command line: ``--scores NAME=FILE`` beside ``-m``.

Each NAME is a metric column like BLEU's: its scores are read (see
:mod:`understudy.inputs.score_files` for the formats) and matched to the systems of ``-i``: by
name for files that name their systems, in ``-i`` order for files of one system each. With
no text at all, the systems are the files' own.
"""

from __future__ import annotations

import argparse

from understudy.cli.options import add_declared, chosen_metrics
from understudy.metrics import metric_names
from understudy.metrics.given_files import ScoresAsked, read_given
from understudy.metrics.scores import GivenScores


def add_scores_options(parser: argparse.ArgumentParser) -> None:
    """``--scores NAME=FILE ...``, their direction and their format."""
    add_declared(parser, ScoresAsked)


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
    return read_given(ScoresAsked.from_values(vars(args)).files(taken), systems, segments)


def wants_scores(args: argparse.Namespace) -> bool:
    """Whether ``--scores`` was given."""
    return bool(getattr(args, "scores", None))


__all__ = ["add_scores_options", "given_scores", "wants_scores"]
