"""``torchmetrics.functional.text.wip`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import word_information_preserved as word_information_preserved

__all__ = ["word_information_preserved"]
