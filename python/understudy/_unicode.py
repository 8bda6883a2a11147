"""Turning Python strings the Rust core cannot hold into a clear, typed error.

Python strings may contain lone surrogates (U+D800..U+DFFF); Rust strings, like
UTF-8 files, cannot. Text read from files never has them, so meeting one means the
caller built invalid text, and the error names where.

>>> try:
...     with rejecting_surrogates("hypotheses", [["ok", "bad \\ud800"]]):
...         _ = "bad \\ud800".encode()
... except InputError as err:
...     print(err)
hypotheses: segment 2 contains a lone surrogate U+D800, which is not valid Unicode text
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from understudy.errors import InputError


def _describe(what: str, streams: Sequence[Sequence[str | None]]) -> str:
    for k, stream in enumerate(streams):
        for i, text in enumerate(stream):
            bad = next((c for c in text or "" if "\ud800" <= c <= "\udfff"), None)
            if bad is not None:
                where = f"stream {k + 1}, segment {i + 1}" if len(streams) > 1 else f"segment {i + 1}"
                return f"{what}: {where} contains a lone surrogate U+{ord(bad):04X}"
    return f"{what}: text that cannot be encoded as UTF-8"


@contextmanager
def rejecting_surrogates(what: str, streams: Sequence[Sequence[str | None]]) -> Iterator[None]:
    """Re-raise a failure to encode ``streams`` as an :class:`InputError` naming the segment."""
    try:
        yield
    except UnicodeEncodeError:
        raise InputError(_describe(what, streams) + ", which is not valid Unicode text") from None
