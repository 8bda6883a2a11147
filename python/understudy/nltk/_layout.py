"""NLTK's input layout as understudy's: a list of references per hypothesis, tokens as given."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from understudy.errors import LengthMismatchError

Tokens = Sequence[Any]
"""One sentence as NLTK takes it: a list of tokens (a string is a sequence of characters)."""


def as_tokens(sentence: Tokens) -> Tokens:
    """``sentence`` as a token list: NLTK iterates what it is given, so a string is its characters.

    >>> as_tokens("ab"), as_tokens(["ab"])
    (['a', 'b'], ['ab'])
    """
    return list(sentence) if isinstance(sentence, str) else sentence


def streams(
    list_of_references: Sequence[Sequence[Any]],
    n_hypotheses: int,
    convert: Callable[[Any], Any] = as_tokens,
) -> list[list[Any]]:
    """NLTK's references (``list_of_references[i]``: every reference of segment i) as understudy's
    reference streams (``streams[k][i]``: the k-th reference of segment i, ``None`` where it has
    fewer), each reference passed through ``convert`` (by default NLTK's reading of a string).

    >>> streams([[["a"], ["b"]], [["c"]]], 2)
    [[['a'], ['c']], [['b'], None]]
    >>> streams([["a b", "c"]], 1, convert=str.split)
    [[['a', 'b']], [['c']]]
    """
    if len(list_of_references) != n_hypotheses:
        raise LengthMismatchError(
            f"{n_hypotheses} hypotheses but {len(list_of_references)} lists of references"
        )
    width = max((len(refs) for refs in list_of_references), default=0)
    return [
        [convert(refs[k]) if k < len(refs) else None for refs in list_of_references] for k in range(width)
    ]
