"""Atomic file writes: a temporary file in the same folder, renamed into place when complete.

A full disk, an error or Ctrl-C part-way leaves the previous file (or none), never a
partial one.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
>>> with atomic_write(path) as fh:
...     _ = fh.write(b"done")
>>> open(path, "rb").read()
b'done'
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike
from typing import BinaryIO


@contextmanager
def atomic_write(path: str | PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file handle whose content replaces ``path`` only if the block completes."""
    target = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(target))
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
