"""Names that moved to a family's module (:mod:`understudy.metrics`), still found at their old address.

>>> getattr_ = forwarding("understudy.result", {"TERResult": "ter"})
>>> getattr_("TERResult").__module__
'understudy.metrics.ter'
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def forwarding(module: str, moved: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that finds each name of ``moved`` (name: family) in that family's module."""

    def find(name: str) -> Any:
        if name in moved:
            return getattr(import_module(f"understudy.metrics.{moved[name]}"), name)
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return find
