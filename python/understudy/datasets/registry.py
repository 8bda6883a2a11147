"""The test-set registry: package data (``registry.json``), not code.

Each set names its format, its downloads (URL and MD5, as sacrebleu 2.6.0 publishes
them) and, per language pair, the files inside those downloads. Adding a set is a
data change: put it in a JSON file of the same shape and name the file in
``UNDERSTUDY_REGISTRY`` (several files are separated by ``os.pathsep``); its sets are
added to the built-in ones, replacing any of the same name.

>>> wmt17 = dataset("wmt17")
>>> wmt17.format, wmt17.langpairs["en-de"].files
('wmt-sgml', ('test/newstest2017-ende-src.en.sgm', 'test/newstest2017-ende-ref.de.sgm'))
>>> "wmt17" in names_for_langpair("de-en")
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from understudy.errors import DatasetFormatError, UnknownDatasetError

REGISTRY_ENV = "UNDERSTUDY_REGISTRY"
"""Extra registry files, separated by ``os.pathsep``; their sets override built-in ones."""

FORMATS = ("wmt-sgml", "iwslt-xml", "wmt-xml", "plain", "tsv")
"""The file formats a set can be in (see :mod:`understudy.datasets.formats`)."""

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".zip")
"""A download whose URL ends so is unpacked; any other download is used as it is."""


@dataclass(frozen=True)
class Download:
    """One file to fetch: its URL and the MD5 the registry expects of it.

    ``md5`` is ``None`` only where upstream publishes no checksum (the SentencePiece
    models): the cache then pins the MD5 of the first complete download and checks every
    later read against it.
    """

    url: str
    md5: str | None

    @property
    def basename(self) -> str:
        """The last part of the URL's path, which names the file in the cache."""
        return self.url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]

    @property
    def is_archive(self) -> bool:
        """Whether the download is a tar or zip archive to unpack."""
        return self.basename.endswith(ARCHIVE_SUFFIXES)


@dataclass(frozen=True)
class LangPair:
    """The files of one language pair: source first, then references (or one XML file).

    ``columns`` (TSV only) gives each file's column; ``refs`` (WMT XML only) overrides
    the set's choice of references.
    """

    files: tuple[str, ...]
    columns: tuple[int, ...] | None = None
    refs: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Dataset:
    """A registry entry: what a test set is and where its files come from."""

    name: str
    format: str
    description: str
    downloads: tuple[Download, ...]
    langpairs: Mapping[str, LangPair]
    citation: str | None = None
    refs: tuple[str, ...] = ()
    doc_fields: bool = True
    subsets: Mapping[str, str] | None = None

    def langpair(self, pair: str) -> LangPair:
        """The files of ``pair``; an unknown pair raises, naming the ones there are."""
        try:
            return self.langpairs[pair]
        except KeyError:
            raise UnknownDatasetError(
                f"test set {self.name} has no language pair {pair!r}; it has {', '.join(self.langpairs)}"
            ) from None

    def reference_choice(self, pair: str) -> tuple[str, ...]:
        """The translators whose references are scored (WMT XML), as the registry picks them."""
        chosen = self.langpair(pair).refs
        return self.refs if chosen is None else chosen


@dataclass(frozen=True)
class Model:
    """A model file a tokenizer needs (the SentencePiece models of spBLEU)."""

    name: str
    download: Download
    description: str


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DatasetFormatError(f"{where}: expected a list of strings")
    return tuple(value)


def _langpair(raw: Any, where: str) -> LangPair:
    if not isinstance(raw, dict) or "files" not in raw:
        raise DatasetFormatError(f"{where}: expected an object with 'files'")
    files = _strings(raw["files"], f"{where}.files")
    columns = raw.get("columns")
    if columns is not None and (
        not isinstance(columns, list)
        or len(columns) != len(files)
        or not all(isinstance(c, int) and c >= 0 for c in columns)
    ):
        raise DatasetFormatError(f"{where}.columns: expected one column number per file")
    refs = raw.get("refs")
    return LangPair(
        files=files,
        columns=None if columns is None else tuple(columns),
        refs=None if refs is None else _strings(refs, f"{where}.refs"),
    )


def _dataset(name: str, raw: Any, subsets: Mapping[str, str] | None, source: str) -> Dataset:
    where = f"{source}: test set {name}"
    if not isinstance(raw, dict):
        raise DatasetFormatError(f"{where}: expected an object")
    kind = raw.get("format")
    if kind not in FORMATS:
        raise DatasetFormatError(f"{where}: format {kind!r} is not one of {', '.join(FORMATS)}")
    downloads = raw.get("downloads")
    if not isinstance(downloads, list) or not downloads:
        raise DatasetFormatError(f"{where}: expected a non-empty list of downloads")
    parsed = [_download(item, where, pinned=True) for item in downloads]
    pairs = raw.get("langpairs")
    if not isinstance(pairs, dict) or not pairs:
        raise DatasetFormatError(f"{where}: expected language pairs")
    return Dataset(
        name=name,
        format=kind,
        description=str(raw.get("description", "")),
        downloads=tuple(parsed),
        langpairs={pair: _langpair(v, f"{where}: {pair}") for pair, v in pairs.items()},
        citation=raw.get("citation"),
        refs=_strings(raw.get("refs", []), f"{where}.refs"),
        doc_fields=bool(raw.get("doc_fields", True)),
        subsets=subsets,
    )


def _download(item: Any, where: str, pinned: bool) -> Download:
    if not isinstance(item, dict) or not isinstance(item.get("url"), str):
        raise DatasetFormatError(f"{where}: a download needs a 'url'")
    md5 = item.get("md5")
    if md5 is None and not pinned:
        return Download(item["url"], None)
    if not isinstance(md5, str) or len(md5) != 32 or not all(c in "0123456789abcdef" for c in md5):
        raise DatasetFormatError(f"{where}: download {item['url']} needs a 32-digit lowercase hex 'md5'")
    return Download(item["url"], md5)


def _model(name: str, raw: Any, source: str) -> Model:
    where = f"{source}: model {name}"
    return Model(name, _download(raw, where, pinned=False), str(raw.get("description", "")))


def _parse(text: str, source: str) -> tuple[dict[str, Dataset], dict[str, Model]]:
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise DatasetFormatError(f"{source}:{err.lineno}: not JSON: {err.msg}") from None
    if not isinstance(raw, dict) or not any(isinstance(raw.get(k), dict) for k in ("testsets", "models")):
        raise DatasetFormatError(f"{source}: expected an object with 'testsets' (or 'models')")
    subsets = raw.get("subsets", {})
    sets = {
        name: _dataset(name, value, subsets.get(name), source)
        for name, value in raw.get("testsets", {}).items()
    }
    models = {name: _model(name, value, source) for name, value in raw.get("models", {}).items()}
    return sets, models


def parse_registry(text: str, source: str) -> dict[str, Dataset]:
    """The sets of one registry file (``source`` names it in errors)."""
    return _parse(text, source)[0]


@cache
def _builtin() -> tuple[dict[str, Dataset], dict[str, Model]]:
    text = resources.files("understudy.datasets").joinpath("registry.json").read_text("utf-8")
    return _parse(text, "registry.json")


def _extra(paths: str) -> tuple[dict[str, Dataset], dict[str, Model]]:
    sets: dict[str, Dataset] = {}
    models: dict[str, Model] = {}
    for path in filter(None, paths.split(os.pathsep)):
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as err:
            raise DatasetFormatError(f"{path} (from ${REGISTRY_ENV}): cannot read: {err.strerror}") from None
        more_sets, more_models = _parse(text, path)
        sets.update(more_sets)
        models.update(more_models)
    return sets, models


def registry() -> dict[str, Dataset]:
    """Every known set by name: the built-in ones and those of ``$UNDERSTUDY_REGISTRY``."""
    return {**_builtin()[0], **_extra(os.environ.get(REGISTRY_ENV, ""))[0]}


def models() -> dict[str, Model]:
    """Every known tokenizer model by name, built-in and from ``$UNDERSTUDY_REGISTRY``.

    >>> sorted(models())
    ['flores101', 'flores200', 'spBLEU-1K']
    """
    return {**_builtin()[1], **_extra(os.environ.get(REGISTRY_ENV, ""))[1]}


def dataset(name: str) -> Dataset:
    """The registry entry of ``name``; an unknown name raises :class:`UnknownDatasetError`."""
    sets = registry()
    if name not in sets:
        raise UnknownDatasetError(
            f"unknown test set {name!r}; 'understudy testset list' shows the {len(sets)} known ones"
        )
    return sets[name]


def names() -> list[str]:
    """Every set's name, newest first (as sacrebleu lists them)."""
    return sorted(registry(), reverse=True)


def names_for_langpair(pair: str) -> list[str]:
    """The sets that have ``pair`` in either direction (``en-de`` finds de-en sets too)."""
    src, _, trg = pair.partition("-")
    both = {pair, f"{trg}-{src}"}
    sets = registry()
    return [name for name in sorted(sets, reverse=True) if both & set(sets[name].langpairs)]
