"""The ``neural`` extra's libraries, imported only when a neural metric runs.

>>> EXTRA
"neural metrics need the 'neural' extra: pip install 'understudy[neural]'"
"""

from __future__ import annotations

import importlib
from types import ModuleType

from understudy.errors import MissingExtraError

EXTRA = "neural metrics need the 'neural' extra: pip install 'understudy[neural]'"


def need(module: str) -> ModuleType:
    """``module`` imported, or a :class:`MissingExtraError` naming the extra."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"{EXTRA} ({module} is missing)") from None
