"""``torchmetrics.text.mer`` as users import it: its names, from :mod:`understudy.torchmetrics.text`."""

from understudy.torchmetrics.text import MatchErrorRate as MatchErrorRate

__all__ = ["MatchErrorRate"]
