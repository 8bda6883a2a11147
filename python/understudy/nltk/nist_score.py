"""NLTK's ``nltk.translate.nist_score``, counted by understudy: the same functions, arguments and numbers.

NLTK's NIST is not mteval-v13a's (:class:`understudy.NIST` is mteval's). It scores tokens as
given, with no tokenizer and no lowercasing, and weighs a bigram after the word ``0`` as any
other (mteval's ``fix_zero``). With several references it takes, for each order on its own,
the reference of the best precision and that reference's length (mteval clips against all of
them at once and averages their lengths). It adds each shared n-gram's information as a
float, in the order the hypothesis first has the n-grams, so the last bits of its sums
depend on that order. understudy's core lists the shared n-grams in that order
(``_core.analysis.ordered_overlaps``), and the arithmetic below is NLTK's, operation by operation,
so every number is NLTK's bit for bit. NLTK's errors are kept too: a ``ZeroDivisionError``
when some order has no hypothesis n-gram, or the corpus no hypothesis word.

The reference's four words each tell 2 bits, and its bigrams nothing more than their first
word; the hypothesis has three of the words, at 3/4 of the reference's length:

>>> hyp, ref = ["a", "b", "c"], ["a", "b", "c", "d"]
>>> round(sentence_nist([ref], hyp, n=2), 10)  # (6/3 + 0/2) times the length penalty
1.4108784747
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from understudy import _core
from understudy.inputs.tokens import TokenWriter
from understudy.nltk._layout import Tokens, as_tokens, streams


def nist_length_penalty(ref_len: int, hyp_len: int) -> float:
    """NIST's length penalty as NLTK computes it: 0.5 at a length ratio of 2/3 (to NLTK's last
    bit, which rounds below it), 1 from 1 up.

    >>> nist_length_penalty(3, 2), nist_length_penalty(2, 3)
    (0.4999999999999999, 1.0)
    """
    ratio = hyp_len / ref_len
    if 0 < ratio < 1:
        ratio_x, score_x = 1.5, 0.5
        beta = math.log(score_x) / math.log(ratio_x) ** 2
        return math.exp(beta * math.log(ratio) ** 2)
    return max(min(ratio, 1.0), 0.0)


def _information(
    list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens], n: int
) -> tuple[list[float], list[int]]:
    """Each shared n-gram's information times its clipped count, and the groups' bounds among
    them (segment by segment, order by order, reference by reference; see the core's
    ``ordered_overlaps``)."""
    refs = streams(list_of_references, len(hypotheses))
    if not refs or n < 1:  # no reference at all, or no order: nothing is shared
        return [], [0]
    writer = TokenWriter()
    freq, prefix, entries, bounds = _core.analysis.ordered_overlaps(
        writer.lines(list(hypotheses), "hypotheses"), writer.streams(refs), n
    )
    # NLTK's weight: math.log of an int ratio, base 2, for each reference n-gram.
    weights = np.array([math.log(p / f, 2) for p, f in zip(prefix.tolist(), freq.tolist(), strict=True)])
    shared: list[float] = (weights[entries[:, 0]] * entries[:, 1]).tolist() if len(entries) else []
    return shared, bounds.tolist()


def corpus_nist(
    list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens], n: int = 5
) -> Any:
    """Corpus NIST (NLTK's ``corpus_nist``): per order, the best reference's information sums
    over the hypotheses' n-gram counts, summed over orders ``1..n``, times
    :func:`nist_length_penalty`.

    >>> refs = [[["a", "b", "c", "d"]], [["e", "f"]]]
    >>> corpus_nist(refs, [["a", "b", "c", "d"], ["e", "f"]], n=1)  # every word once: log2(6)
    2.584962500721156
    """
    hyps = [as_tokens(h) for h in hypotheses]
    refs = [[as_tokens(r) for r in references] for references in list_of_references]
    shared, bounds = _information(refs, hyps, n)
    starts = [0]
    for references in refs:  # the first group of each segment
        starts.append(starts[-1] + max(n, 0) * len(references))
    # NLTK's Counters: a missing order reads 0 (an int), orders kept in the order first added.
    numerators: defaultdict[int, Any] = defaultdict(int)
    denominators: defaultdict[int, int] = defaultdict(int)
    l_ref, l_sys = 0, 0
    for i in range(1, n + 1):
        for s, (references, hypothesis) in enumerate(zip(refs, hyps, strict=True)):
            denominator = max(len(hypothesis) - i + 1, 0)
            per_ref = []
            for k, reference in enumerate(references):
                g = starts[s] + (i - 1) * len(references) + k
                numerator = sum(shared[bounds[g] : bounds[g + 1]])
                precision = 0 if denominator == 0 else numerator / denominator
                per_ref.append((precision, numerator, denominator, len(reference)))
            _, numerator, denominator, ref_len = max(per_ref)
            numerators[i] += numerator
            denominators[i] += denominator
            l_ref += ref_len
            l_sys += len(hypothesis)
    nist_precision: Any = 0
    for i in numerators:
        nist_precision += numerators[i] / denominators[i]
    return nist_precision * nist_length_penalty(l_ref, l_sys)


def sentence_nist(references: Sequence[Tokens], hypothesis: Tokens, n: int = 5) -> Any:
    """Sentence NIST (NLTK's ``sentence_nist``): :func:`corpus_nist` of one segment.

    >>> round(sentence_nist([["a", "b"]], ["a", "b"]), 12)  # NLTK divides 0 bits by 0 5-grams
    Traceback (most recent call last):
    ZeroDivisionError: division by zero
    """
    return corpus_nist([references], [hypothesis], n)


__all__ = ["corpus_nist", "nist_length_penalty", "sentence_nist"]
