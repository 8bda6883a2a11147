"""Unicode normalisation of text before a metric tokenizes it (``--normalize-unicode``).

Every text family has the option (:class:`~understudy.config.TextConfig`); the metric
object applies it to hypotheses and references alike, before any tokenizer (the core's
or MeCab's). The forms follow the core's pinned Unicode version
(:data:`~understudy.config.UNICODE_VERSION`), not the interpreter's ``unicodedata``, so a
score never depends on the Python it ran under.

>>> normalize(["cafe\\u0301", None], "nfc")
['café', None]
>>> normalize(["\\ufb01ne \\uff21\\uff22"], "nfkc")
['fine AB']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from understudy import _core
from understudy.config import UNICODE_FORMS
from understudy.errors import ConfigError
from understudy.text.bad_text import explaining_bad_text

T = TypeVar("T", str, str | None)


def normalize(lines: Sequence[T], form: str) -> list[T]:
    """``lines`` in Unicode normalisation ``form`` (``none``, ``nfc``, ``nfkc``); ``None`` (a
    missing reference) stays ``None``, and a line already in the form is the same object."""
    if form not in UNICODE_FORMS:
        raise ConfigError(f"unknown Unicode normalisation {form!r}; known: {', '.join(UNICODE_FORMS)}")
    if form == "none":
        return list(lines)
    with explaining_bad_text("lines", [lines], allow_none=True):
        return _core.text.normalize(list(lines), form)


__all__ = ["normalize"]
