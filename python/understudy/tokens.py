"""The old address of :mod:`understudy.inputs.tokens` (moved in 0.2.0 into the input room,
:mod:`understudy.inputs`): its names are found here for one release, each with a
:class:`DeprecationWarning`.

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     from understudy.tokens import TokenWriter
>>> TokenWriter.__module__
'understudy.inputs.tokens'
"""

from __future__ import annotations

from understudy._moved import forwarding
from understudy.inputs import tokens as _new

__getattr__ = forwarding(__name__, dict.fromkeys(_new.__all__, "tokens"), prefix="understudy.inputs.")
