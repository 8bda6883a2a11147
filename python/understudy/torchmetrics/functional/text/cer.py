"""``torchmetrics.functional.text.cer`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import char_error_rate as char_error_rate

__all__ = ["char_error_rate"]
