"""Computed metrics on the command line: ``-m comet`` (or any computed metric the registry
lists) with ``--source``, beside the text metrics.

Each metric is made from its declaration (:mod:`understudy.registry.declarations`) and the
options it declares; its segment scores join the run as given scores do: a column of ``score``,
a metric of ``compare``, kept by ``--log``. A metric's error spans go where its options say
(``--xcomet-spans FILE``: JSON lines of system, segment, spans).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from understudy.cli.messages import CliError
from understudy.cli.progress import Progress
from understudy.cli.segments import sources_as_scored
from understudy.execution.asked import MetricsAsked
from understudy.inputs.parallel import read_texts
from understudy.metrics.scores import GivenScores

if TYPE_CHECKING:
    from understudy.computed.metric import ComputedMetric
    from understudy.metrics.protocol import MetricObject


def asked_metrics(
    args: argparse.Namespace,
    names: list[str],
    refs: list[list[str]],
    systems: list[list[str]],
    sources: list[str] | None = None,
    *,
    with_text: bool = True,
    sentence_level: bool = False,
) -> list[MetricObject]:
    """The metric objects the command line asks for (:meth:`~understudy.execution.asked.MetricsAsked.metrics`)
    for the systems ``names`` (their lines read, as the references'), the computed ones reading
    the source of ``--source``, else ``sources`` (a test set's); ``sentence_level`` configures
    the text metrics for sentence scores."""
    asked, by_name, sources = _asked(args, names, systems, sources)
    dask = getattr(args, "dask", None)
    return asked.metrics(
        by_name, refs, sources, sentence_level=sentence_level, with_text=with_text, dask=dask, bars=_bar,
        where=args.source,
    )  # fmt: skip


def computed_scores(
    args: argparse.Namespace,
    names: list[str],
    refs: list[list[str]],
    systems: list[list[str]],
    sources: list[str] | None = None,
) -> list[GivenScores]:
    """Each computed metric of ``-m`` on the systems, as :func:`asked_metrics` makes them."""
    asked, by_name, sources = _asked(args, names, systems, sources)
    dask = getattr(args, "dask", None)
    return asked.computed_scores(by_name, refs, sources, dask=dask, bars=_bar, where=args.source)


def _asked(
    args: argparse.Namespace, names: list[str], systems: list[list[str]], sources: list[str] | None
) -> tuple[MetricsAsked, dict[str, list[str]], list[str] | None]:
    """The metrics asked, the systems by name, and the sources of ``--source`` as scored (cut
    and joined as the systems are), else ``sources``, where a computed metric reads them."""
    asked = MetricsAsked(vars(args))
    if asked.computed_names and len(set(names)) != len(names):
        raise CliError("the same system file is given twice with -i")
    if asked.computed_names and args.source is not None:
        (read,) = read_texts([args.source])
        sources = sources_as_scored(args, read)
    return asked, dict(zip(names, systems, strict=True)), sources


def _bar(metric: ComputedMetric) -> Progress:
    return Progress(metric.name, unit=metric.unit)
