"""``sacrebleu.metrics.bleu``: the BLEU class and its score."""

from understudy.sacrebleu.metrics import BLEU
from understudy.sacrebleu.metrics.base import BLEUScore

MAX_NGRAM_ORDER = 4

__all__ = ["BLEU", "MAX_NGRAM_ORDER", "BLEUScore"]
