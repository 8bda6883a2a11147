"""The old name of :mod:`understudy.arithmetic` (renamed in 0.2.0 for what it holds): its names are
found here for one release, each with a :class:`DeprecationWarning`.

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     from understudy.scoring import ln
>>> ln.__module__
'understudy.arithmetic'
"""

from __future__ import annotations

from understudy._moved import forwarding

_HOMES = {
    **dict.fromkeys(["ln", "exp", "Weak"], "arithmetic"),
    **dict.fromkeys(["score_rows", "ScoreArrays", "LOG_ZERO"], "metrics.bleu"),
    "score_chrf_rows": "metrics.chrf",
    "score_ter_rows": "metrics.ter",
}

__getattr__ = forwarding(__name__, _HOMES, prefix="understudy.")
