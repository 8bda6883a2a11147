"""Reading segment files: UTF-8, one segment per line, lines ending at ``\\n`` only.

Files are read whole (:func:`read_lines`) or a block at a time (:class:`LineReader`),
for files larger than memory; both decode with :func:`decode_lines`.

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

import csv
import gzip
import hashlib
import math
import os
import re
import sys
from collections.abc import Sequence
from os import PathLike, fspath
from types import TracebackType
from typing import IO, Any, cast

from understudy.errors import ConfigError, EmptyInputError, InputFileError

STDIN = "-"
"""The path that means standard input."""

_DIGESTS: dict[str, str] = {}


def digest_of(path: str | PathLike[str]) -> str | None:
    """The SHA-256 (hex) of the bytes this process read from ``path`` (``-``: standard input), to
    its end, the last time it read it whole; ``None`` if it has not. A record of what was scored
    is the hash of what was read: a pipe or a FIFO opened again reads nothing, or waits.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "hyp.txt")
    >>> _ = open(path, "wb").write(b"one\\n")
    >>> digest_of(path) is None, read_lines(path), digest_of(path) == hashlib.sha256(b"one\\n").hexdigest()
    (True, ['one'], True)
    """
    return _DIGESTS.get(fspath(path))


def digest_of_files(paths: Sequence[str]) -> str:
    """``sha256:`` of the bytes read from the files, in order (each file's :func:`digest_of`): what
    was scored, hashed as it was read; "" when one was not read whole, or no file is named.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "ref.txt")
    >>> _ = open(path, "wb").write(b"one\\n")
    >>> digest_of_files([path]), read_lines(path)
    ('', ['one'])
    >>> digest_of_files([path]) == "sha256:" + hashlib.sha256(bytes.fromhex(digest_of(path))).hexdigest()
    True
    """
    digest = hashlib.sha256()
    for path in paths:
        known = digest_of(path)
        if known is None:
            return ""
        digest.update(bytes.fromhex(known))
    return f"sha256:{digest.hexdigest()}" if paths else ""


def read_bytes(path: str) -> bytes:
    """A file's bytes (``-``: standard input; ``.gz`` decompressed), its SHA-256 noted (:func:`digest_of`)."""
    stream, raw = _open_binary(path)
    try:
        data = stream.read()
        _DIGESTS[path] = hashlib.sha256(data).hexdigest()
        return data
    except (OSError, EOFError) as err:
        raise InputFileError(f"{path}: cannot read: {err}") from err
    finally:
        if path != STDIN:
            stream.close()
            raw.close()


def read_text_file(path: str) -> str:
    """A whole small UTF-8 file (a BOM dropped) as text; an unreadable or undecodable file is an
    :class:`InputFileError` naming it."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            return fh.read()
    except OSError as err:
        raise InputFileError(f"{path}: cannot read: {err.strerror or err}") from None
    except UnicodeDecodeError as err:
        raise InputFileError(f"{path}: not UTF-8 ({err.reason} at byte {err.start})") from None


def finite_number(text: str, where: str) -> float:
    """``text`` as a finite float, or an :class:`InputFileError` saying ``where`` and why.

    >>> finite_number(" 0.5", "f:1")
    0.5
    """
    try:
        value = float(text)
    except ValueError:
        raise InputFileError(f"{where}: {text[:40]!r} is not a number") from None
    if not math.isfinite(value):
        raise InputFileError(f"{where}: {text[:40]!r} is not a finite number")
    return value


_SEGMENT_NUMBER = re.compile(r"[0-9]{1,18}")  # ASCII digits ("²" is a digit to str.isdigit); int64


def segment_number(text: str, where: str) -> int:
    """A segment number of a score table: ASCII digits, from 1 (an :class:`InputFileError`
    saying ``where`` and why otherwise).

    >>> segment_number(" 12", "f:3")
    12
    >>> segment_number("²", "f:3")
    Traceback (most recent call last):
    ...
    understudy.errors.InputFileError: f:3: segment '²' is not a segment number (a whole number from 1)
    """
    stripped = text.strip()
    if not _SEGMENT_NUMBER.fullmatch(stripped) or int(stripped) < 1:
        raise InputFileError(
            f"{where}: segment {text[:40]!r} is not a segment number (a whole number from 1)"
        )
    return int(stripped)


def table_rows(text: str, name: str, dialect: str, **options: Any) -> list[tuple[int, list[str]]]:
    """The CSV or TSV rows of ``text`` that hold anything, with their line numbers; a row the
    csv module refuses (a field over its 131,072-character limit, a stray quote) is an
    :class:`InputFileError` naming the file and line.

    >>> table_rows("a\\t1\\n\\nb\\t2\\n", "t.tsv", "excel-tab")
    [(1, ['a', '1']), (3, ['b', '2'])]
    """
    reader = csv.reader(text.splitlines(), dialect=dialect, **options)
    try:
        return [(k, row) for k, row in enumerate(reader, 1) if any(row)]
    except csv.Error as err:
        raise InputFileError(f"{name}:{reader.line_num}: not a table row ({err})") from None


def check_encoding(encoding: str) -> str:
    """``encoding`` if files in it can be read a line at a time: a known codec whose newline
    is the single byte 0x0A (UTF-8, Latin-1, CP1252, Shift_JIS, GB18030... but not UTF-16).

    >>> check_encoding("latin-1")
    'latin-1'
    >>> check_encoding("utf-16")
    Traceback (most recent call last):
    ...
    understudy.errors.ConfigError: encoding 'utf-16' is not one understudy reads: its newline is not the \
byte 0x0A (UTF-8, Latin-1, CP1252, Shift_JIS, GB18030 and the like are)
    """
    try:
        newline = "\n".encode(encoding)
    except LookupError:
        raise ConfigError(f"unknown encoding {encoding!r}") from None
    if newline != b"\n":
        raise ConfigError(
            f"encoding {encoding!r} is not one understudy reads: its newline is not the byte 0x0A "
            "(UTF-8, Latin-1, CP1252, Shift_JIS, GB18030 and the like are)"
        )
    return encoding


def decode_lines(
    data: bytes, name: str, first_line: int = 1, keep_bom: bool = False, encoding: str = "utf-8"
) -> list[str]:
    """Split ``data`` (UTF-8, or ``encoding``) into lines as :func:`read_lines` does.

    ``name`` and ``first_line`` (the number of the first line of ``data`` in its file)
    are used in errors; a byte-order mark is dropped only at the start of a file, and
    not at all with ``keep_bom`` (test-set files keep it, as sacrebleu does).
    """
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + first_line
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        what = "UTF-8" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
        raise InputFileError(
            f"{name}:{line}: invalid {what} (byte 0x{data[err.start]:02x} at byte column {column})"
        ) from None
    if first_line == 1 and not keep_bom:
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
    lines = decode_lines(read_bytes(name), "<stdin>" if name == STDIN else name)
    if not lines and not allow_empty:
        raise EmptyInputError(f"{'<stdin>' if name == STDIN else name}: empty input (no lines)")
    return lines


def _open_binary(path: str) -> tuple[IO[bytes], IO[bytes]]:
    """The stream to read and the raw file under it (whose position tells progress)."""
    try:
        if path == STDIN:
            if sys.stdin is None:  # the process was started with standard input closed
                raise InputFileError("<stdin>: standard input is closed")
            return sys.stdin.buffer, sys.stdin.buffer
        raw = open(path, "rb")  # noqa: SIM115 (closed by LineReader.close)
    except FileNotFoundError as err:
        raise InputFileError(f"{path}: no such file") from err
    except IsADirectoryError as err:
        raise InputFileError(f"{path}: is a directory, not a file") from err
    except PermissionError as err:
        raise InputFileError(f"{path}: permission denied") from err
    except OSError as err:
        raise InputFileError(f"{path}: cannot read: {err}") from err
    if path.endswith(".gz"):
        return cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb")), raw
    return raw, raw


class LineReader:
    """The lines of a file (``-`` for standard input), read and decoded a block at a time.

    Lines come out exactly as :func:`read_lines` gives them, but memory holds only
    one block (``block_size`` bytes) and the lines not yet taken.

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "hyp.txt")
    >>> _ = open(path, "wb").write(b"one\\ntwo\\nthree")
    >>> with LineReader(path, block_size=4) as reader:
    ...     reader.take(2), reader.take(5), reader.take(1)
    (['one', 'two'], ['three'], [])
    """

    def __init__(self, path: str | PathLike[str], block_size: int = 1 << 22, encoding: str = "utf-8") -> None:
        self.encoding = check_encoding(encoding)
        self.path = fspath(path)
        self.name = "<stdin>" if self.path == STDIN else self.path
        self._stream, self._raw = _open_binary(self.path)
        self._block_size = block_size
        self._pending: list[str] = []
        self._tail = b""
        self._next_line = 1
        self._eof = False
        self._digest = hashlib.sha256()
        self.lines_taken = 0
        """Lines handed out so far."""
        self.total_bytes: int | None = None
        """The file's size on disk (compressed for ``.gz``), when known."""
        if self.path != STDIN and os.path.isfile(self.path):
            self.total_bytes = os.path.getsize(self.path)

    @property
    def bytes_read(self) -> int:
        """Bytes of the file (as stored) read so far."""
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return 0

    def _read_block(self) -> None:
        try:
            block = self._stream.read(self._block_size)
        except (OSError, EOFError) as err:
            raise InputFileError(f"{self.name}: cannot read: {err}") from err
        data = self._tail + block
        self._digest.update(block)
        if not block:
            self._eof = True
            self._tail = b""
            _DIGESTS[self.path] = self._digest.hexdigest()
        else:
            cut = data.rfind(b"\n") + 1
            data, self._tail = data[:cut], data[cut:]
        if data:
            lines = decode_lines(data, self.name, self._next_line, encoding=self.encoding)
            self._next_line += len(lines)
            self._pending.extend(lines)

    def take(self, n: int) -> list[str]:
        """The next ``n`` lines, fewer at the end of the file."""
        while len(self._pending) < n and not self._eof:
            self._read_block()
        taken, self._pending = self._pending[:n], self._pending[n:]
        self.lines_taken += len(taken)
        return taken

    def count_all(self) -> int:
        """The file's total number of lines (reading the rest without keeping it)."""
        total = self.lines_taken + len(self._pending)
        self._pending = []
        while not self._eof:
            self._read_block()
            total += len(self._pending)
            self._pending = []
        self.lines_taken = total
        return total

    def close(self) -> None:
        """Close the file (standard input stays open)."""
        if self.path != STDIN:
            self._stream.close()
            self._raw.close()

    def __enter__(self) -> LineReader:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class ListReader:
    """Lines already in memory behind :class:`LineReader`'s interface (test-set references).

    >>> reader = ListReader(["a", "b", "c"], "wmt17 en-de (ref)")
    >>> reader.take(2), reader.count_all()
    (['a', 'b'], 3)
    """

    total_bytes: int | None = None
    bytes_read = 0

    def __init__(self, lines: list[str], name: str) -> None:
        self.path = self.name = name
        self._lines = lines
        self.lines_taken = 0

    def take(self, n: int) -> list[str]:
        """The next ``n`` lines, fewer at the end."""
        taken = self._lines[self.lines_taken : self.lines_taken + n]
        self.lines_taken += len(taken)
        return taken

    def count_all(self) -> int:
        """The total number of lines."""
        self.lines_taken = len(self._lines)
        return self.lines_taken

    def close(self) -> None:
        """Nothing to close."""


__all__ = [
    "STDIN",
    "LineReader",
    "ListReader",
    "check_encoding",
    "decode_lines",
    "digest_of",
    "finite_number",
    "read_lines",
    "read_text_file",
    "segment_number",
    "table_rows",
]
