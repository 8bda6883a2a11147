"""NLTK's ``nltk.translate.bleu_score``, counted by understudy: the same functions, arguments and numbers.

NLTK's BLEU differs from sacrebleu's by convention, not by counting: it scores tokens as given
(any strings or integers; a string hypothesis is a sequence of characters), counts at least
one n-gram per sentence in each precision's denominator, keeps zero precisions as
``sys.float_info.min`` (about 1e-154 for BLEU, not 0) with a warning, takes any weights (several
tuples at once, non-uniform) and has the smoothing methods 0-7 of Chen and Cherry (2014). The
n-gram counts come from understudy's statistics rows (:meth:`understudy.BLEU.segment_stats` on
token input); the arithmetic below is NLTK's, operation by operation, so every number is NLTK's
bit for bit. Two of its quirks are kept because they change numbers: in :func:`corpus_bleu`,
smoothing methods 4-7 see the *last* segment's hypothesis and references, and method 5 always
adds the 5-gram precision, whatever the weights' length.

>>> hyp = "the cat sat on the mat".split()
>>> sentence_bleu([hyp], hyp)
1.0
>>> float(modified_precision(["the cat is on the mat".split()], ["the"] * 7, n=1))  # 2 of 7
0.2857142857142857
"""

from __future__ import annotations

import fractions
import functools
import math
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy.metrics.bleu import BLEU
from understudy.nltk._layout import Tokens, as_tokens, streams

Precision = Any
"""A precision as NLTK's smoothing functions pass it on: a :class:`Fraction`, or a float."""
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)


class Fraction(fractions.Fraction):
    """An exact precision that keeps the counts it was made of: ``numerator`` and ``denominator``
    are the clipped matches and the n-gram count, not reduced (NLTK's smoothing reads them).

    >>> p = Fraction(2, 4)
    >>> p.numerator, p.denominator, p == fractions.Fraction(1, 2)
    (2, 4, True)
    """

    _counts: tuple[int, int]

    def __new__(
        cls, numerator: int = 0, denominator: int | None = None, _normalize: bool = False
    ) -> Fraction:
        """A fraction of ``numerator`` and ``denominator``, which it reports back unreduced."""
        self = super().__new__(cls, numerator, denominator)
        self._counts = (numerator, 1 if denominator is None else denominator)
        return self

    @property
    def numerator(self) -> int:
        """The numerator as given."""
        return self._counts[0]

    @property
    def denominator(self) -> int:
        """The denominator as given."""
        return self._counts[1]


@functools.lru_cache(maxsize=64)
def _metric(order: int) -> BLEU:
    return BLEU(tokenize="none", max_ngram_order=order)


def _rows(
    list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens], order: int
) -> NDArray[np.int64]:
    """understudy's BLEU rows ``[hyp_len, closest ref_len, matches 1..order, n-grams 1..order]``."""
    refs = streams(list_of_references, len(hypotheses))
    if not hypotheses:
        return np.zeros((0, 2 + 2 * order), dtype=np.int64)
    return _metric(order).segment_stats([as_tokens(h) for h in hypotheses], refs).rows


def modified_precision(references: Sequence[Tokens], hypothesis: Tokens, n: int) -> Fraction:
    """The clipped ``n``-gram precision of ``hypothesis`` against ``references``, at least one
    n-gram counted (NLTK's ``modified_precision``).

    >>> p = modified_precision([["a", "b"]], ["a", "c", "a"], 2)
    >>> p.numerator, p.denominator
    (0, 2)
    """
    row = _rows([references], [hypothesis], n)[0]
    return Fraction(int(row[1 + n]), max(1, int(row[1 + 2 * n])))


def closest_ref_length(references: Sequence[Tokens], hyp_len: int) -> int:
    """The length of the reference closest in length to ``hyp_len`` (ties: the shorter).

    >>> closest_ref_length([["a"] * 11, ["a"] * 8, ["a"] * 6], 7)
    6
    """
    return min((len(r) for r in references), key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """BLEU's brevity penalty as NLTK computes it (1 above the reference length, 0 when empty).

    >>> brevity_penalty(8, 7) == math.exp(1 - 8 / 7)
    True
    """
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)


def _as_weight_list(weights: Any) -> list[Any]:
    # One tuple of weights, or several: NLTK tells them apart by indexing twice.
    try:
        weights[0][0]
    except (TypeError, IndexError):
        return [weights]
    return list(weights)


def corpus_bleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., list[Precision]] | None = None,
    auto_reweigh: bool = False,
) -> Any:
    """Corpus BLEU on a 0-1 scale (NLTK's ``corpus_bleu``); a list of scores when ``weights`` holds
    several tuples.

    >>> corpus_bleu([[["a", "b", "c", "d"]]], [["a", "b", "c", "d"]], weights=[(1,), (0.5, 0.5)])
    [1.0, 1.0]
    """
    weight_list = _as_weight_list(weights)
    order = max(len(weight) for weight in weight_list)
    rows = _rows(list_of_references, hypotheses, order)
    numerators = rows[:, 2 : 2 + order].sum(axis=0).tolist()
    denominators = np.maximum(rows[:, 2 + order :], 1).sum(axis=0).tolist()
    hyp_lengths, ref_lengths = (int(v) for v in rows[:, :2].sum(axis=0))
    bp = brevity_penalty(ref_lengths, hyp_lengths)
    p_n: list[Precision] = [Fraction(int(m), int(t)) for m, t in zip(numerators, denominators, strict=True)]
    if numerators[0] == 0:
        return 0 if len(weight_list) == 1 else [0] * len(weight_list)
    smoothing = smoothing_function or SmoothingFunction().method0
    # NLTK passes the loop's last segment on: methods 4-7 read it (see the module's notes).
    p_n = smoothing(p_n, references=list_of_references[-1], hypothesis=hypotheses[-1], hyp_len=hyp_lengths)
    scores = []
    for weight in weight_list:
        if auto_reweigh and hyp_lengths < 4 and weight == DEFAULT_WEIGHTS:
            weight = (1 / hyp_lengths,) * hyp_lengths
        logs = (w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n, strict=False) if p_i > 0)
        scores.append(bp * math.exp(math.fsum(logs)))
    return scores[0] if len(weight_list) == 1 else scores


def sentence_bleu(
    references: Sequence[Tokens],
    hypothesis: Tokens,
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., list[Precision]] | None = None,
    auto_reweigh: bool = False,
) -> Any:
    """Sentence BLEU on a 0-1 scale (NLTK's ``sentence_bleu``): :func:`corpus_bleu` of one segment.

    >>> sentence_bleu([["a", "b"]], ["a", "b"], weights=(0.5, 0.5))
    1.0
    """
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)


def _context(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any, int | None]:
    """The ``references``, ``hypothesis`` and ``hyp_len`` NLTK passes its smoothing methods 4-7,
    by position or by name."""
    names = ("references", "hypothesis", "hyp_len")
    given = dict(zip(names, args, strict=False)) | {k: v for k, v in kwargs.items() if k in names}
    return given.get("references"), given.get("hypothesis"), given.get("hyp_len")


class SmoothingFunction:
    """The smoothing methods 0-7 of Chen and Cherry (2014) as NLTK implements them; pass one as
    ``smoothing_function`` (``SmoothingFunction().method1``).

    >>> SmoothingFunction().method1([Fraction(0, 4), Fraction(1, 2)])[0]
    0.025
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n: list[Precision], *args: Any, **kwargs: Any) -> list[Precision]:
        """No smoothing: a zero precision becomes the smallest float, with NLTK's warning."""
        smoothed: list[Precision] = []
        for i, p_i in enumerate(p_n):
            if p_i.numerator != 0:
                smoothed.append(p_i)
                continue
            warnings.warn(
                f"\nThe hypothesis contains 0 counts of {i + 1}-gram overlaps.\n"
                "Therefore the BLEU score evaluates to 0, independently of\n"
                "how many N-gram overlaps of lower order it contains.\n"
                "Consider using lower n-gram order or use SmoothingFunction()",
                stacklevel=2,
            )
            smoothed.append(sys.float_info.min)
        return smoothed

    def method1(self, p_n: list[Precision], *args: Any, **kwargs: Any) -> list[Precision]:
        """Add ``epsilon`` to the matches of each zero precision."""
        return [
            (p_i.numerator + self.epsilon) / p_i.denominator if p_i.numerator == 0 else p_i for p_i in p_n
        ]

    def method2(self, p_n: list[Precision], *args: Any, **kwargs: Any) -> list[Precision]:
        """Add 1 to the matches and the count of every order but unigrams (Lin and Och 2004)."""
        return [p_n[0], *(Fraction(p.numerator + 1, p.denominator + 1) for p in p_n[1:])]

    def method3(self, p_n: list[Precision], *args: Any, **kwargs: Any) -> list[Precision]:
        """NIST's geometric smoothing: the k-th zero precision becomes 1 / (2^k * count)."""
        k = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0:
                p_n[i] = 1 / (2**k * p_i.denominator)
                k += 1
        return p_n

    def method4(self, p_n: list[Precision], *args: Any, **kwargs: Any) -> list[Precision]:
        """Smaller smoothed counts for shorter hypotheses: 1 / (2^k * k_param / ln(length))."""
        _, hypothesis, hyp_len = _context(args, kwargs)
        k = 1
        length = hyp_len if hyp_len else len(hypothesis)
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0 and length > 1:
                numerator = 1 / (2**k * self.k / math.log(length))
                p_n[i] = numerator / p_i.denominator
                k += 1
        return p_n

    def method5(self, p_n: list[Precision], *args: Any, **kwargs: Any) -> list[Precision]:
        """Each precision averaged with its neighbours' (the n+1 after the last: the 5-gram one)."""
        references, hypothesis, _ = _context(args, kwargs)
        following = [*p_n, modified_precision(references, hypothesis, 5)]
        previous = p_n[0] + 1
        for i, p_i in enumerate(p_n):
            p_n[i] = (previous + p_i + following[i + 1]) / 3
            previous = p_n[i]
        return p_n

    def method6(self, p_n: list[Precision], *args: Any, **kwargs: Any) -> list[Precision]:
        """Interpolation with a prior from the two lower orders' ratio (Gao and He 2013); needs a
        non-zero trigram precision, as NLTK checks (its message says bigrams)."""
        assert p_n[2], "This smoothing method requires non-zero precision for bigrams."
        length = len(as_tokens(_context(args, kwargs)[1]))
        for i in range(2, len(p_n)):
            prior = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
            ngrams = max(0, length - i)
            p_n[i] = (p_n[i].numerator + self.alpha * prior) / (ngrams + self.alpha)
        return p_n

    def method7(self, p_n: list[Precision], *args: Any, **kwargs: Any) -> list[Precision]:
        """Methods 4 then 5."""
        p_n = self.method4(p_n, *args, **kwargs)
        return self.method5(p_n, *args, **kwargs)


__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "sentence_bleu",
]
