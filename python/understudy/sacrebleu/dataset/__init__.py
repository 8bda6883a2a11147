"""sacrebleu's ``DATASETS``: every built-in test set by name, read through understudy's verified cache.

Each entry has sacrebleu's public attributes (``name``, ``description``,
``citation``, ``langpairs``, ``data``, ``md5``) and methods (``source``,
``references``, ``fieldnames``, ``get_files``, ``get_source_file``,
``get_reference_files``). Files are understudy's cache, parsed as sacrebleu parses
them; ``get_files`` writes each field as plain text under the cache's ``text/`` folder.

>>> DATASETS["wmt17"].langpairs["en-de"]
['test/newstest2017-ende-src.en.sgm', 'test/newstest2017-ende-ref.de.sgm']
>>> "wmt19" in DATASETS
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache

from understudy.datasets import Cache, DatasetFields, load, registry
from understudy.datasets.registry import Dataset as _Entry
from understudy.files.atomic import atomic_write


class Dataset:
    """One test set, as sacrebleu's ``Dataset`` objects present it."""

    def __init__(self, entry: _Entry) -> None:
        self._entry = entry
        self.name = entry.name
        self.description = entry.description
        self.citation = entry.citation
        self.langpairs: dict[str, list[str]] = {pair: list(lp.files) for pair, lp in entry.langpairs.items()}
        self.data = [d.url for d in entry.downloads]
        self.md5 = [d.md5 for d in entry.downloads]

    def __contains__(self, attribute: str) -> bool:
        # sacrebleu's command line asks `'citation' in DATASETS[name]`.
        return getattr(self, attribute, None) is not None

    def _fields(self, langpair: str) -> DatasetFields:
        return load(self.name, langpair)

    def fieldnames(self, langpair: str) -> list[str]:
        """The fields of ``langpair``: ``src``, the references (``ref`` or ``ref:A``...), metadata."""
        return list(self._fields(langpair).fields)

    def source(self, langpair: str) -> Iterator[str]:
        """The source segments."""
        yield from self._fields(langpair).src

    def references(self, langpair: str) -> Iterator[tuple[str, ...]]:
        """The scored references of each segment, a tuple per segment."""
        yield from zip(*self._fields(langpair).refs, strict=True)

    def _text_file(self, langpair: str, field: str) -> str:
        fields = self._fields(langpair)
        safe = self.name.replace("/", "_")
        path = Cache().root / "text" / safe / f"{safe}.{langpair}.{field}"
        lines = fields.field(field)
        content = "".join(f"{line}\n" for line in lines).encode("utf-8")
        if not path.is_file() or path.read_bytes() != content:
            path.parent.mkdir(parents=True, exist_ok=True)
            with atomic_write(path) as out:
                out.write(content)
        return str(path)

    def get_files(self, langpair: str) -> list[str]:
        """A plain-text file per field (source first), as sacrebleu writes them."""
        return [self._text_file(langpair, field) for field in self.fieldnames(langpair)]

    def get_source_file(self, langpair: str) -> str:
        """The plain-text source file."""
        return self._text_file(langpair, "src")

    def get_reference_files(self, langpair: str) -> list[str]:
        """The plain-text files of the scored references."""
        return [self._text_file(langpair, field) for field in self._fields(langpair).ref_fields]


@cache
def _datasets() -> Mapping[str, Dataset]:
    return {name: Dataset(entry) for name, entry in sorted(registry().items(), reverse=True)}


DATASETS: Mapping[str, Dataset] = _datasets()
"""Every built-in test set by name (and those of ``$UNDERSTUDY_REGISTRY`` at import time)."""

__all__ = ["DATASETS", "Dataset"]
