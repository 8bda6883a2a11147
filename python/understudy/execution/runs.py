"""Computed metrics run together on the same systems: each chosen metric (its declaration, its
configuration, its object) scores every system against the same references and sources, on a
Dask cluster when asked; its notices become warnings, its error spans are written where its
configuration says, and its segment scores come back as given scores (a column of ``score``,
a metric of ``compare``).

>>> asked = {"judge_url": "http://127.0.0.1:8000/v1", "judge_model": "m"}
>>> declared, config, metric = chosen_metric("gemba-mqm", asked, "en-de")
>>> declared.name, config.model, config.concurrency
('gemba-mqm', 'm', 4)
>>> check_sources(["gemba-mqm"], [["Hallo Welt"]], None, None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
understudy.errors.ConfigError: -m gemba-mqm needs the source segments: --source FILE ...
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, ExitStack, contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from understudy.errors import ConfigError, LengthMismatchError
from understudy.registry import computed
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.computed.metric import ComputedMetric
    from understudy.execution.on_dask import DaskRunner
    from understudy.metrics.scores import GivenScores
    from understudy.registry.declarations import Computed, ComputedConfig

Chosen = tuple["Computed", "ComputedConfig", "ComputedMetric"]
"""A computed metric as chosen: its declaration, its configuration and its object."""


class Bar(Protocol):
    """What a run reports its progress to: the count done, and the metric's state."""

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` of ``total`` (``None``: as before)."""

    def note(self, text: str) -> None:
        """The metric's state beside the count (its device, its cache's hits)."""


Bars = Callable[["ComputedMetric"], AbstractContextManager[Bar]]
"""A progress bar for a metric's run (the command line's shows on a terminal)."""


def chosen_metric(name: str, values: Mapping[str, Any], pair: str | None = None) -> Chosen:
    """A computed metric by its registry ``name``, configured by ``values`` (option
    destinations to values; those absent take their defaults), for language ``pair``."""
    declared, config = chosen_config(name, values)
    return declared, config, declared.metric(config, pair)


def chosen_config(name: str, values: Mapping[str, Any]) -> tuple[Computed, ComputedConfig]:
    """A computed metric's declaration and its configuration as ``values`` give it, before its
    object (and so its model) is looked for."""
    declared = computed(name)
    options = declared.config.options()
    return declared, declared.config(
        **{name: values[o.dest] for name, o in options if o.flags and o.dest in values}
    )


def check_sources(
    names: Sequence[str], refs: Sequence[Sequence[str]], sources: Sequence[str] | None, where: str | None
) -> None:
    """Refuse what the metrics ``names`` cannot read: no sources where one needs them, several
    reference streams, sources of another length than the references (``where``: the sources'
    file, for the message)."""
    needing = [name for name in names if "source" in computed(name).inputs]
    if where is None and not sources and needing:
        raise ConfigError(
            f"-m {needing[0]} needs the source segments: --source FILE (one a line, as the references)"
        )
    single = [name for name in names if not computed(name).several_references]
    if len(refs) != 1 and single:
        raise ConfigError(f"{single[0]} takes one reference; {len(refs)} reference files are given")
    if sources is not None and len(sources) != len(refs[0]):
        lines = counted(len(sources), "line")
        where = where or "the test set's source"
        raise LengthMismatchError(f"{where} has {lines} but the references have {len(refs[0])}")


def run_computed(
    chosen: Sequence[Chosen],
    systems: Mapping[str, list[str]],
    refs: Sequence[Sequence[str]],
    sources: list[str] | None = None,
    *,
    dask: str | None = None,
    bars: Bars | None = None,
) -> list[GivenScores]:
    """Each chosen metric's scores of ``systems`` (name to lines), against the one reference
    stream of ``refs`` where it reads one, with ``sources``; on the Dask cluster at ``dask``
    (``"local"``: one made here) for the metrics that run models there."""
    scored = []
    with ExitStack() as stack:
        runner = _runner(dask, chosen, stack)
        for declared, config, metric in chosen:
            given = _given(declared, config, refs)
            with metric.running_on(runner if config.on_dask else None):
                scored.append(_scored(metric, systems, given, sources, bars or _no_bar))
            spans = config.spans_file()
            if spans is not None:
                metric.write_details(spans, scored[-1])
    return scored


def _given(
    declared: Computed, config: ComputedConfig, refs: Sequence[Sequence[str]]
) -> list[str] | list[tuple[str, ...]] | None:
    """What the metric is given of the references: none, the one stream, or (a metric that
    reads several) each segment's references together."""
    if not declared.reads_reference(config):
        return None
    if declared.several_references:
        return list(zip(*refs, strict=True))
    return list(refs[0])


def _runner(address: str | None, chosen: Sequence[Chosen], stack: ExitStack) -> DaskRunner | None:
    """Where the models run: the cluster at ``address``, until ``stack`` closes (a metric
    that does not run there, as a judge asking its endpoint, runs from here and says so)."""
    if address is None:
        return None
    here = [declared.name for declared, config, _ in chosen if not config.on_dask]
    if here:
        warnings.warn(f"--dask runs models: {', '.join(here)} ask their endpoint from here", stacklevel=1)
    if len(here) == len(chosen):
        return None
    from understudy.execution.cluster import dask_client
    from understudy.execution.on_dask import DaskRunner, local_cluster

    return DaskRunner(dask_client(address, stack, local_cluster))


class _Silent:
    def update(self, done: int, total: int | None = None) -> None:
        pass

    def note(self, text: str) -> None:
        pass


@contextmanager
def _no_bar(_: ComputedMetric) -> Iterator[Bar]:
    yield _Silent()


def _scored(
    metric: ComputedMetric,
    systems: Mapping[str, list[str]],
    refs: list[str] | list[tuple[str, ...]] | None,
    sources: list[str] | None,
    bars: Bars,
) -> GivenScores:
    """One metric's scores of the systems, with a progress bar and the metric's notices."""
    done = [0]
    with bars(metric) as bar:

        def advance(count: int) -> None:
            done[0] += count
            bar.note(metric.status())
            bar.update(done[0])

        scores = metric.system_scores(dict(systems), refs, sources, progress=advance)
    for notice in metric.notices():
        warnings.warn(notice, stacklevel=1)
    return scores


__all__ = ["Bar", "Bars", "Chosen", "check_sources", "chosen_metric", "run_computed"]
