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
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from typing import BinaryIO


def _umask() -> int:
    # The umask can only be read by setting it; set it straight back.
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_write(path: str | PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file handle whose content replaces ``path`` only if the block completes."""
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
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
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
