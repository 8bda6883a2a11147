"""``torchmetrics.text.sacre_bleu`` as users import it (``BLEUScore`` too, as it imports it).

Its names, from :mod:`understudy.torchmetrics.text`.
"""

from understudy.torchmetrics.text import BLEUScore as BLEUScore
from understudy.torchmetrics.text import SacreBLEUScore as SacreBLEUScore

__all__ = ["BLEUScore", "SacreBLEUScore"]
