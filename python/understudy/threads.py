"""How many threads the Rust core uses: an argument, else ``UNDERSTUDY_THREADS``, else every core.

A count above the cores this process may use is capped to them, with a
:class:`ThreadsCappedWarning`: more threads than cores only add overhead (and each
count keeps a pool of threads alive). Results never depend on the thread count.

In a process forked from one that has already used threads (``multiprocessing`` with
the fork start method), the core runs on one thread, whatever is asked, because the
parent's threads do not exist there.

>>> resolve_threads(1)
1
>>> resolve_threads(None) >= 1
True
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass

from understudy.config import Declared, option
from understudy.errors import ConfigError


class ThreadsCappedWarning(UserWarning):
    """More threads were asked for than this process has cores; the cores were used."""


THREADS_ENV = "UNDERSTUDY_THREADS"
"""Environment variable with the default thread count (0 or unset: every available core)."""


@dataclass(frozen=True)
class ThreadsAsked(Declared):
    """``-j/--threads``, as the commands take it (:func:`resolve_threads` reads it)."""

    threads: int | None = option(
        None,
        flags=("-j", "--threads"),
        type=int,
        metavar="N",
        help=f"cores to use, at most the available ones (default: ${THREADS_ENV}, else all; "
        "results are identical for any N)",
    )


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS reports it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def resolve_threads(threads: int | None) -> int:
    """The thread count to use: ``threads`` if given, else ``$UNDERSTUDY_THREADS``, else all cores.

    0 means every available core; more than the available cores means all of them (with
    a :class:`ThreadsCappedWarning`). Raises :class:`~understudy.errors.ConfigError` for
    a negative count or an environment value that is not a whole number.
    """
    source = "threads"
    if threads is None:
        value = os.environ.get(THREADS_ENV, "").strip()
        if not value:
            return available_cores()
        source = THREADS_ENV
        try:
            threads = int(value)
        except ValueError:
            raise ConfigError(f"{THREADS_ENV}={value!r} is not a whole number of threads") from None
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise ConfigError(f"threads must be an integer, not {type(threads).__name__}")
    if threads < 0:
        raise ConfigError(f"{source} must be 0 (every core) or more, got {threads}")
    cores = available_cores()
    if threads > cores:
        warnings.warn(
            f"{source}={threads} is more than the {cores} cores available: using {cores}",
            ThreadsCappedWarning,
            stacklevel=3,
        )
        return cores
    return threads or cores
