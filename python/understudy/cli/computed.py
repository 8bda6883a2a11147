"""Computed metrics on the command line: ``-m comet`` (or any computed metric the registry
lists) with ``--source``, beside the text metrics.

Each metric is made from its declaration (:mod:`understudy.computed.declaration`) and the
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
from understudy.computed.runs import Chosen, check_sources, chosen_metric, run_computed
from understudy.inputs.parallel import read_texts
from understudy.metrics.scores import GivenScores
from understudy.registry import computed_metrics

if TYPE_CHECKING:
    from understudy.computed.metric import ComputedMetric


def computed_chosen(args: argparse.Namespace) -> list[str]:
    """The computed metrics of ``-m``, in ``-m`` order."""
    known = computed_metrics()
    return [name for name in dict.fromkeys(getattr(args, "metrics", [])) if name in known]


def computed_scores(
    args: argparse.Namespace,
    names: list[str],
    refs: list[list[str]],
    systems: list[list[str]],
    sources: list[str] | None = None,
) -> list[GivenScores]:
    """Each computed metric of ``-m`` on the systems (their lines already read, as the
    references'), with the source of ``--source``, else ``sources`` (a test set's)
    (:func:`~understudy.computed.runs.run_computed`)."""
    chosen = computed_chosen(args)
    if not chosen:
        return []
    if args.source is not None:
        (sources,) = read_texts([args.source])
        sources = sources_as_scored(args, sources)
    check_sources(chosen, refs, sources, args.source)
    if len(set(names)) != len(names):
        raise CliError("the same system file is given twice with -i")
    metrics = [made_metric(args, name) for name in chosen]
    by_name = dict(zip(names, systems, strict=True))
    return run_computed(metrics, by_name, refs, sources, dask=getattr(args, "dask", None), bars=_bar)


def _bar(metric: ComputedMetric) -> Progress:
    return Progress(metric.name, unit=metric.unit)


def made_metric(args: argparse.Namespace, name: str) -> Chosen:
    """One ``-m`` name's declaration, its configuration as the options say, and its object."""
    return chosen_metric(name, vars(args), getattr(args, "langpair", None))
