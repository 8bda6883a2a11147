"""``torchmetrics.text.bleu`` as users import it: its names, from :mod:`understudy.torchmetrics.text`."""

from understudy.torchmetrics.text import BLEUScore as BLEUScore

__all__ = ["BLEUScore"]
