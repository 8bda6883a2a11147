"""``torchmetrics.functional.text.wer`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import word_error_rate as word_error_rate

__all__ = ["word_error_rate"]
