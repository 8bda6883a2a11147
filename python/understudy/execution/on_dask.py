"""Neural metrics on a Dask cluster: the models on the workers, the cache and the sums here.

The client takes from its cache what it holds, sends the distinct inputs still to compute to
the workers in chunks sorted by length (so that a batch pads little), and keeps each chunk's
scores in its cache as they come back, in whatever order: an interrupted run keeps every chunk
already back. A worker process reads the model once, on its first chunk, and keeps it for the
next ones (a per-process cache keyed by the metric's configuration), on its own device: ``auto``
there is the GPU the worker sees. A worker that dies loses only the chunk it held, which the
scheduler sends again (distributed's ``allowed-failures``). The numbers are a single process's:
each input is scored alone in a batch of its own length class, as there.

Needs the ``dask`` extra (dask and distributed) beside the ``neural`` one.

>>> DaskRunner.chunk
64
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from typing import Any, ClassVar

from understudy.computed.metric import Item
from understudy.errors import ModelError, UnderstudyError
from understudy.execution.cluster import QUIET
from understudy.neural.base import NeuralMetric, device_of

Remote = tuple[type, dict[str, Any]]
"""A metric as it travels: its class and the options that make it again on a worker."""

_LOADED: dict[tuple[type, tuple[tuple[str, Any], ...]], NeuralMetric] = {}
"""A worker process's metrics, each with its model read once (by configuration)."""


def _worker_metric(kind: type, options: dict[str, Any]) -> NeuralMetric:
    key = (kind, tuple(sorted(options.items())))
    metric = _LOADED.get(key)
    if metric is None:
        metric = _LOADED[key] = kind(**options, cache=None)
    return metric


def score_chunk(
    kind: type, options: dict[str, Any], items: list[Item]
) -> tuple[list[float], list[str] | None, int]:
    """On a worker: a chunk's scores, their details (a detailed metric's) and how many inputs
    were cut at the model's limit."""
    metric = _worker_metric(kind, options)
    metric.truncated = 0
    metric.begin()
    if metric.detailed:
        values, notes = metric.detailed_block(items, None)
        return values, notes, metric.truncated
    return metric.score_block(items, None), None, metric.truncated


def worker_device(requested: str) -> str:
    """On a worker: the kind of device ``requested`` is there (``auto``: its GPU, if any)."""
    return device_of(requested).partition(":")[0]


def worker_loads() -> int:
    """On a worker: how many models this process has read (for tests and checks)."""
    return len(_LOADED)


class DaskRunner:
    """Computes a neural metric's missing inputs on the cluster of ``client``; a metric whose
    ``runner`` is one sends its work there
    (:meth:`~understudy.computed.metric.ComputedMetric.system_scores`)."""

    chunk: ClassVar[int] = 64
    """Inputs a task scores: small enough that a lost worker costs little, large enough to batch."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def device(self, metric: NeuralMetric) -> str:
        """The kind of device the workers run ``metric`` on: one for all (a cluster of GPU and
        CPU workers would sign one run with two), asked of every worker before any work."""
        requested = metric.remote()[1]["device"]
        found = self.client.run(worker_device, requested)
        if not found:
            raise UnderstudyError("--dask: the cluster has no workers")
        kinds = sorted(set(found.values()))
        if len(kinds) > 1:
            raise ModelError(
                f"--dask: the workers run {metric.name} on {' and '.join(kinds)}: one kind of device a run"
                " (its scores differ in the last bits between them); ask --device cpu or cuda"
            )
        return str(kinds[0])

    def __call__(
        self, metric: NeuralMetric, missing: list[Item]
    ) -> Iterator[tuple[list[Item], list[float], list[str] | None]]:
        """Each chunk of ``missing`` with its scores and details, as the workers finish them."""
        distributed: Any = __import__("distributed")
        kind, options = metric.remote()
        ordered = sorted(missing, key=lambda item: -sum(len(text) for text in item))
        chunks = [ordered[k : k + self.chunk] for k in range(0, len(ordered), self.chunk)]
        futures = {
            self.client.submit(score_chunk, kind, options, chunk, pure=False): chunk for chunk in chunks
        }
        try:
            for future in distributed.as_completed(list(futures), loop=self.client.loop):
                values, notes, cut = future.result()
                metric.truncated += cut
                yield futures[future], values, notes
        except BaseException:
            # Ctrl-C or a failed chunk: the chunks not back are dropped; those back are kept.
            self.client.cancel(list(futures))
            raise


def cluster_size() -> tuple[list[str], int]:
    """The GPUs a local cluster puts a worker on (``CUDA_VISIBLE_DEVICES``' order, else every
    device torch sees), and how many CPU workers it starts where there are none: two (each with
    half the cores to torch), as one process of a model per core would not fit in memory."""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        gpus = [d.strip() for d in visible.split(",") if d.strip() and d.strip() != "-1"]
    else:
        torch: Any = __import__("torch")
        gpus = [str(k) for k in range(torch.cuda.device_count())] if torch.cuda.is_available() else []
    return gpus, min(2, os.cpu_count() or 1)


def worker_threads(cores: int, workers: int) -> dict[str, str]:
    """The environment of a CPU worker: each library's threads (torch's, BLAS', the tokenizers',
    the Rust core's) held to its share of the cores, so that the workers do not oversubscribe them.

    >>> worker_threads(8, 2)["OMP_NUM_THREADS"], worker_threads(2, 2)["TOKENIZERS_PARALLELISM"]
    ('4', 'false')
    """
    threads = str(max(1, cores // workers))
    shared = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "UNDERSTUDY_THREADS")
    return {**dict.fromkeys(shared, threads), "TOKENIZERS_PARALLELISM": "false"}


def local_cluster(stack: Any) -> Any:
    """A cluster on this machine for neural metrics, closed with ``stack``: one worker per GPU
    (dask-cuda's ``LocalCUDACluster`` where installed, else workers pinned by
    ``CUDA_VISIBLE_DEVICES``), or CPU workers where there is no GPU."""
    distributed: Any = __import__("distributed")
    gpus, cpu_workers = cluster_size()
    if not gpus:
        cores = os.cpu_count() or 1
        warnings.warn(
            f"--dask local: no GPU here, so {cpu_workers} CPU workers share the {cores} cores that one"
            " process uses, each reading the model again: it cannot be faster than without --dask"
            " (it is for GPUs, or a scheduler's machines)",
            stacklevel=2,
        )
        return stack.enter_context(
            distributed.LocalCluster(
                n_workers=cpu_workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                env=worker_threads(cores, cpu_workers),
                silence_logs=QUIET,
            )
        )
    try:
        dask_cuda: Any = __import__("dask_cuda")
    except ImportError:
        dask_cuda = None
    if dask_cuda is not None:
        return stack.enter_context(
            dask_cuda.LocalCUDACluster(CUDA_VISIBLE_DEVICES=",".join(gpus), silence_logs=QUIET)
        )
    workers = {
        f"gpu-{gpu}": {
            "cls": distributed.Nanny,
            "options": {"nthreads": 1, "env": {"CUDA_VISIBLE_DEVICES": gpu}},
        }
        for gpu in gpus
    }
    scheduler = {"cls": distributed.Scheduler, "options": {"dashboard_address": ":0"}}
    return stack.enter_context(
        distributed.SpecCluster(workers=workers, scheduler=scheduler, silence_logs=QUIET)
    )
