"""Computed metrics on the command line: ``-m comet`` (or any computed metric the registry
lists) with ``--source``, beside the text metrics.

Each metric is made from its declaration (:mod:`understudy.computed.declaration`) and the
options it declares; its segment scores join the run as given scores do: a column of ``score``,
a metric of ``compare``, kept by ``--log``. A metric's error spans go where its options say
(``--xcomet-spans FILE``: JSON lines of system, segment, spans).
"""

from __future__ import annotations

import argparse
import warnings
from contextlib import ExitStack
from typing import TYPE_CHECKING

from understudy.cli.inputs import read_texts
from understudy.cli.messages import CliError
from understudy.cli.progress import Progress
from understudy.cli.segments import sources_as_scored
from understudy.errors import LengthMismatchError
from understudy.metrics.scores import GivenScores
from understudy.registry import computed, computed_metrics
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.computed.declaration import Computed, ComputedConfig
    from understudy.computed.metric import ComputedMetric
    from understudy.neural.on_dask import DaskRunner

Chosen = tuple["Computed", "ComputedConfig", "ComputedMetric"]


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
    references'), with the source of ``--source``, else ``sources`` (a test set's)."""
    chosen = computed_chosen(args)
    if not chosen:
        return []
    sources = _sources(args, chosen, refs, sources)
    if len(set(names)) != len(names):
        raise CliError("the same system file is given twice with -i")
    metrics = [made_metric(args, name) for name in chosen]
    scored = []
    with ExitStack() as stack:
        runner = _runner(args, metrics, stack)
        for declared, config, metric in metrics:
            if config.on_dask:
                metric.runner = runner  # type: ignore[attr-defined]
            given = refs[0] if declared.reads_reference(config) else None
            scored.append(_scored(metric, names, given, systems, sources))
            spans = config.spans_file()
            if spans is not None:
                metric.write_details(spans, scored[-1])
    return scored


def warn_unasked(args: argparse.Namespace) -> None:
    """Say, in one line each, that an option typed for a computed metric that ``-m`` does not ask
    for (``--comet-model`` without ``-m comet``, ``--judge-url`` without a judge) does nothing."""
    given: frozenset[str] = getattr(args, "given", frozenset())
    chosen = [computed(name) for name in computed_chosen(args)]
    if "source" in given and not chosen:
        warnings.warn(
            "--source is read by computed metrics (-m comet, metricx, ...), and -m asks for none: ignored",
            stacklevel=1,
        )
    readers: dict[str, list[Computed]] = {}
    flags: dict[str, str] = {}
    for declared in computed_metrics().values():
        if not declared.computed_here:
            continue
        for _, option in declared.config.options():
            readers.setdefault(option.dest, []).append(declared)
            flags.setdefault(option.dest, option.flags[0])
    for dest, reading in readers.items():
        # An option shared by a kind (--no-cache, --batch-size) is read when any metric of -m reads it.
        if dest not in given or any(declared in chosen for declared in reading):
            continue
        names = " ".join(declared.name for declared in reading)
        which = "which -m does not ask for" if len(reading) == 1 else "none of which -m asks for"
        warnings.warn(f"{flags[dest]} is read by -m {names}, {which}: ignored", stacklevel=1)


def _sources(
    args: argparse.Namespace, chosen: list[str], refs: list[list[str]], sources: list[str] | None
) -> list[str] | None:
    """The source segments the chosen metrics read: ``--source``'s, else the test set's; one
    reference stream, as long as they."""
    if args.source is None and not sources and any("source" in computed(n).inputs for n in chosen):
        raise CliError(
            f"-m {chosen[0]} needs the source segments: --source FILE (one a line, as the references)"
        )
    if len(refs) != 1:
        raise CliError(f"{chosen[0]} takes one reference; {len(refs)} reference files are given")
    if args.source is not None:
        (sources,) = read_texts([args.source])
        sources = sources_as_scored(args, sources)
    if sources is not None and len(sources) != len(refs[0]):
        where = args.source or "the test set's source"
        raise LengthMismatchError(
            f"{where} has {counted(len(sources), 'line')} but the references have {len(refs[0])}"
        )
    return sources


def made_metric(args: argparse.Namespace, name: str) -> Chosen:
    """One ``-m`` name's declaration, its configuration as the options say, and its object."""
    declared = computed(name)
    config = declared.config(**declared.config.field_values(vars(args)))
    return declared, config, declared.metric(config, getattr(args, "langpair", None))


def _runner(args: argparse.Namespace, chosen: list[Chosen], stack: ExitStack) -> DaskRunner | None:
    """With ``--dask``, where the models run: the cluster, until ``stack`` closes (a metric
    that does not run there, as a judge asking its endpoint, runs from here and says so)."""
    address = getattr(args, "dask", None)
    if address is None:
        return None
    here = [declared.name for declared, config, _ in chosen if not config.on_dask]
    if here:
        warnings.warn(f"--dask runs models: {', '.join(here)} ask their endpoint from here", stacklevel=1)
    if len(here) == len(chosen):
        return None
    from understudy.cluster import dask_client
    from understudy.neural.on_dask import DaskRunner, local_cluster

    return DaskRunner(dask_client(address, stack, local_cluster))


def _scored(
    metric: ComputedMetric,
    names: list[str],
    refs: list[str] | None,
    systems: list[list[str]],
    sources: list[str] | None,
) -> GivenScores:
    """One metric's scores of the systems, with a progress bar and the metric's notices."""
    done = [0]
    with Progress(metric.name, unit=metric.unit) as bar:

        def advance(count: int) -> None:
            done[0] += count
            bar.note(metric.status())
            bar.update(done[0])

        scores = metric.system_scores(dict(zip(names, systems, strict=True)), refs, sources, progress=advance)
    for notice in metric.notices():
        warnings.warn(notice, stacklevel=1)
    return scores
