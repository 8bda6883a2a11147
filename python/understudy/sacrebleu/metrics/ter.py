"""``sacrebleu.metrics.ter``: the TER class and its score."""

from understudy.sacrebleu.metrics import TER
from understudy.sacrebleu.metrics.base import TERScore

__all__ = ["TER", "TERScore"]
