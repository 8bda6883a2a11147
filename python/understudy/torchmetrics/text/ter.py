"""``torchmetrics.text.ter`` as users import it: its names, from :mod:`understudy.torchmetrics.text`."""

from understudy.torchmetrics.text import TranslationEditRate as TranslationEditRate

__all__ = ["TranslationEditRate"]
