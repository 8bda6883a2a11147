"""Dask clusters for the command line's ``--dask``: connecting to one (``local``, or a scheduler's
address, checked first), and where ``score`` computes each chunk's statistics: in this process,
or on the cluster.

Chunks are read here, in order; with ``--dask`` each chunk's text goes to a worker as
one task, its statistics rows come back, and results are taken in input order with a
bounded number of chunks in flight (memory stays flat, sentence scores print in order).
The output is the same either way: the rows are integers and their sums exact.
"""

from __future__ import annotations

import logging
import urllib.parse
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, NoReturn

from understudy.config import MetricConfig
from understudy.errors import MissingExtraError, UnderstudyError
from understudy.metric import Metric
from understudy.metrics import metric_for
from understudy.stats import Stats

ChunkStats = list[list[Stats[Any, Any]]]
"""Per metric, per system: one chunk's statistics."""

IN_FLIGHT_PER_WORKER = 2
"""Chunks queued on the cluster per worker thread before the reader waits."""


def remote_chunk(
    configs: list[MetricConfig], sys_columns: list[list[str]], ref_columns: list[list[str]]
) -> ChunkStats:
    """One chunk scored on a worker, single-threaded (the cluster is the parallelism)."""
    return [metric_for(c, threads=1).segment_stats_many(sys_columns, ref_columns) for c in configs]


class Chunks:
    """Computes chunk statistics and hands them back in input order through ``on_result``.

    ``submit`` a chunk (with the input line of its first segment, for messages);
    ``finish`` when the input ends. An error of a chunk is raised with its line.
    """

    def __init__(self, metrics: list[Metric[Any, Any]], on_result: Callable[[ChunkStats], None]) -> None:
        self.metrics = metrics
        self.on_result = on_result
        self._client: Any = None
        self._pending: deque[tuple[Any, int]] = deque()
        self._window = 1

    def connect(self, address: str, stack: ExitStack) -> None:
        """Use the Dask cluster at ``address`` (``local``: start one) until ``stack`` closes."""
        self._client = dask_client(address, stack)
        self._window = max(1, IN_FLIGHT_PER_WORKER * sum(self._client.nthreads().values()))

    def submit(self, sys_columns: list[list[str]], ref_columns: list[list[str]], line: int) -> None:
        """Score one chunk (here, or queued on the cluster)."""
        if self._client is None:
            with _located(line):
                chunk = [m.segment_stats_many(sys_columns, ref_columns) for m in self.metrics]
            self.on_result(chunk)
            return
        configs = [m.config for m in self.metrics]
        self._pending.append(
            (self._client.submit(remote_chunk, configs, sys_columns, ref_columns, pure=False), line)
        )
        self._drain(self._window)

    def finish(self) -> None:
        """Wait for every chunk still on the cluster."""
        self._drain(0)

    def cancel(self) -> None:
        """Drop the chunks still on the cluster (after an error)."""
        for future, _ in self._pending:
            future.cancel()
        self._pending.clear()

    def _drain(self, keep: int) -> None:
        while len(self._pending) > keep:
            future, line = self._pending.popleft()
            with _located(line):
                try:
                    chunk = future.result()
                except Exception as err:
                    if type(err).__name__ != "KilledWorker":
                        raise
                    deaths = getattr(err, "allowed_failures", 3) + 1
                    raise UnderstudyError(
                        f"--dask: a chunk failed after {deaths} worker deaths (out of memory on the"
                        " workers? try smaller chunks or more memory)"
                    ) from None
            self.on_result(chunk)


def dask_client(address: str, stack: ExitStack, local: Callable[[ExitStack], Any] | None = None) -> Any:
    """A client of the Dask cluster at ``address``, closed with ``stack``: ``local`` starts one
    on this machine (by ``local``, else a worker process per core), an address connects to a
    running scheduler (refused at once when it is not one). Nothing is printed: the
    dashboard's address is the client's ``dashboard_link``."""
    try:
        distributed: Any = __import__("distributed")
    except ImportError:
        raise MissingExtraError("--dask needs the 'dask' extra: pip install 'understudy-mt[dask]'") from None
    # Not the process's default scheduler: work goes to this client by name, and distributed
    # leaves a default set by a client that failed to connect, to be put back when collected.
    if address == "local":
        cluster = (
            local(stack)
            if local is not None
            else stack.enter_context(
                distributed.LocalCluster(
                    threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=QUIET
                )
            )
        )
        client = stack.enter_context(distributed.Client(cluster, set_as_default=False))
    else:
        checked_address(address)
        # Asked first, in a bounded exchange: a Client made for a server that never answers
        # waits without end, and one that failed prints a traceback when collected.
        probe_scheduler(address)
        try:
            client = stack.enter_context(
                distributed.Client(address, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
            )
        except OSError as err:
            raise UnderstudyError(f"--dask {address}: cannot reach the scheduler: {err}") from None
    return client


QUIET = logging.ERROR
"""distributed's logging on a cluster started here: errors only (not the nannies' "Worker
process still alive ... killing" as it closes, nor each worker's start)."""

CONNECT_SECONDS = 20
"""How long connecting to a scheduler, and its answer to who it is, may take."""


def probe_scheduler(address: str, seconds: float | None = None) -> None:
    """An ``UnderstudyError`` unless a Dask scheduler answers at ``address`` within ``seconds``
    (default :data:`CONNECT_SECONDS`) to distributed's ``identity`` request, naming what went
    wrong: nobody listening, no answer, or an answer that is not a scheduler's."""
    import asyncio
    import importlib

    connect: Any = importlib.import_module("distributed.comm").connect  # untyped
    limit = CONNECT_SECONDS if seconds is None else seconds

    async def identity() -> Any:
        comm = await connect(address, timeout=limit)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        answer = asyncio.run(asyncio.wait_for(identity(), limit))
    except TimeoutError:
        raise UnderstudyError(f"--dask {address}: no Dask scheduler answered within {limit:g} s") from None
    except OSError as err:
        raise UnderstudyError(f"--dask {address}: cannot reach the scheduler: {err}") from None
    except (MemoryError, ValueError, TypeError, EOFError, KeyError) as err:
        # What a server that is not a Dask scheduler answers decodes as garbage (once, as a
        # request for 3 EiB): it is not a scheduler, whatever it is.
        raise UnderstudyError(
            f"--dask {address}: not a Dask scheduler ({type(err).__name__} on connecting)"
        ) from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise UnderstudyError(f"--dask {address}: not a Dask scheduler (it answered {str(answer)[:60]!r})")


DASK_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss", "inproc")


def checked_address(address: str) -> None:
    """An ``UnderstudyError`` unless ``address`` reads as a scheduler's: ``[SCHEME://]HOST:PORT``.

    >>> checked_address("tcp://127.0.0.1:8786")
    >>> checked_address("127.0.0.1:99999")
    Traceback (most recent call last):
    understudy.errors.UnderstudyError: --dask '127.0.0.1:99999': the port must be 1 to 65535
    >>> checked_address("tcp://[::1]:8786")
    >>> checked_address("tcp://[::1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    understudy.errors.UnderstudyError: --dask 'tcp://[::1': expected 'local' or a scheduler's address, ...
    """
    scheme, _, rest = address.rpartition("://") if "://" in address else ("tcp", "", address)
    if scheme not in DASK_SCHEMES:
        _refuse(address, f"the scheme must be one of {', '.join(DASK_SCHEMES)}, not {scheme!r}")
    try:
        # Read as a URL's host and port: an IPv6 host in brackets, whole, or refused now (a
        # broken address handed to distributed waits out its timeout before failing).
        parts = urllib.parse.urlsplit(f"//{rest}")
        host, port = parts.hostname, parts.port
    except ValueError as err:
        if "out of range" in str(err):
            _refuse(address, "the port must be 1 to 65535")
        host, port = None, None
    unbracketed = host is not None and ":" in host and not rest.startswith("[")
    if not host or port is None or unbracketed or any(c.isspace() for c in rest):
        _refuse(
            address,
            "expected 'local' or a scheduler's address, such as tcp://10.0.0.1:8786"
            " (an IPv6 host in brackets: tcp://[::1]:8786)",
        )
    if not 1 <= port <= 65535:
        _refuse(address, "the port must be 1 to 65535")


def _refuse(address: str, problem: str) -> NoReturn:
    raise UnderstudyError(f"--dask {address!r}: {problem}")


@contextmanager
def _located(line: int) -> Iterator[None]:
    """Re-raise a scorer's error saying from which input line its segment numbers count
    (``line`` 0 or 1: nothing to add)."""
    try:
        yield
    except UnderstudyError as err:
        if line > 1:
            raise type(err)(f"{err} (segments counted from line {line} of the input)") from err
        raise


__all__ = ["ChunkStats", "Chunks", "checked_address", "dask_client", "remote_chunk"]
