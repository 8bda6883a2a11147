"""``torchmetrics.text.wip`` as users import it: its names, from :mod:`understudy.torchmetrics.text`."""

from understudy.torchmetrics.text import WordInfoPreserved as WordInfoPreserved

__all__ = ["WordInfoPreserved"]
