"""Names that moved (to a family's module, :mod:`understudy.metrics`, or a module renamed), still
found at their old address for one release, with a :class:`DeprecationWarning` naming the new one.

>>> import warnings
>>> getattr_ = forwarding("understudy.result", {"TERResult": "ter"})
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     getattr_("TERResult").__module__
'understudy.metrics.ter'
>>> str(caught[0].message)
'understudy.result.TERResult is understudy.metrics.ter.TERResult now; the old name goes in the next release'
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from importlib import import_module
from typing import Any


def forwarding(
    module: str, moved: dict[str, str], prefix: str = "understudy.metrics."
) -> Callable[[str], Any]:
    """A module ``__getattr__`` that finds each name of ``moved`` (name: family) in that family's
    module (``prefix`` + family), and warns that the old address goes in the next release."""

    def find(name: str) -> Any:
        if name not in moved:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        home = f"{prefix}{moved[name]}"
        warnings.warn(
            f"{module}.{name} is {home}.{name} now; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(import_module(home), name)

    return find
