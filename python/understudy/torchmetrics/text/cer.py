"""``torchmetrics.text.cer`` as users import it: its names, from :mod:`understudy.torchmetrics.text`."""

from understudy.torchmetrics.text import CharErrorRate as CharErrorRate

__all__ = ["CharErrorRate"]
