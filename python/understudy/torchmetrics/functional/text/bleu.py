"""``torchmetrics.functional.text.bleu`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import bleu_score as bleu_score

__all__ = ["bleu_score"]
