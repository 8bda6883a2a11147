"""What understudy does before NumPy loads when the process's address space is capped.

OpenBLAS (under NumPy) sets aside a buffer per thread as it loads; under ``ulimit -v`` those
buffers alone can exceed the cap, and OpenBLAS then gives up with its own message, or the
process crashes, before any of understudy's code can say that memory ran out. With the cap set
and no thread count chosen by the user, OpenBLAS is kept to one thread: understudy does its work
in the Rust core, and NumPy's few matrix products here are small. This module does it as it is
imported, first of all of understudy's modules (by the package itself).

>>> capped_blas_threads({"OPENBLAS_NUM_THREADS": "4"}, limit=2**28)
False
>>> environ = {}
>>> capped_blas_threads(environ, limit=2**28), environ
(True, {'OPENBLAS_NUM_THREADS': '1'})
"""

from __future__ import annotations

import collections
import contextlib
import os
import sys
from collections.abc import Iterator, MutableMapping
from typing import Any


def address_space_limit() -> int | None:
    """The soft ``RLIMIT_AS`` in bytes, or ``None`` when there is none (or no way to ask)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def capped_blas_threads(environ: MutableMapping[str, str] | None = None, limit: int | None = None) -> bool:
    """Keep OpenBLAS to one thread when the address space is capped (``limit``: the cap, read
    from the process when not given) and the user chose no thread count; whether it did."""
    environ = os.environ if environ is None else environ
    limit = address_space_limit() if limit is None else limit
    chosen = any(name in environ for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"))
    if limit is None or chosen:
        return False
    environ["OPENBLAS_NUM_THREADS"] = "1"
    return True


def reserve_blas_buffer() -> None:
    """Under an address space capped from the start (``ulimit -v``), have OpenBLAS take its
    working buffer now, while the process is small: it takes it at the first matrix product, and
    one that fails then, mid-run, ends the process with OpenBLAS's own message instead of
    understudy's. A cap set later, by the process itself, is left alone: the buffer would be
    taken under it.

    >>> reserve_blas_buffer()  # nothing to do without a cap; harmless with one
    """
    if not CAPPED_AT_START:
        return
    import numpy as np

    # Large enough to be packed (OpenBLAS computes small products without its buffer).
    for dtype in (np.float32, np.float64):
        square = np.ones((256, 256), dtype=dtype)
        square @ square


STALL_SECONDS = 30
"""Seconds without a heartbeat after which a capped command ends itself (:func:`watch_progress`)."""


def watch_progress(seconds: int = STALL_SECONDS) -> bool:
    """Under a capped address space, end the process with one line (status 1) once the
    interpreter has made no progress for ``seconds``; whether the watch started.

    Out of memory, CPython 3.11 can spin for ever in an exception handler that cannot
    allocate, the GIL held, so that neither a signal handler nor a timeout runs again. A daemon
    thread gives the Rust core's watcher (a native thread) a heartbeat each second, which needs
    the GIL; the watcher ends the process when they stop. Every thread shares one malloc arena
    from then on (each thread's own would reserve 64 MB of the capped address space). Without
    a cap nothing is started.

    >>> watch_progress() if address_space_limit() is None else False
    False
    """
    if address_space_limit() is None:
        return False
    import threading

    # A small stack: the default (8 MB) is address space the capped work would lack.
    previous = threading.stack_size(256 * 1024)
    try:
        threading.Thread(target=_beat, name="understudy-heartbeat", daemon=True).start()
    except RuntimeError:  # no thread to give heartbeats: better no watch than a false alarm
        return False
    finally:
        threading.stack_size(previous)
    from understudy._core import watch_heartbeat

    return watch_heartbeat(seconds)


def _beat() -> None:
    import time

    from understudy._core import heartbeat

    while True:
        try:
            heartbeat()
            time.sleep(1.0)
        except MemoryError:  # the beat itself short of memory: the next one may pass
            continue


CAPPED_AT_START = address_space_limit() is not None
"""Whether the address space was capped when understudy was first imported."""
capped_blas_threads()


@contextlib.contextmanager
def threads_short_of_memory() -> Iterator[list[bool]]:
    """While inside, a thread that dies of MemoryError before it runs (Python prints "Exception
    ignored in thread started by" and goes on) is noted, not printed: the command's status says
    it (one line), and a run whose thread never ran never passes for a success.

    >>> with threads_short_of_memory() as failed:
    ...     pass
    >>> failed
    [False]
    """
    failed = [False]
    previous = sys.unraisablehook
    # The hook is a built-in method, not a Python function: calling a function needs a frame,
    # which is memory, and a hook that fails prints "Exception ignored in sys.unraisablehook".
    # The events are read once the command is done.
    events: collections.deque[Any] = collections.deque(maxlen=16)
    sys.unraisablehook = events.append
    try:
        yield failed
    finally:
        sys.unraisablehook = previous
        for unraisable in events:
            if isinstance(unraisable.exc_value, MemoryError):
                failed[0] = True
            else:
                previous(unraisable)


def out_of_memory(err: Exception, command: str) -> str | None:
    """The one line that says ``command`` ran out of memory: an allocation that failed in Python
    or NumPy (the Rust core's failures end the process with one line themselves), a thread that
    could not be started, or an extra imported lazily (matplotlib, SciPy) that the loader could
    not map; ``None`` for any other error.

    >>> out_of_memory(RuntimeError("can't start new thread"), "score")
    'out of memory while running score (a thread could not be started): give it more memory'
    >>> out_of_memory(RuntimeError("another"), "score") is None
    True
    """
    text = str(err)
    if isinstance(err, MemoryError):
        return f"out of memory while running {command}: give it more memory or less input at once"
    if isinstance(err, RuntimeError):
        if "can't start new thread" not in text:
            return None
        return f"out of memory while running {command} (a thread could not be started): give it more memory"
    if isinstance(err, ImportError) and "failed to map segment" not in text and "allocate" not in text:
        return None
    return f"out of memory while running {command} (loading a library failed: {text})"
