"""NLTK's ``nltk.translate.chrf_score``: its chrF, counted by understudy.

NLTK's chrF is not sacrebleu's: it averages the F-scores of each order and segment (a
macro average), where sacrebleu sums the counts first, and an order with nothing to count
scores ``epsilon`` (1e-16). The character n-gram counts come from understudy's chrF rows
(``[hyp, ref, match]`` per order, whitespace removed as both remove it); the arithmetic below is
NLTK's, in its order, so the numbers are NLTK's bit for bit. A list of tokens is joined by
spaces first, as NLTK joins it.

>>> sentence_chrf("the cat", "the cat")
1.0
>>> p, r, f, tp = chrf_precision_recall_fscore_support("ab", "abc", 1)
>>> p, r, tp  # 2 of the 3 hypothesis characters, both reference characters
(0.6666666666666666, 1.0, 2)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from understudy.errors import LengthMismatchError
from understudy.metrics.chrf import CHRF
from understudy.nltk._layout import Tokens, as_tokens
from understudy.nltk.bleu_score import modified_precision

EPSILON = 1e-16
"""What NLTK scores an order with no n-grams on one side."""


@functools.lru_cache(maxsize=64)
def _metric(max_len: int, whitespace: bool) -> CHRF:
    return CHRF(char_order=max_len, word_order=0, whitespace=whitespace)


def _text(sentence: str | Tokens) -> str:
    return sentence if isinstance(sentence, str) else " ".join(sentence)


def _counts(
    references: Sequence[str | Tokens],
    hypotheses: Sequence[str | Tokens],
    max_len: int,
    ignore_whitespace: bool,
) -> NDArray[np.int64]:
    """Each segment's ``(hyp, ref, match)`` per order 1..max_len: shape (segments, orders, 3)."""
    if len(references) != len(hypotheses):
        raise LengthMismatchError(f"{len(hypotheses)} hypotheses but {len(references)} references")
    metric = _metric(max_len, not ignore_whitespace)
    hyps = [_text(h) for h in hypotheses]
    rows = metric.segment_stats(hyps, [[_text(r) for r in references]]).rows
    return rows.reshape(len(hyps), max_len, 3)


def _fscores(counts: NDArray[np.int64], beta: float, epsilon: float) -> NDArray[np.float64]:
    """NLTK's F-score of each count triple, ``epsilon`` where a division is by zero."""
    tpfp, tpfn, tp = (counts[..., k].astype(np.float64) for k in range(3))
    factor = beta**2
    with np.errstate(divide="ignore", invalid="ignore"):
        prec, rec = tp / tpfp, tp / tpfn
        fscore = (1 + factor) * (prec * rec) / (factor * prec + rec)
    # NLTK catches the ZeroDivisionError of any of the three divisions (no matches: 0 / 0).
    undefined = (tpfp == 0) | (tpfn == 0) | (tp == 0)
    return np.where(undefined, epsilon, fscore)


def chrf_precision_recall_fscore_support(
    reference: str | Tokens, hypothesis: str | Tokens, n: int, beta: float = 3.0, epsilon: float = EPSILON
) -> tuple[float, float, float, int]:
    """Precision, recall, F-score and matches of the ``n``-grams of the sequences as given (a string's
    characters, whitespace kept; a list's tokens), as NLTK's function of that name computes them:
    ``epsilon`` for all three when one is undefined."""
    hyp, ref = as_tokens(hypothesis), as_tokens(reference)
    row = modified_precision([ref], hyp, n)
    tp, tpfp, tpfn = row.numerator, max(0, len(hyp) - n + 1), max(0, len(ref) - n + 1)
    if tpfp == 0 or tpfn == 0 or tp == 0:
        return epsilon, epsilon, epsilon, tp
    return tp / tpfp, tp / tpfn, float(_fscores(np.array([tpfp, tpfn, tp]), beta, epsilon)), tp


def corpus_chrf(
    references: Sequence[str | Tokens],
    hypotheses: Sequence[str | Tokens],
    min_len: int = 1,
    max_len: int = 6,
    beta: float = 3.0,
    ignore_whitespace: bool = True,
) -> float:
    """NLTK's corpus chrF: the mean over orders ``min_len..max_len`` and segments of the F-scores.

    >>> corpus_chrf(["ab"], ["ab"], max_len=2)
    1.0
    """
    counts = _counts(references, hypotheses, max_len, ignore_whitespace)[:, min_len - 1 : max_len]
    fscores = _fscores(counts, beta, EPSILON)
    # Python's sums, left to right, as NLTK adds: per order over segments, then over orders.
    totals: list[float] = [sum(fscores[:, k].tolist()) for k in range(fscores.shape[1])]
    return sum(totals) / len(totals) / len(hypotheses)


def sentence_chrf(
    reference: str | Tokens,
    hypothesis: str | Tokens,
    min_len: int = 1,
    max_len: int = 6,
    beta: float = 3.0,
    ignore_whitespace: bool = True,
) -> float:
    """NLTK's sentence chrF: :func:`corpus_chrf` of one pair (one reference)."""
    return corpus_chrf([reference], [hypothesis], min_len, max_len, beta, ignore_whitespace)


__all__ = ["chrf_precision_recall_fscore_support", "corpus_chrf", "sentence_chrf"]
