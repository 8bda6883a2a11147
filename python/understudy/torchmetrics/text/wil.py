"""``torchmetrics.text.wil`` as users import it: its names, from :mod:`understudy.torchmetrics.text`."""

from understudy.torchmetrics.text import WordInfoLost as WordInfoLost

__all__ = ["WordInfoLost"]
