"""The ``neural`` extra's libraries, imported only when a neural metric runs.

>>> EXTRA
"neural metrics need the 'neural' extra: pip install 'understudy-mt[neural]'"
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TypeVar

from understudy.errors import import_extra

EXTRA = "neural metrics need the 'neural' extra: pip install 'understudy-mt[neural]'"


def need(module: str) -> ModuleType:
    """``module`` imported, or a :class:`MissingExtraError` naming the extra."""
    imported: ModuleType = import_extra(module, f"{EXTRA} ({module} is missing)")
    return imported


T = TypeVar("T")


def quietly(load: Callable[[], T]) -> T:
    """``load()`` with transformers' warnings held back (a checkpoint's config notes are not the
    user's to act on) and its progress bars only for a person at a terminal."""
    utils = need("transformers.utils.logging")
    if not sys.stderr.isatty():
        utils.disable_progress_bar()
    log = logging.getLogger("transformers")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        return load()
    finally:
        log.setLevel(level)
