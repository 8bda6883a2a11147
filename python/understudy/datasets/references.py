"""What a built-in test set (or several, concatenated) gives to score against for one language
pair: its reference streams, the mask of segments kept by ``origlang``/``subset``, the
signature's keys (``test``, ``lang``, ``origlang``, ``subset``), its sources and documents.
What ``understudy score -t NAME -l PAIR`` reads.

>>> from understudy.datasets.fields import DatasetFields
>>> def load(name: str) -> DatasetFields:  # a stand-in for the cache: two segments, two documents
...     texts = {"src": ["Hallo.", "Hi."], "ref": ["Hello.", "Hi."]}
...     return DatasetFields(name, "de-en", texts, ("ref",), docid=["d1", "d2"], origlang=["de", "en"])
>>> found = references_of("toy", "de-en", load, origlang="de")
>>> found.streams, found.keep
([('toy de-en (ref)', ['Hello.', 'Hi.'])], [True, False])
>>> found.signature
[('test', 'toy'), ('lang', 'de-en'), ('origlang', 'de')]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from understudy.datasets.fields import DatasetFields
from understudy.datasets.local import is_jsonl, is_local, label
from understudy.errors import DatasetError
from understudy.segmentation.granularity import Units


@dataclass(frozen=True)
class SetReferences:
    """What ``score -t`` scores against: reference streams, the filter mask, signature pairs."""

    streams: list[tuple[str, list[str]]]
    keep: list[bool] | None
    signature: list[tuple[str, str]]
    sources: list[str] = field(default_factory=list)
    """The source segments (the neural metrics read them)."""
    units: Units = field(default_factory=Units)
    """Each segment's document and paragraph, where every set names them (``--granularity``)."""
    documents: list[str] | None = None
    """Each segment's document as the file names it, when the set is one file of WMT25's JSON
    lines (whose systems' files may be JSON lines too)."""


def references_of(
    test_set: str,
    langpair: str,
    load: Callable[[str], DatasetFields],
    origlang: str | None = None,
    subset: str | None = None,
) -> SetReferences:
    """The references of ``test_set`` (names comma-separated: the sets concatenated) for
    ``langpair``, each set read by ``load``, filtered by ``origlang``/``subset``."""
    names = test_set.split(",")
    streams: list[tuple[str, list[str]]] = []
    keep: list[bool] = []
    sources: list[str] = []
    docids: list[str] | None = []
    paragraphs: list[str] | None = []
    for name in names:
        fields = load(name)
        sources.extend(fields.src)
        # A set's documents named by the set (two sets may reuse a name: kept apart).
        docids = (
            None if docids is None or fields.docid is None else docids + [f"{name}:{d}" for d in fields.docid]
        )
        paragraphs = None if paragraphs is None or fields.paragraph is None else paragraphs + fields.paragraph
        if not fields.ref_fields:
            raise DatasetError(f"test set {name} {langpair} has no references to score against")
        if streams and len(fields.ref_fields) != len(streams):
            raise DatasetError(f"the sets of -t have different numbers of references ({test_set})")
        if not streams:
            streams = [(f"{test_set} {langpair} ({f})", []) for f in fields.ref_fields]
        for (_, lines), values in zip(streams, fields.refs, strict=True):
            lines.extend(values)
        keep.extend(fields.keep(origlang, subset))
    filters = [(k, v) for k, v in (("origlang", origlang), ("subset", subset)) if v is not None]
    if filters and not any(keep):
        what = " and ".join(f"{k}={v}" for k, v in filters)
        raise DatasetError(f"{test_set} {langpair} has no segment with {what}")
    shown = ",".join(label(name) if is_local(name) else name for name in names)
    documents = fields.docid if len(names) == 1 and is_jsonl(names[0]) else None
    units = Units(docids, paragraphs if docids is not None else None)
    signature = [("test", shown), ("lang", langpair), *filters]
    return SetReferences(streams, keep if filters else None, signature, sources, units, documents)


__all__ = ["SetReferences", "references_of"]
