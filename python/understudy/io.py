"""Reading segment files: UTF-8, one segment per line, lines ending at ``\\n`` only.

A byte-order mark at the start is dropped, a ``\\r`` before the ``\\n`` belongs to the
line end, and every other character (U+2028, form feed, ...) is text. ``.gz`` files
are decompressed on the fly. Errors name the file and, for bad UTF-8, the line.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "hyp.txt")
>>> _ = open(path, "wb").write("\\ufeffone\\r\\ntwo\\u2028half\\n".encode())
>>> read_lines(path)
['one', 'two\\u2028half']
"""

from __future__ import annotations

import gzip
import sys
from os import PathLike, fspath

from understudy.errors import EmptyInputError, InputFileError

STDIN = "-"
"""The path that means standard input."""


def _read_bytes(path: str) -> bytes:
    try:
        if path == STDIN:
            return sys.stdin.buffer.read()
        if path.endswith(".gz"):
            with gzip.open(path, "rb") as fh:
                return fh.read()
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError as err:
        raise InputFileError(f"{path}: no such file") from err
    except IsADirectoryError as err:
        raise InputFileError(f"{path}: is a directory, not a file") from err
    except PermissionError as err:
        raise InputFileError(f"{path}: permission denied") from err
    except (OSError, EOFError) as err:
        raise InputFileError(f"{path}: cannot read: {err}") from err


def decode_lines(data: bytes, name: str) -> list[str]:
    """Split UTF-8 ``data`` into lines as :func:`read_lines` does; ``name`` is used in errors."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise InputFileError(
            f"{name}:{line}: invalid UTF-8 (byte 0x{data[err.start]:02x} at byte column {column})"
        ) from None
    text = text.removeprefix("\ufeff")
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def read_lines(path: str | PathLike[str], allow_empty: bool = False) -> list[str]:
    """The lines of a file (``-`` for standard input), decoded and without line ends.

    Raises :class:`~understudy.errors.InputFileError` for a missing or unreadable
    file or bad UTF-8, and :class:`~understudy.errors.EmptyInputError` for a file
    with no lines at all unless ``allow_empty``.
    """
    name = fspath(path)
    lines = decode_lines(_read_bytes(name), "<stdin>" if name == STDIN else name)
    if not lines and not allow_empty:
        raise EmptyInputError(f"{'<stdin>' if name == STDIN else name}: empty input (no lines)")
    return lines
