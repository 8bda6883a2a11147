"""Tokenization as BLEU sees it, for inspection and debugging (the work is done in Rust,
after MeCab or SentencePiece for the tokenizers that call those libraries).

>>> tokenize(["Hello, world!", "U.S.A. in 1990."])
['Hello , world !', 'U . S . A . in 1990 .']
>>> tokenize(["It's 1990."], "intl")
["It ' s 1990."]
>>> tokenize(["今日は良い天気です。"], "ja-mecab")
['今日 は 良い 天気 です 。']
"""

from __future__ import annotations

from collections.abc import Sequence

from understudy import _core
from understudy.errors import InputTypeError
from understudy.metrics.bleu import PYTHON_TOKENIZERS, TOKENIZERS, BLEUConfig
from understudy.text.bad_text import explaining_bad_text
from understudy.text.external_tokenizers import canonical, external_tokenizer, pretokenize
from understudy.text.normalization import normalize


def tokenize(
    lines: Sequence[str], tokenizer: str = "13a", lowercase: bool = False, normalize_unicode: str = "none"
) -> list[str]:
    """Tokenize each line (normalise, lowercase, right-strip, tokenize), tokens joined by one space.

    >>> tokenize(["\\ufb01ne \\uff21\\uff22"], "13a", normalize_unicode="nfkc")
    ['fine AB']
    """
    tokenizer = canonical(tokenizer)
    BLEUConfig(tokenize=tokenizer, normalize_unicode=normalize_unicode)  # a clear error for a bad name
    if isinstance(lines, str):
        raise InputTypeError("lines must be a sequence of strings, not a single string")
    lines = normalize(list(lines), normalize_unicode)
    if tokenizer in PYTHON_TOKENIZERS:
        # The library's tokens, then the core's whitespace split, as BLEU sees them.
        lines = pretokenize(lines, external_tokenizer(tokenizer), lowercase)
        tokenizer, lowercase = "none", False
    with explaining_bad_text("lines", [lines]):
        return list(_core.text.tokenize(lines, tokenizer, lowercase))


__all__ = ["TOKENIZERS", "tokenize"]
