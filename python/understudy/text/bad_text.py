"""Turning text the Rust core cannot take into a clear, typed error naming the segment.

The core takes lists of ``str``. Checking every element in Python first would cost
more than scoring, so the core's own refusal is caught and explained instead:

- an element that is not a string (``TypeError``, naming the stream and segment);
- a lone surrogate (U+D800..U+DFFF): Python strings may hold one, Rust strings and
  UTF-8 files cannot, so meeting one means the caller built invalid text
  (:class:`~understudy.errors.InputError`).

>>> try:
...     with explaining_bad_text("hypotheses", [["ok", "bad \\ud800"]]):
...         _ = "bad \\ud800".encode()
... except InputError as err:
...     print(err)
hypotheses: segment 2 contains a lone surrogate U+D800, which is not valid Unicode text
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from understudy.errors import InputError, InputTypeError


def _where(k: int, i: int, n_streams: int) -> str:
    return f"stream {k + 1}, segment {i + 1}" if n_streams > 1 else f"segment {i + 1}"


def _describe_surrogate(what: str, streams: Sequence[Sequence[object]]) -> str | None:
    for k, stream in enumerate(streams):
        for i, text in enumerate(stream):
            if not isinstance(text, str):
                continue
            bad = next((c for c in text if "\ud800" <= c <= "\udfff"), None)
            if bad is not None:
                return f"{what}: {_where(k, i, len(streams))} contains a lone surrogate U+{ord(bad):04X}"
    return None


def _describe_type(what: str, streams: Sequence[Sequence[object]], allow_none: bool) -> str | None:
    for k, stream in enumerate(streams):
        for i, text in enumerate(stream):
            if not isinstance(text, str) and not (allow_none and text is None):
                return f"{what}: {_where(k, i, len(streams))} is {type(text).__name__}, not str"
    return None


@contextmanager
def explaining_bad_text(
    what: str, streams: Sequence[Sequence[object]], allow_none: bool = False
) -> Iterator[None]:
    """Re-raise the core's refusal of ``streams`` with a message naming the segment.

    When the fault is not in ``streams`` the error passes on unchanged (to an enclosing
    context for other streams of the same call).
    """
    try:
        yield
    except UnicodeEncodeError:
        message = _describe_surrogate(what, streams)
        if message is None:
            raise
        raise InputError(message + ", which is not valid Unicode text") from None
    except TypeError as err:
        described = _describe_type(what, streams, allow_none)
        if described is None:
            raise
        raise InputTypeError(described) from err
