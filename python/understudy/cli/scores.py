"""Given segment scores on the command line: ``--scores NAME=FILE`` beside ``-m``.

Each NAME is a metric column like BLEU's: its scores are read (see
:mod:`understudy.inputs.score_files` for the formats) and matched to the systems of ``-i``: by
name for files that name their systems, in ``-i`` order for files of one system each. With
no text at all, the systems are the files' own.
"""

from __future__ import annotations

import argparse

from understudy.cli.options import add_declared
from understudy.execution.asked import MetricsAsked
from understudy.metrics.given_files import ScoresAsked
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
    """Every ``--scores`` metric for ``systems`` (:meth:`~understudy.execution.asked.MetricsAsked.given`)."""
    return MetricsAsked(vars(args)).given(systems, segments, with_text)


def wants_scores(args: argparse.Namespace) -> bool:
    """Whether ``--scores`` was given."""
    return bool(getattr(args, "scores", None))


__all__ = ["add_scores_options", "given_scores", "wants_scores"]
