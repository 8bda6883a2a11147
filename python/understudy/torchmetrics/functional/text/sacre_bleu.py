"""``torchmetrics.functional.text.sacre_bleu`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import AVAILABLE_TOKENIZERS as AVAILABLE_TOKENIZERS
from understudy.torchmetrics.functional.text import sacre_bleu_score as sacre_bleu_score

__all__ = ["AVAILABLE_TOKENIZERS", "sacre_bleu_score"]
