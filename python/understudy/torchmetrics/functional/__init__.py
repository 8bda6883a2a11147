"""torchmetrics' functional text metrics (``torchmetrics.functional.text``), computed by understudy.

>>> from understudy.torchmetrics.functional import bleu_score
>>> bleu_score(["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]])
tensor(0.7598)
"""

from understudy.torchmetrics.functional.text import (
    bleu_score,
    char_error_rate,
    chrf_score,
    match_error_rate,
    sacre_bleu_score,
    translation_edit_rate,
    word_error_rate,
    word_information_lost,
    word_information_preserved,
)

__all__ = [
    "bleu_score",
    "char_error_rate",
    "chrf_score",
    "match_error_rate",
    "sacre_bleu_score",
    "translation_edit_rate",
    "word_error_rate",
    "word_information_lost",
    "word_information_preserved",
]
