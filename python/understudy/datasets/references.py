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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from understudy.datasets.fields import DatasetFields
from understudy.datasets.local import is_jsonl, is_local, label
from understudy.errors import DatasetError, LengthMismatchError
from understudy.inputs.parallel import Reshape, kept, read_texts, warn_json_lines_as_text
from understudy.segmentation.granularity import Units
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.result import Result
    from understudy.stats import Stats


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

    def read_against(
        self,
        paths: Sequence[str],
        reshape: Reshape | None = None,
        whole: bool = False,
        where: str = "the test set",
        filtered: bool = False,
    ) -> tuple[list[list[str]], list[list[str]]]:
        """The reference streams and the systems of ``paths`` (:func:`read_systems`) as scored
        (after ``reshape``), every system as long as the references (``where``: the set, as a
        length error names it); with ``filtered``, only the segments ``keep`` keeps."""
        refs = [lines for _, lines in self.streams]
        systems = read_systems(paths, self, whole)
        if reshape is not None:
            refs, systems = reshape(refs, systems)
        for path, lines in zip(paths, systems, strict=True):
            if len(lines) != len(refs[0]):
                raise LengthMismatchError(
                    f"{where} has {counted(len(refs[0]), 'segment')} but {path} has {len(lines)}"
                )
        if filtered and self.keep is not None:
            return kept(refs, self.keep), kept(systems, self.keep)
        return refs, systems


def read_systems(
    paths: Sequence[str], testset: SetReferences | None = None, whole: bool = False
) -> list[list[str]]:
    """Each system's lines: a text file's, or (when ``testset`` is a file of WMT25's JSON lines)
    a ``.jsonl`` system file's documents a paragraph a line, or ``whole``, a document a line (to
    be cut into the reference's paragraphs).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "hyp.txt")
    >>> _ = open(path, "w", encoding="utf-8").write("Hello.  \\nHi.\\n")
    >>> read_systems([path])
    [['Hello.', 'Hi.']]
    """
    if testset is None or testset.documents is None:
        warn_json_lines_as_text(paths)
        return read_texts(paths)
    from understudy.datasets.wmt_jsonl import system_lines
    from understudy.inputs.files import read_lines

    documents = testset.documents
    return [
        system_lines(read_lines(path), path, documents, whole) if is_jsonl(path) else read_texts([path])[0]
        for path in paths
    ]


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


def detail_subsets(fields: DatasetFields) -> list[str]:
    """The subsets sacrebleu's ``--detail`` breaks a set into: its domains, or WMT18/19's
    countries (``country:XX``) and domains.

    >>> texts = {"src": ["a", "b"], "ref": ["a", "b"]}
    >>> detail_subsets(DatasetFields("toy", "de-en", texts, ("ref",), domain=["news", "tech"]))
    ['news', 'tech']
    """
    if fields.domain is not None:
        return sorted({d for d in fields.domain if d is not None})
    if fields.subsets is not None:
        tags = set(fields.subsets.values())
        return sorted({f"country:{t.split('-')[0]}" for t in tags} | {t.split("-")[1] for t in tags})
    return []


def detail_scores(
    parts: Sequence[DatasetFields],
    stats: Sequence[Stats[Any, Any]],
    origlang: str | None = None,
    subset: str | None = None,
) -> list[tuple[str, int, list[Result]]]:
    """sacrebleu's ``--detail``: for each original language (``origlang`` alone when given) and
    each subset of it (all, then :func:`detail_subsets`; ``subset`` alone when given), its key
    (``origlang=de domain=ALL``), its number of segments and each metric's score there, from one
    system's statistics per metric over every segment of ``parts`` (the sets, concatenated);
    empty when the sets have no original languages."""
    origlangs = [origlang] if origlang else sorted({o for p in parts for o in p.origlang or []})
    subsets: list[str | None] = (
        [None, subset] if subset else [None, *sorted({s for p in parts for s in detail_subsets(p)})]
    )
    rows: list[tuple[str, int, list[Result]]] = []
    for lang in origlangs:
        for part in subsets:
            mask = np.array([k for p in parts for k in p.keep(lang, part)], dtype=bool)
            if not mask.any():
                continue
            if part is None:
                where = "domain=ALL"
            else:
                where = f"country={part[8:]}" if part.startswith("country:") else f"domain={part}"
            scores = [type(s)(s.rows[mask], s.refs_per_segment[mask], s.config).score() for s in stats]
            rows.append((f"origlang={lang} {where}", int(mask.sum()), scores))
    return rows


__all__ = ["SetReferences", "detail_scores", "detail_subsets", "references_of"]
