"""``torchmetrics.functional.text.ter`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import translation_edit_rate as translation_edit_rate

__all__ = ["translation_edit_rate"]
