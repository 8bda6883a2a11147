"""The old address of :mod:`understudy.inputs.human` (moved in 0.2.0 into the input room,
:mod:`understudy.inputs`): its names are found here for one release, each with a
:class:`DeprecationWarning`.

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     from understudy.correlation.human import read_human
>>> read_human.__module__
'understudy.inputs.human'
"""

from __future__ import annotations

from understudy._moved import forwarding
from understudy.inputs import human as _new

__getattr__ = forwarding(__name__, dict.fromkeys(_new.__all__, "human"), prefix="understudy.inputs.")
