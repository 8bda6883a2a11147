"""Which built-in test set a command reads, declared as the families declare their options (the
command line's flags are derived from it): ``-t`` (sets comma-separated, or a test-set file),
``-l``, sacrebleu's document filters and the cache. Light: ``understudy.datasets`` (HTTP, XML)
loads only when a set is read.

>>> TestSetAsked(test_set="wmt17", langpair="en-de", offline=True).offline
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from understudy.config import Declared, option
from understudy.errors import ConfigError

if TYPE_CHECKING:
    from understudy.datasets import Cache, DatasetFields
    from understudy.datasets.cache import ProgressFactory
    from understudy.datasets.references import SetReferences


@dataclass(frozen=True)
class TestSetAsked(Declared):
    """The test set (``test_set``) and pair (``langpair``) asked for, the documents kept
    (``origlang``, ``subset``: sacrebleu's filters), and the cache (``cache``: its folder, else
    the default; ``offline``: the cache only)."""

    __test__ = False  # a name pytest would otherwise collect

    test_set: str | None = option(
        None,
        flags=("-t", "--test-set"),
        metavar="NAME",
        help="score against a built-in test set (comma-separated: concatenated), or a test-set file:"
        " WMT XML (.xml) or WMT25's JSON lines (.jsonl), whose systems' files may be JSON lines too",
    )
    langpair: str | None = option(
        None,
        flags=("-l", "--language-pair"),
        into="langpair",
        metavar="SRC-TRG",
        help="the pair of -t; its target picks the tokenizer",
    )
    origlang: str | None = option(
        None,
        flags=("-ol", "--origlang"),
        metavar="LANG",
        help="only documents originally in LANG (non-LANG: all others)",
    )
    subset: str | None = option(
        None,
        flags=("--subset",),
        metavar="REGEX",
        help="only documents whose domain or WMT18/19 annotation matches",
    )
    offline: bool = option(
        False, flags=("--offline",), help="use the cache only (also: UNDERSTUDY_OFFLINE=1)"
    )
    cache: str | None = option(
        None,
        flags=("--cache",),
        metavar="DIR",
        help="cache folder (default: $UNDERSTUDY_CACHE, else the user cache)",
    )

    def cache_of(self, progress: ProgressFactory | None = None) -> Cache:
        """The cache asked for (``progress``: a callback per download)."""
        from understudy.datasets import Cache

        return Cache(self.cache, offline=True if self.offline else None, progress=progress)

    def references(self, load: Callable[[str], DatasetFields]) -> SetReferences:
        """The references of the sets (concatenated) for the pair, each set read by ``load``,
        filtered as asked (:func:`understudy.datasets.references.references_of`)."""
        from understudy.datasets.references import references_of

        if not self.test_set:
            raise ConfigError("no test set (-t) is given")
        if not self.langpair:
            raise ConfigError("-t needs a language pair (-l); 'understudy testset info NAME' lists them")
        return references_of(self.test_set, self.langpair, load, self.origlang, self.subset)
