"""Built-in test sets: the registry, the download cache, and the WMT/IWSLT file formats.

The reference never passes through the user's hands: name a set and a language pair,
and understudy fetches the official files (once, checked against the registry's MD5),
unpacks them safely into its cache and parses them as sacrebleu does.

>>> from understudy import datasets
>>> "wmt17" in datasets.names()
True
>>> datasets.dataset("wmt22").reference_choice("cs-en")
('B',)

Loading needs the files (``load("wmt17", "en-de")`` downloads them the first time):
:func:`load` returns a :class:`DatasetFields`, whose ``refs`` are what ``score -t``
scores against.
"""

from understudy.datasets.cache import OFFLINE_ENV, Cache
from understudy.datasets.fetch import FetchPolicy
from understudy.datasets.fields import DatasetFields
from understudy.datasets.load import load
from understudy.datasets.registry import (
    REGISTRY_ENV,
    Dataset,
    Download,
    LangPair,
    dataset,
    names,
    names_for_langpair,
    registry,
)
from understudy.files.cache_folder import CACHE_ENV, default_cache_dir


def download(name: str, langpair: str | None = None, cache: Cache | None = None) -> Cache:
    """Fetch and unpack every download of ``name`` (checking ``langpair`` is one of its pairs).

    With ``langpair``, the pair's files are also parsed, so a damaged set fails here
    rather than when scored. Returns the cache used.
    """
    info = dataset(name)
    cache = cache or Cache()
    if langpair is not None:
        info.langpair(langpair)
    for item in info.downloads:
        cache.ensure(item, name)
    if langpair is not None:
        load(name, langpair, cache)
    return cache


__all__ = [
    "CACHE_ENV",
    "OFFLINE_ENV",
    "REGISTRY_ENV",
    "Cache",
    "Dataset",
    "DatasetFields",
    "Download",
    "FetchPolicy",
    "LangPair",
    "dataset",
    "default_cache_dir",
    "download",
    "load",
    "names",
    "names_for_langpair",
    "registry",
]
