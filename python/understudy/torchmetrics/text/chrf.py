"""``torchmetrics.text.chrf`` as users import it: its names, from :mod:`understudy.torchmetrics.text`."""

from understudy.torchmetrics.text import CHRFScore as CHRFScore

__all__ = ["CHRFScore"]
