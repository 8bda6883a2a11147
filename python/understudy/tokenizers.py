"""Tokenization as BLEU sees it, for inspection and debugging (the work is done in Rust).

>>> tokenize(["Hello, world!", "U.S.A. in 1990."])
['Hello , world !', 'U . S . A . in 1990 .']
>>> tokenize(["It's 1990."], "intl")
["It ' s 1990."]
"""

from __future__ import annotations

from collections.abc import Sequence

from understudy import _core
from understudy._text import explaining_bad_text
from understudy.config import TOKENIZERS, BLEUConfig
from understudy.errors import InputTypeError


def tokenize(lines: Sequence[str], tokenizer: str = "13a", lowercase: bool = False) -> list[str]:
    """Tokenize each line (lowercase, right-strip, tokenize), tokens joined by one space."""
    BLEUConfig(tokenize=tokenizer)  # validates the name with a clear error
    if isinstance(lines, str):
        raise InputTypeError("lines must be a sequence of strings, not a single string")
    lines = list(lines)
    with explaining_bad_text("lines", [lines]):
        return list(_core.tokenize(lines, tokenizer, lowercase))


__all__ = ["TOKENIZERS", "tokenize"]
