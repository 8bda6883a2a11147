"""``torchmetrics.functional.text.mer`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import match_error_rate as match_error_rate

__all__ = ["match_error_rate"]
