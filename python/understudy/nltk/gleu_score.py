"""NLTK's ``nltk.translate.gleu_score``, computed by understudy's GLEU on the tokens as given.

understudy's GLEU is NLTK's (the best reference of each segment by its ratio, matches and
n-gram totals summed over the corpus), so this module only takes NLTK's arguments.

>>> hyp = "the cat sat on the mat".split()
>>> sentence_gleu([hyp], hyp)
1.0
>>> corpus_gleu([[["a", "b"]], [["c"]]], [["a", "b"], ["d"]], max_len=1)  # 2 of 3 unigrams
0.6666666666666666
"""

from __future__ import annotations

from collections.abc import Sequence

from understudy.metrics.gleu import GLEU
from understudy.nltk._layout import Tokens, as_tokens, streams


def corpus_gleu(
    list_of_references: Sequence[Sequence[Tokens]],
    hypotheses: Sequence[Tokens],
    min_len: int = 1,
    max_len: int = 4,
) -> float:
    """Corpus GLEU (NLTK's ``corpus_gleu``): matched n-grams over the larger of the hypothesis's
    and the best reference's n-gram counts, summed over segments (0.0 when there are none)."""
    refs = streams(list_of_references, len(hypotheses))
    if not hypotheses:
        return 0.0
    score: float = (
        GLEU(min_len=min_len, max_len=max_len).corpus_score([as_tokens(h) for h in hypotheses], refs).score
    )
    return score


def sentence_gleu(
    references: Sequence[Tokens], hypothesis: Tokens, min_len: int = 1, max_len: int = 4
) -> float:
    """Sentence GLEU (NLTK's ``sentence_gleu``): :func:`corpus_gleu` of one segment.

    >>> sentence_gleu([["a", "b", "c"]], ["a", "b", "d"], max_len=2)  # a, b and ab: 3 of 5
    0.6
    """
    return corpus_gleu([references], [hypothesis], min_len, max_len)


__all__ = ["corpus_gleu", "sentence_gleu"]
