"""Where understudy keeps what it caches: the test sets it downloads (:mod:`understudy.datasets`)
and the segment scores it computes (:mod:`understudy.computed.cache`), both under one folder.

>>> import os; os.environ["UNDERSTUDY_CACHE"] = "/data/cache"
>>> str(default_cache_dir())
'/data/cache'
>>> del os.environ["UNDERSTUDY_CACHE"]
"""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "UNDERSTUDY_CACHE"
"""The cache folder, when set."""


def default_cache_dir() -> Path:
    """``$UNDERSTUDY_CACHE``, else the platform's user cache folder plus ``understudy``.

    >>> os.environ["UNDERSTUDY_CACHE"] = "/data/cache"
    >>> str(default_cache_dir())
    '/data/cache'
    >>> del os.environ["UNDERSTUDY_CACHE"]
    """
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    import platformdirs

    # ~/.cache/understudy ($XDG_CACHE_HOME), ~/Library/Caches/understudy, %LOCALAPPDATA%\understudy\Cache
    return Path(platformdirs.user_cache_dir("understudy", appauthor=False))
