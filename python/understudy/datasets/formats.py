"""Parsers for the test-set file formats; each takes a file's bytes and its name (for errors).

Their output is exactly the text sacrebleu 2.6.0 scores against:

- **WMT SGML** (WMT08-WMT20) and **IWSLT XML**: read line by line, as sacrebleu does
  (these files are not valid XML). A line starting ``<seg `` is a segment: the text
  between its first ``>`` and its last ``</seg>``, whitespace collapsed, entities left
  as written. A line starting ``<doc `` sets the document attributes (``docid``,
  ``genre``, ``origlang``) of the segments after it.
- **WMT XML** (WMT21+): one file with the source, every translator's reference
  (``ref:A``, ``ref:B``), every system's output, and per document its id, original
  language and domain. Test-suite documents are skipped, and so are segments that no
  translator translated.
- **Plain text**: one segment per line, trailing whitespace removed.
- **TSV**: one column of a TAB-separated file, trailing whitespace removed.

Files ending in ``.gz`` are decompressed first.

>>> sgml = b'<doc docid="a1" origlang="de">\\n<seg id="1"> Guten   Tag </seg>\\n</doc>\\n'
>>> parse_sgml(sgml, "src.sgm")
SgmlText(segments=['Guten Tag'], docs=[{'docid': 'a1', 'origlang': 'de'}])
>>> parse_tsv(b"1\\tHallo\\tHello \\n", "x.tsv", column=2)
['Hello']
"""

from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass, field

from understudy.errors import DatasetFormatError, InputFileError
from understudy.inputs.files import decode_lines

_SEG = re.compile(r"<seg.*?>(.*)</seg>.*?")
_ATTRIBUTE = re.compile(r'([\w:.-]+)="([^"]*)"')


def collapse(text: str) -> str:
    """Whitespace runs to one space, none at the ends (sacrebleu's ``_clean``).

    >>> collapse("  a \\t b\\u3000c\\n")
    'a b c'
    """
    return " ".join(text.split())


def gunzipped(data: bytes, name: str) -> bytes:
    """A file's bytes, decompressed when its name ends in ``.gz``."""
    if not name.endswith(".gz"):
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as err:
        raise DatasetFormatError(f"{name}: not a readable gzip file: {err}") from None


def text_lines(data: bytes, name: str) -> list[str]:
    """The lines of a test-set file: gunzipped if ``.gz``, strict UTF-8, a BOM kept."""
    data = gunzipped(data, name)
    try:
        return decode_lines(data, name, keep_bom=True)
    except InputFileError as err:
        raise DatasetFormatError(str(err)) from None


@dataclass(frozen=True)
class SgmlText:
    """The segments of a WMT SGML or IWSLT XML file, and the attributes of each one's document."""

    segments: list[str]
    docs: list[dict[str, str]]


def parse_sgml(data: bytes, name: str) -> SgmlText:
    """Segments and document attributes of a WMT ``.sgm`` or IWSLT ``.xml`` file."""
    segments: list[str] = []
    docs: list[dict[str, str]] = []
    attributes: dict[str, str] = {}
    for line in text_lines(data, name):
        if line.startswith("<doc "):
            attributes = dict(_ATTRIBUTE.findall(line))
        elif line.startswith("<seg "):
            segments.append(collapse(_SEG.sub(r"\1", line)))
            docs.append(attributes)
    return SgmlText(segments, docs)


def parse_plain(data: bytes, name: str) -> list[str]:
    """The lines of a plain-text file, trailing whitespace removed."""
    return [line.rstrip() for line in text_lines(data, name)]


def parse_tsv(data: bytes, name: str, column: int) -> list[str]:
    """Column ``column`` (from 0) of a TAB-separated file, trailing whitespace removed."""
    values = []
    for lineno, line in enumerate(text_lines(data, name), 1):
        parts = line.split("\t")
        if column >= len(parts):
            raise DatasetFormatError(
                f"{name}:{lineno}: expected at least {column + 1} TAB-separated columns, found {len(parts)}"
            )
        values.append(parts[column].rstrip())
    return values


@dataclass
class WmtXml:
    """The fields of a WMT21+ XML file, one value per kept segment.

    ``refs`` maps each reference field (``ref:A``, or ``ref`` for a reference without
    a translator) to its text; ``systems`` maps system names to their output.
    """

    src: list[str] = field(default_factory=list)
    refs: dict[str, list[str]] = field(default_factory=dict)
    docid: list[str] = field(default_factory=list)
    origlang: list[str] = field(default_factory=list)
    domain: list[str | None] = field(default_factory=list)
    systems: dict[str, list[str]] = field(default_factory=dict)
    paragraph: list[str] = field(default_factory=list)
    """Each segment's paragraph in its document (the source's ``<p>``, counted from 0; "" outside one)."""
    langpair: str = ""
    """The source's and the references' languages (``en-de``)."""

    def fields(self) -> dict[str, list[str]]:
        """Every field by name: src, the references, docid, origlang, domain (if any), systems."""
        out = {"src": self.src, **self.refs, "docid": self.docid, "origlang": self.origlang}
        if any(d is not None for d in self.domain):
            out["domain"] = [d or "" for d in self.domain]
        return {**out, **self.systems}


def ref_field(translator: str | None) -> str:
    """The field name of a translator's reference: ``ref:A``, or ``ref`` for none."""
    return f"ref:{translator}" if translator else "ref"


def _segments(parent: ET.Element, path: str, name: str) -> dict[int, str]:
    out = {}
    for seg in parent.iterfind(path):
        try:
            seg_id = int(seg.get("id", ""))
        except ValueError:
            raise DatasetFormatError(f"{name}: a <seg> has the id {seg.get('id')!r}, not a number") from None
        out[seg_id] = seg.text or ""
    return out


def _one_language(root: ET.Element, tag: str, name: str) -> str:
    langs = {e.get("lang") for e in root.iter(tag)}
    if len(langs) != 1:
        raise DatasetFormatError(f"{name}: expected one <{tag}> language, found {len(langs)}")
    return next(iter(langs)) or ""


def parse_wmt_xml(data: bytes, name: str) -> WmtXml:
    """The fields of a WMT21+ XML file (see :class:`WmtXml`)."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as err:
        line, column = err.position
        raise DatasetFormatError(f"{name}:{line}: not well-formed XML (column {column + 1})") from None
    out = WmtXml()
    out.langpair = f"{_one_language(root, 'src', name)}-{_one_language(root, 'ref', name)}"
    translators = sorted({ref_field(r.get("translator")) for r in root.iter("ref")})
    out.refs = {t: [] for t in translators}
    documents = [doc for doc in root.iter("doc") if "testsuite" not in doc.attrib]
    systems = {hyp.get("system") or "": None for doc in documents for hyp in doc.iterfind(".//hyp")}
    out.systems = {system: [] for system in systems}
    for doc in documents:
        source = _segments(doc, ".//src//seg", name)
        paragraphs = {
            seg_id: str(k)
            for k, p in enumerate(doc.iterfind("src/p"))
            for seg_id in _segments(p, ".//seg", name)
        }
        refs = {ref_field(r.get("translator")): _segments(r, ".//seg", name) for r in doc.iterfind(".//ref")}
        hyps = {h.get("system") or "": _segments(h, ".//seg", name) for h in doc.iterfind(".//hyp")}
        for seg_id in sorted(source):
            if not any(segs.get(seg_id) for segs in refs.values()):
                continue
            out.src.append(collapse(source[seg_id]))
            for translator, texts in out.refs.items():
                texts.append(collapse(refs.get(translator, {}).get(seg_id, "")))
            for system, texts in out.systems.items():
                texts.append(collapse(hyps.get(system, {}).get(seg_id, "")))
            out.docid.append(doc.get("id", ""))
            out.origlang.append(doc.get("origlang", ""))
            out.domain.append(doc.get("domain"))
            out.paragraph.append(paragraphs.get(seg_id, ""))
    return out
