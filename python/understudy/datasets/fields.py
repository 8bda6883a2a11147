"""A test set's fields for one language pair, read from the cache and filtered by document.

>>> DatasetFields("demo", "de-en", {"src": ["Hallo", "Tag"], "ref": ["Hello", "Day"]}, ("ref",)).refs
[['Hello', 'Day']]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from understudy.datasets.cache import Cache
from understudy.datasets.formats import parse_plain, parse_sgml, parse_tsv, parse_wmt_xml, ref_field
from understudy.datasets.registry import Dataset, dataset
from understudy.errors import ConfigError, DatasetError, DatasetFormatError, UnknownDatasetError

DOC_FIELDS = ("docid", "genre", "origlang")
"""The document attributes a WMT SGML set offers as fields (not WMT08's)."""


@dataclass(frozen=True)
class DatasetFields:
    """Every field of one test set and language pair, one value per segment.

    ``ref_fields`` are the references that are scored, in order. ``docid``,
    ``origlang`` and ``domain`` hold per segment the document metadata that
    :meth:`keep` filters on (``None`` where the format has none); ``subsets`` is the
    hand annotation of WMT18/19 documents (document id to ``COUNTRY-domain``).
    """

    name: str
    langpair: str
    fields: dict[str, list[str]]
    ref_fields: tuple[str, ...]
    docid: list[str] | None = None
    origlang: list[str] | None = None
    domain: list[str | None] | None = None
    subsets: Mapping[str, str] | None = field(default=None, repr=False)
    paragraph: list[str] | None = None
    """Each segment's paragraph in its document (WMT XML's ``<p>``, WMT25's blank lines)."""

    def __len__(self) -> int:
        return len(self.fields["src"])

    def field(self, name: str) -> list[str]:
        """One field's values; ``ref`` means the first reference when there is no plain ``ref``.

        >>> DatasetFields("d", "x-y", {"src": ["a"], "ref:B": ["b"], "ref:A": ["c"]}, ("ref:A",)).field("ref")
        ['c']
        """
        if name == "ref" and "ref" not in self.fields:
            named = sorted(f for f in self.fields if f.startswith("ref:"))
            if named:
                name = named[0]
        if name not in self.fields:
            raise UnknownDatasetError(
                f"{self.name} {self.langpair} has no field {name!r}; it has {', '.join(self.fields)}"
            )
        return self.fields[name]

    @property
    def src(self) -> list[str]:
        """The source segments."""
        return self.fields["src"]

    @property
    def refs(self) -> list[list[str]]:
        """The scored reference streams (sacrebleu's layout: one list per reference)."""
        return [self.fields[name] for name in self.ref_fields]

    def keep(self, origlang: str | None = None, subset: str | None = None) -> list[bool]:
        """Per segment, whether its document passes both filters (sacrebleu's ``--origlang``/``--subset``).

        ``origlang`` is a language code, or ``non-`` and one; ``subset`` is a regular
        expression searched in the document's domain (WMT XML) or in its WMT18/19
        annotation (``country:`` restricts it to the country part).
        """
        n = len(self)
        mask = [True] * n
        if origlang is None and subset is None:
            return mask
        if self.origlang is None or self.docid is None:
            raise DatasetError(
                f"{self.name} has no document metadata; --origlang and --subset need a WMT SGML or XML set"
            )
        if origlang is not None:
            wanted, negate = (origlang[4:], True) if origlang.startswith("non-") else (origlang, False)
            mask = [(lang != wanted) == negate for lang in self.origlang]
        if subset is not None:
            tags = self._subset_tags()
            pattern = subset.removeprefix("country:")
            try:
                regex = re.compile(pattern)
            except re.error as err:
                raise ConfigError(f"--subset {subset!r} is not a regular expression: {err}") from None
            mask = [
                k and t is not None and regex.search(t) is not None for k, t in zip(mask, tags, strict=True)
            ]
        return mask

    def _subset_tags(self) -> list[str | None]:
        if self.domain is not None:
            return list(self.domain)
        if self.subsets is None:
            raise DatasetError(
                f"{self.name} has no subset annotation (wmt18, wmt19 and XML sets with domains have)"
            )
        assert self.docid is not None
        return [self.subsets.get(docid, "") for docid in self.docid]

    def filtered(self, origlang: str | None = None, subset: str | None = None) -> DatasetFields:
        """The segments whose documents pass :meth:`keep`, every field and metadata list alike."""
        mask = self.keep(origlang, subset)

        def pick(values: list[str]) -> list[str]:
            return [v for v, k in zip(values, mask, strict=True) if k]

        return DatasetFields(
            self.name,
            self.langpair,
            {name: pick(values) for name, values in self.fields.items()},
            self.ref_fields,
            None if self.docid is None else pick(self.docid),
            None if self.origlang is None else pick(self.origlang),
            None if self.domain is None else [d for d, k in zip(self.domain, mask, strict=True) if k],
            self.subsets,
            None if self.paragraph is None else pick(self.paragraph),
        )


def _check_lengths(name: str, pair: str, fields: dict[str, list[str]]) -> None:
    counts = {f: len(v) for f, v in fields.items()}
    if len(set(counts.values())) > 1:
        shown = ", ".join(f"{f} {c}" for f, c in counts.items())
        raise DatasetFormatError(f"{name} {pair}: fields have different numbers of segments ({shown})")


def _carried(docs: list[dict[str, str]], attribute: str) -> list[str]:
    """Each segment's document attribute, a document without it keeping the previous value.

    That is sacrebleu's field (its value persists until a document sets it again); the
    filters use the document's own attributes instead, as sacrebleu's filters do.
    """
    values, last = [], ""
    for doc in docs:
        last = doc.get(attribute, last)
        values.append(last)
    return values


def _sgml(info: Dataset, pair: str, cache: Cache) -> DatasetFields:
    files = info.langpair(pair).files
    source = parse_sgml(cache.read(info, files[0]), files[0])
    names = ["src", "ref"] if len(files) == 2 else ["src", *(f"ref:{k}" for k in range(len(files) - 1))]
    fields = {"src": source.segments}
    for name, path in zip(names[1:], files[1:], strict=True):
        data = cache.read(info, path)
        sgml = info.format == "iwslt-xml" or path.endswith(".sgm")
        fields[name] = parse_sgml(data, path).segments if sgml else parse_plain(data, path)
    docid = [d.get("docid", "") for d in source.docs]
    origlang = [d.get("origlang", "") for d in source.docs]
    if info.doc_fields:
        for attribute in DOC_FIELDS:
            fields[attribute] = _carried(source.docs, attribute)
    _check_lengths(info.name, pair, fields)
    metadata = info.format == "wmt-sgml"
    return DatasetFields(
        info.name,
        pair,
        fields,
        tuple(names[1:]),
        docid if metadata else None,
        origlang if metadata else None,
        None,
        info.subsets,
    )


def _wmt_xml(info: Dataset, pair: str, cache: Cache) -> DatasetFields:
    path = info.langpair(pair).files[0]
    xml = parse_wmt_xml(cache.read(info, path), path)
    fields = xml.fields()
    chosen = [ref_field(r) for r in info.reference_choice(pair)]
    refs = tuple(f for f in dict.fromkeys(chosen) if f in fields)
    has_domain = "domain" in fields
    paragraph = xml.paragraph if any(xml.paragraph) else None
    domain = xml.domain if has_domain else None
    return DatasetFields(info.name, pair, fields, refs, xml.docid, xml.origlang, domain, None, paragraph)


def _columns(info: Dataset, pair: str, cache: Cache) -> DatasetFields:
    entry = info.langpair(pair)
    fields: dict[str, list[str]] = {}
    for k, (name, path) in enumerate(zip(("src", "ref"), entry.files, strict=False)):
        data = cache.read(info, path)
        if info.format == "tsv":
            column = entry.columns[k] if entry.columns is not None else min(k, 1)
            fields[name] = parse_tsv(data, path, column)
        else:
            fields[name] = parse_plain(data, path)
    _check_lengths(info.name, pair, fields)
    return DatasetFields(info.name, pair, fields, ("ref",) if "ref" in fields else ())


_LOADERS = {"wmt-sgml": _sgml, "iwslt-xml": _sgml, "wmt-xml": _wmt_xml, "plain": _columns, "tsv": _columns}


def load_registered(name: str, langpair: str, cache: Cache | None = None) -> DatasetFields:
    """Every field of registered test set ``name`` for ``langpair``, downloading what is not
    cached (a file of the user's is :func:`understudy.datasets.load.load`'s).

    Raises :class:`~understudy.errors.UnknownDatasetError` for an unknown set or pair,
    and the download, cache and format errors of :mod:`understudy.errors`.
    """
    info = dataset(name)
    info.langpair(langpair)
    return _LOADERS[info.format](info, langpair, cache or Cache())
