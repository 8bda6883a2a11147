"""What the command line says when something is wrong: one line, control characters escaped.

Light on purpose (the standard library and :mod:`understudy.errors` only): the command reports an
error before it has imported anything that could fail.

>>> print(printable("no such file: a\\nb"))
no such file: a\\x0ab
>>> CliError("bad flag", status=2).status
2
"""

from __future__ import annotations

import sys

from understudy.errors import UnderstudyError


class CliError(UnderstudyError):
    """A command-line usage problem: printed as one line, exits with ``status``."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


_UNSAFE = {
    code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    for code in [*range(0x20), *range(0x7F, 0xA0), *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
}


def printable(text: str) -> str:
    """``text`` with control and bidirectional-override characters escaped: a file name or a line
    of input quoted in a message can neither break the line nor reorder the terminal's text.

    >>> print(printable("a\\u202eb\\nc\\x1b[31m"))
    a\\u202eb\\x0ac\\x1b[31m
    """
    return text.translate(_UNSAFE)


def print_error(message: str) -> None:
    """One line on stderr: ``understudy: error: <message>``, control characters escaped."""
    sys.stderr.write(f"understudy: error: {printable(message)}\n")
