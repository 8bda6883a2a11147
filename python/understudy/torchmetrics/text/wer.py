"""``torchmetrics.text.wer`` as users import it: its names, from :mod:`understudy.torchmetrics.text`."""

from understudy.torchmetrics.text import WordErrorRate as WordErrorRate

__all__ = ["WordErrorRate"]
