"""Writing a command's output: UTF-8 on standard output whatever the locale (tables are in
:mod:`understudy.cli.table`)."""

from __future__ import annotations

import sys
from typing import BinaryIO

from understudy.cli.messages import CliError
from understudy.files.atomic import atomic_write


def stdout() -> BinaryIO:
    """Standard output's bytes, or a :class:`CliError` when the process has none."""
    if sys.stdout is None:
        raise CliError("standard output is closed")
    return sys.stdout.buffer


def encode(text: str) -> bytes:
    """``text`` as UTF-8; file names that were not UTF-8 go back to their own bytes."""
    return text.encode("utf-8", "surrogateescape")


def write(text: str) -> None:
    """Write ``text`` and a newline to stdout as UTF-8, whatever the locale."""
    out = stdout()
    out.write(encode(text) + b"\n")
    out.flush()


def write_out(path: str | None, data: bytes) -> None:
    """``data`` to standard output (no ``path``), or to the file at ``path``, whole or not at all."""
    if path is None:
        stdout().write(data)
        return
    try:
        with atomic_write(path) as out:
            out.write(data)
    except OSError as err:
        raise CliError(f"{path}: cannot write: {err.strerror or err}") from err
