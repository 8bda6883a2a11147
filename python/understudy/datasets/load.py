"""A test set by name: a registered one (:mod:`understudy.datasets.fields`, downloaded and
cached) or a file of the user's (:mod:`understudy.datasets.local`).

>>> load("wmt17", "xx-yy")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
understudy.errors.UnknownDatasetError: test set wmt17 has no language pair 'xx-yy'; it has cs-en, ...
"""

from __future__ import annotations

from understudy.datasets.cache import Cache
from understudy.datasets.fields import DatasetFields, load_registered
from understudy.datasets.local import is_local, load_local


def load(name: str, langpair: str, cache: Cache | None = None) -> DatasetFields:
    """Every field of test set ``name`` for ``langpair``, downloading what is not cached; ``name``
    may be a file of the user's (see :mod:`understudy.datasets.local`).

    Raises :class:`~understudy.errors.UnknownDatasetError` for an unknown set or pair,
    and the download, cache and format errors of :mod:`understudy.errors`.
    """
    if is_local(name):
        return load_local(name, langpair)
    return load_registered(name, langpair, cache)
