"""The old address of :mod:`understudy.inputs.files` (moved in 0.2.0 into the input room,
:mod:`understudy.inputs`): its names are found here for one release, each with a
:class:`DeprecationWarning`.

>>> import warnings
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     from understudy.io import read_lines
>>> read_lines.__module__
'understudy.inputs.files'
"""

from __future__ import annotations

from understudy._moved import forwarding
from understudy.inputs import files as _new

__getattr__ = forwarding(__name__, dict.fromkeys(_new.__all__, "files"), prefix="understudy.inputs.")
