"""Writing the site: every page into a new folder beside the target, then that folder swapped
into place in one rename, so a web server serving the target never shows half a site, and an
error or Ctrl-C part-way leaves the previous site as it was.

A folder that holds something other than a site this package wrote is never replaced: the site
marks its folder with a file, ``.understudy-site``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import multiprocessing
import os
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from understudy.errors import OutputError, UnderstudyError
from understudy.files.atomic import _umask
from understudy.site.model import Planned, Ranked, Settings, TestSet, finish, plan, rank
from understudy.site.pages import index_page, record_page, testset_page
from understudy.threads import available_cores

if TYPE_CHECKING:
    from understudy.ledger import Ledger

MARK = ".understudy-site"
"""The file that marks a folder as a site this package wrote (and may replace)."""

Progress = Callable[[int, int], None]
"""Called with the pages written so far and the number to write."""


@dataclass(frozen=True)
class Built:
    """What a build wrote: test sets, records, and pages (index, test sets' and records')."""

    testsets: int
    records: int
    pages: int


def build_site(
    ledger: Ledger,
    out: str | PathLike[str],
    settings: Settings | None = None,
    progress: Progress | None = None,
) -> Built:
    """Write the site of ``ledger``'s records (those ``settings`` selects) to the folder ``out``,
    replacing the site there, atomically (see :mod:`understudy.site`'s example). Columns are
    ranked into clusters in worker processes (``settings.processes``) while the record pages are
    written here."""
    settings = settings or Settings()
    # A link (to a web server's folder, say) is followed: the folder it names is swapped, the
    # link kept; swapping the link itself would leave that folder stale.
    target = Path(os.path.realpath(out))
    _check_target(target)
    planned = plan(ledger, settings)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        pages = _Pages(staging, 1 + sum(1 + len(p.records) for p in planned), progress)
        jobs = sum(len(p.to_cluster()) for p in planned)
        with _ranker(settings, jobs) as pool:
            testsets = _ranked(ledger, planned, settings, pool, pages)
        for testset in testsets:
            pages.write(f"testsets/{testset.slug}.html", testset_page(testset, settings))
        pages.write("index.html", index_page(testsets, ledger.location, settings))
        (staging / MARK).write_text("A site written by understudy: `understudy site` replaces it whole.\n")
        os.chmod(staging, 0o777 & ~_umask())  # mkdtemp's 0o700 would hide the site from a web server
        _swap_in(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Built(len(testsets), sum(len(t.records) for t in testsets), pages.done)


def _check_target(target: Path) -> None:
    if not target.parent.is_dir():
        raise OutputError(f"cannot write the site to {target}: its folder {target.parent} does not exist")
    if target.exists() and not target.is_dir():
        raise OutputError(f"cannot write the site to {target}: it is a file, not a folder")
    if target.is_dir() and any(target.iterdir()) and not (target / MARK).exists():
        raise OutputError(
            f"{target} holds files that are not a site understudy wrote: give a new folder or an earlier"
            " site's (it is replaced whole)"
        )


class _Pages:
    """Writes pages into the new site's folder, counting them for the progress bar."""

    def __init__(self, folder: Path, total: int, progress: Progress | None) -> None:
        self.folder, self.total, self.progress, self.done = folder, total, progress, 0
        (folder / "testsets").mkdir()
        (folder / "records").mkdir()

    def write(self, name: str, html: str) -> None:
        (self.folder / name).write_text(html, encoding="utf-8")
        self.done += 1
        if self.progress is not None and (self.done % 200 == 0 or self.done == self.total):
            self.progress(self.done, self.total)


def _ranked(
    ledger: Ledger, planned: list[Planned], settings: Settings, pool: Executor, pages: _Pages
) -> list[TestSet]:
    """Each test set with its clusters: its columns handed to ``pool`` while its record pages are
    written, at most two test sets' statistics in flight (memory stays bounded)."""
    waiting: deque[tuple[Planned, dict[str, Future[Ranked]]]] = deque()
    done = []
    for testset in planned:
        futures = {
            sig: pool.submit(rank, blobs, names, settings)
            for sig, blobs, names in testset.columns_to_rank(ledger)
        }
        waiting.append((testset, futures))
        for record in testset.records:
            pages.write(f"records/{record.id}.html", record_page(record, testset.name, testset.slug))
        while len(waiting) > 1 or (waiting and testset is planned[-1]):
            ready, mine = waiting.popleft()
            done.append(finish(ready, {sig: _result(future) for sig, future in mine.items()}))
    return done


def _result(future: Future[Ranked]) -> Ranked:
    try:
        return future.result()
    except BrokenProcessPool:
        raise UnderstudyError(
            "a worker process ranking the clusters died (out of memory?): run with --processes 1"
        ) from None


class _Here(Executor):
    """Runs each call at once, in this process: a small site is not worth starting processes for."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


PARALLEL_FROM = 12
"""Columns to rank from which worker processes pay for their start (about a second)."""


@contextmanager
def _ranker(settings: Settings, jobs: int) -> Iterator[Executor]:
    """Where columns are ranked: here for a small site, else worker processes, each with one BLAS
    thread (two workers each running a thread a core would fight over the cores)."""
    processes = settings.processes
    if processes is None:
        processes = available_cores() if jobs >= PARALLEL_FROM else 1
    if processes <= 1 or jobs < 2:
        yield _Here()
        return
    # spawn, not fork: a fork of a process holding BLAS or SQLite threads can hang.
    context = multiprocessing.get_context("spawn")
    chosen = {name: os.environ.get(name) for name in _BLAS_THREADS}
    for name in _BLAS_THREADS:
        os.environ.setdefault(name, "1")  # read by each worker as NumPy loads there
    try:
        with ProcessPoolExecutor(max_workers=min(processes, jobs), mp_context=context) as pool:
            try:
                yield pool
            except BaseException:
                # Ctrl-C or an error: the columns not started are dropped, not waited for.
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        for name, value in chosen.items():
            if value is None:
                os.environ.pop(name, None)


_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""What BLAS libraries read for their thread count (a user's own setting is kept)."""


def _swap_in(staging: Path, target: Path) -> None:
    """``staging`` in ``target``'s place: one rename when there is none; else the two exchanged
    in one step where the system can (Linux), else moved aside then in, and the old removed."""
    if not target.exists():
        os.rename(staging, target)
        return
    if _exchange(staging, target):
        shutil.rmtree(staging)  # now the old site
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
    os.rename(target, old / "site")
    os.rename(staging, target)
    shutil.rmtree(old)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically with ``renameat2(RENAME_EXCHANGE)``; False where there is none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    libc = ctypes.CDLL(name, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    at_fdcwd, rename_exchange = -100, 2
    # Non-zero on a file system without the exchange: the two renames instead.
    return bool(renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0)


__all__ = ["MARK", "Built", "Progress", "build_site"]
