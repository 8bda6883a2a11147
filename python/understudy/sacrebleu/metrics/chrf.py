"""``sacrebleu.metrics.chrf``: the chrF class and its score."""

from understudy.sacrebleu.metrics import CHRF
from understudy.sacrebleu.metrics.base import CHRFScore

__all__ = ["CHRF", "CHRFScore"]
