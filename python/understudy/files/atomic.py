"""Atomic file writes: a temporary file in the same folder, renamed into place when complete.

A full disk, an error or Ctrl-C part-way leaves the previous file (or none), never a
partial one.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
>>> with atomic_write(path) as fh:
...     _ = fh.write(b"done")
>>> open(path, "rb").read()
b'done'
>>> oct(os.stat(path).st_mode & 0o777) == oct(0o666 & ~_umask())
True
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from typing import BinaryIO

from understudy.errors import OutputError


def _umask() -> int:
    # The umask can only be read by setting it; set it straight back.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_write(path: str | PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file handle whose content replaces ``path`` only if the block completes.

    A symbolic link is followed: its target is replaced, the link kept. What is not a regular
    file is written through, as a shell's ``>`` does: a FIFO or a character device (``/dev/null``,
    ``/dev/stdout``) is opened and written, never replaced. So is the file behind standard output
    or standard error (``-o /dev/stdout`` while they go ``>> log``): it is written through that
    stream's descriptor, appended where the shell appends, so the log before it is kept. A folder,
    a socket or a block device is refused (``OutputError``), as is a missing folder.
    """
    target = writable(path)
    stream = _standard_stream(target)
    if stream is not None:
        buffer = io.BytesIO()
        yield buffer
        _write_through(stream, buffer.getvalue(), os.fspath(path))
        return
    if _kind(target) in ("fifo", "character device"):
        # Written at the end, in one go: nothing reaches the reader if the block fails, and
        # writers that seek (zip files) work on a pipe too.
        buffer = io.BytesIO()
        yield buffer
        try:
            with open(target, "wb") as through:
                through.write(buffer.getbuffer())
        except OSError as err:  # a full device: name it, not standard output
            raise OutputError(f"{os.fspath(path)}: cannot write: {err.strerror or err}") from err
        return
    yield from _replacing(target)


def writable(path: str | PathLike[str]) -> str:
    """The file :func:`atomic_write` would write for ``path`` (a link's target), checked before
    any work: an ``OutputError`` when it is a folder, a socket or a block device, or when its
    folder is missing or not writable."""
    name = os.fspath(path)
    target = os.path.realpath(name)
    kind = _kind(target)
    if kind in ("fifo", "character device"):
        return target
    if kind is not None:
        raise OutputError(f"{name}: cannot write a file over a {kind}")
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise OutputError(f"{name}: no such folder: {folder}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{name}: the folder {folder} is not writable")
    return target


def _standard_stream(target: str) -> int | None:
    """The descriptor of standard output or error when ``target`` is the regular file behind it."""
    try:
        wanted = os.stat(target)
    except OSError:
        return None
    for fd in (1, 2):
        try:
            found = os.fstat(fd)
        except OSError:
            continue
        if stat.S_ISREG(found.st_mode) and os.path.samestat(found, wanted):
            return fd
    return None


def _write_through(fd: int, data: bytes, name: str) -> None:
    """All of ``data`` to the open descriptor ``fd``, after what Python's own stream holds."""
    import sys

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed or replaced stream has nothing to flush
            stream.flush()
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(fd, view) :]
    except OSError as err:
        raise OutputError(f"{name}: cannot write: {err.strerror or err}") from err


def _kind(target: str) -> str | None:
    """What ``target`` is when it exists and is not a regular file."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return None
    kinds = {
        stat.S_ISDIR: "folder",
        stat.S_ISFIFO: "fifo",
        stat.S_ISCHR: "character device",
        stat.S_ISBLK: "block device",
        stat.S_ISSOCK: "socket",
    }
    return next((name for test, name in kinds.items() if test(mode)), None)


def _replacing(target: str) -> Iterator[BinaryIO]:
    folder = os.path.dirname(target)
    import tempfile  # on first write: it loads random and hashlib, which start-up need not pay for

    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    try:
        # mkstemp makes the file private (0600); the result gets the mode a plain open() would
        # give it, or keeps the one of the file it replaces.
        try:
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            mode = 0o666 & ~_umask()
        os.chmod(temp, mode)
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, target)
    except BaseException as err:
        # Ctrl-C and (in the command line) SIGTERM arrive here as exceptions: nothing is left.
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        if isinstance(err, OSError) and not isinstance(err, OutputError) and err.filename is None:
            # A full disk while writing: name the file, not standard output.
            raise OutputError(f"{target}: cannot write: {err.strerror or err}") from err
        raise
