"""``torchmetrics.functional.text.chrf`` as users import it.

Its names, from :mod:`understudy.torchmetrics.functional.text`.
"""

from understudy.torchmetrics.functional.text import chrf_score as chrf_score

__all__ = ["chrf_score"]
