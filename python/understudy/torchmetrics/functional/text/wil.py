"""``torchmetrics.functional.text.wil`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import word_information_lost as word_information_lost

__all__ = ["word_information_lost"]
