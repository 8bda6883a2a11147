"""WMT25's JSON lines: a test set of whole documents, and systems' outputs of them.

The test set (``wmt25-genmt.jsonl``) holds one document a line: ``doc_id``, ``src_lang``,
``tgt_lang``, ``domain``, ``src_text`` and ``refs`` (``{"refA": {"ref": TEXT}}``, empty where no
translator translated it). A system's file holds one document a line too: ``doc_id`` and
``hypothesis``. A document's paragraphs are separated by a blank line (``"\\n\\n"``), as WMT25
cuts them to score and annotate; a paragraph is one segment here, its inner line breaks and
whitespace runs collapsed to one space (as WMT XML segments are read).

>>> data = (
...     b'{"doc_id": "en-de_DE_#_news_#_1", "src_lang": "en", "tgt_lang": "de_DE", "domain": "news", '
...     b'"src_text": "Hi.\\\\n\\\\nBye now.", '
...     b'"refs": {"refA": {"ref": "Hallo.\\\\n\\\\nTsch\\\\u00fcss\\\\njetzt."}}}\\n'
... )
>>> doc = parse_test_set(data, "set.jsonl", "en-de_DE")
>>> doc.src, doc.refs, doc.paragraph
(['Hi.', 'Bye now.'], {'ref:A': ['Hallo.', 'Tschüss jetzt.']}, ['0', '1'])
>>> paragraphs("a\\r\\n\\r\\nb\\nc")
['a', 'b c']
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from understudy.datasets.formats import collapse, text_lines
from understudy.errors import (
    DatasetFormatError,
    InputFileError,
    LengthMismatchError,
    UnderstudyError,
    UnknownDatasetError,
)
from understudy.wording import counted

BREAK = "\n\n"
"""What separates two paragraphs of a document."""


def paragraphs(text: str) -> list[str]:
    """A document's paragraphs (WMT25's ``split("\\n\\n")``, Windows line ends read as Unix ones),
    each on one line."""
    return [collapse(p) for p in text.replace("\r\n", "\n").split(BREAK)]


@dataclass
class WmtJsonl:
    """A WMT25 test set's language pair, one value a paragraph."""

    src: list[str] = field(default_factory=list)
    refs: dict[str, list[str]] = field(default_factory=dict)
    docid: list[str] = field(default_factory=list)
    paragraph: list[str] = field(default_factory=list)
    domain: list[str] = field(default_factory=list)
    origlang: list[str] = field(default_factory=list)

    def fields(self) -> dict[str, list[str]]:
        """Every field by name: src, the references, docid, paragraph, domain, origlang (the
        source's language: WMT25's sources are original texts)."""
        out = {"src": self.src, **self.refs, "docid": self.docid, "paragraph": self.paragraph}
        return out | {"domain": self.domain, "origlang": self.origlang}


def _records(
    lines: list[str], name: str, error: type[UnderstudyError] = DatasetFormatError
) -> list[tuple[int, dict[str, Any]]]:
    """Each non-blank line's JSON object, with its line number (else ``error``, naming the line)."""
    out = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line.lstrip("\ufeff"))
        except json.JSONDecodeError as err:
            raise error(f"{name}:{number}: not JSON ({err.msg}, column {err.colno})") from None
        if not isinstance(record, dict):
            raise error(f"{name}:{number}: expected a JSON object, got {type(record).__name__}")
        out.append((number, record))
    return out


def _text(
    record: dict[str, Any],
    key: str,
    name: str,
    number: int,
    error: type[UnderstudyError] = DatasetFormatError,
) -> str:
    value = record.get(key)
    if not isinstance(value, str):
        got = "nothing" if value is None else type(value).__name__
        raise error(f"{name}:{number}: {key!r} should be a text, got {got}")
    return value


def _references(record: dict[str, Any], name: str, number: int) -> dict[str, str]:
    """A record's references by field name (``refA`` is ``ref:A``)."""
    refs = record.get("refs") or {}
    if not isinstance(refs, dict):
        raise DatasetFormatError(f"{name}:{number}: 'refs' should be an object of references")
    out: dict[str, str] = {}
    keys: dict[str, str] = {}
    for key, value in refs.items():
        text = value.get("ref") if isinstance(value, dict) else None
        if not isinstance(text, str):
            raise DatasetFormatError(f"{name}:{number}: reference {key!r} has no text ('ref')")
        field = f"ref:{key.removeprefix('ref') or key}"
        if field in keys:  # both would be one field: one reference dropped without a word
            raise DatasetFormatError(
                f"{name}:{number}: references {keys[field]!r} and {key!r} are both {field}: rename one"
            )
        keys[field], out[field] = key, text
    return out


@dataclass(frozen=True)
class _Document:
    pair: str
    doc: str
    source: list[str]
    refs: dict[str, list[str]]
    domain: str


def _document(record: dict[str, Any], refs: dict[str, str], name: str, number: int) -> _Document:
    """A record's document, its references checked to have as many paragraphs as its source."""
    doc = _text(record, "doc_id", name, number)
    source = paragraphs(_text(record, "src_text", name, number))
    cut = {key: paragraphs(text) for key, text in refs.items()}
    for key, parts in cut.items():
        if len(parts) != len(source):
            raise DatasetFormatError(
                f"{name}:{number}: document {doc!r} has {len(source)} source paragraphs but "
                f"{len(parts)} in {key}"
            )
    pair = f"{record['src_lang']}-{record['tgt_lang']}"
    return _Document(pair, doc, source, cut, str(record.get("domain") or ""))


def parse_test_set(data: bytes, name: str, langpair: str) -> WmtJsonl:
    """The documents of ``langpair`` (``src_lang-tgt_lang``, ``en-de_DE``) that have a reference,
    a paragraph a segment; a reference missing from a document is empty there."""
    pairs: set[str] = set()
    kept: dict[str, _Document] = {}
    for number, record in _records(text_lines(data, name), name):
        pair = f"{_text(record, 'src_lang', name, number)}-{_text(record, 'tgt_lang', name, number)}"
        pairs.add(pair)
        refs = _references(record, name, number)
        if pair != langpair or not refs:
            continue
        document = _document(record, refs, name, number)
        if document.doc in kept:
            raise DatasetFormatError(f"{name}:{number}: document {document.doc!r} again")
        kept[document.doc] = document
    if langpair not in pairs:
        raise UnknownDatasetError(f"{name} has no documents of {langpair}; it has {', '.join(sorted(pairs))}")
    out = WmtJsonl()
    out.refs = {key: [] for key in sorted({key for d in kept.values() for key in d.refs})}
    for d in kept.values():
        n = len(d.source)
        out.src += d.source
        for key, lines in out.refs.items():
            lines += d.refs.get(key, [""] * n)
        out.docid += [d.doc] * n
        out.paragraph += [str(k) for k in range(n)]
        out.domain += [d.domain] * n
        out.origlang += [d.pair.partition("-")[0].partition("_")[0]] * n
    return out


def pairs(data: bytes, name: str) -> dict[str, tuple[int, int]]:
    """Each language pair of a test set: its documents, and how many of them have a reference.

    >>> pairs(b'{"src_lang": "en", "tgt_lang": "de_DE", "refs": {}}\\n', "set.jsonl")
    {'en-de_DE': (1, 0)}
    """
    out: dict[str, tuple[int, int]] = {}
    for number, record in _records(text_lines(data, name), name):
        pair = f"{_text(record, 'src_lang', name, number)}-{_text(record, 'tgt_lang', name, number)}"
        documents, referenced = out.get(pair, (0, 0))
        out[pair] = (documents + 1, referenced + bool(_references(record, name, number)))
    return dict(sorted(out.items()))


def parse_hypotheses(lines: list[str], name: str) -> dict[str, tuple[int, str]]:
    """A system's documents (its file's lines): ``doc_id`` to its line number and its ``hypothesis``."""
    out: dict[str, tuple[int, str]] = {}
    for number, record in _records(lines, name, InputFileError):
        doc = _text(record, "doc_id", name, number, InputFileError)
        if doc in out:
            raise InputFileError(f"{name}:{number}: document {doc!r} again (first on line {out[doc][0]})")
        out[doc] = (number, _text(record, "hypothesis", name, number, InputFileError))
    return out


def system_lines(lines: list[str], name: str, docids: list[str], whole: bool = False) -> list[str]:
    """A system's output (its file's lines) of the test set whose paragraphs are of the documents
    ``docids`` (one id a paragraph) as lines: a paragraph a line, each document as many as the
    reference's; or, ``whole``, a document a line (to be cut into the reference's paragraphs).

    >>> system_lines(['{"doc_id": "d", "hypothesis": "A.\\\\n\\\\nB."}'], "sys.jsonl", ["d", "d"])
    ['A.', 'B.']
    """
    found = parse_hypotheses(lines, name)
    documents: dict[str, int] = {}
    for doc in docids:
        documents[doc] = documents.get(doc, 0) + 1
    out: list[str] = []
    for doc, count in documents.items():
        if doc not in found:
            raise InputFileError(f"{name}: has no document {doc!r} (its 'doc_id'), which the test set has")
        number, text = found[doc]
        if whole:
            out.append(" ".join(p for p in paragraphs(text) if p))
            continue
        parts = paragraphs(text)
        if len(parts) != count:
            raise LengthMismatchError(
                f"{name}:{number}: document {doc!r}"
                f" has {counted(len(parts), 'paragraph')} but the reference has "
                f"{count}; --resegment cuts it into the reference's"
            )
        out += parts
    return out


__all__ = ["BREAK", "WmtJsonl", "pairs", "paragraphs", "parse_hypotheses", "parse_test_set", "system_lines"]
