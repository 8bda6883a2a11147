"""WMT25's JSON lines read as a test set: a document a line, a paragraph a segment (cut at blank
lines, as WMT25 cuts them), every reference; a system's file read by document id; bad input named
by file and line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from understudy.datasets import load
from understudy.datasets.formats import parse_wmt_xml
from understudy.datasets.local import is_local, label
from understudy.datasets.wmt_jsonl import paragraphs, parse_test_set, system_lines
from understudy.errors import DatasetFormatError, InputFileError, LengthMismatchError, UnknownDatasetError

from tests.datasets.test_formats import XML_DOCS, wmt_xml


def _line(doc: str, src: str, refs: dict[str, str] | None, pair: tuple[str, str] = ("en", "de_DE")) -> str:
    record: dict[str, object] = {"doc_id": doc, "src_lang": pair[0], "tgt_lang": pair[1], "src_text": src}
    record["domain"] = "news"
    record["refs"] = {key: {"ref": text} for key, text in (refs or {}).items()}
    return json.dumps(record, ensure_ascii=False) + "\n"


SET = (
    _line("d1", "One.\n\nTwo two.\nStill two.", {"refA": "Eins.\n\nZwei.\nNoch zwei.", "refB": "1.\n\n2."})
    + _line("skipped", "No reference.", None)
    + _line("cs", "Jedna.", {"refA": "Eins."}, ("cs", "de_DE"))
    + _line("d2", "Three.", {"refA": "Drei."})
).encode("utf-8")


def test_a_paragraph_is_a_segment_and_every_reference_is_kept() -> None:
    got = parse_test_set(SET, "set.jsonl", "en-de_DE")
    assert got.src == ["One.", "Two two. Still two.", "Three."]
    assert got.refs == {"ref:A": ["Eins.", "Zwei. Noch zwei.", "Drei."], "ref:B": ["1.", "2.", ""]}
    assert (got.docid, got.paragraph) == (["d1", "d1", "d2"], ["0", "1", "0"])
    assert got.origlang == ["en"] * 3 and got.domain == ["news"] * 3
    assert parse_test_set(SET, "set.jsonl", "cs-de_DE").src == ["Jedna."]


def test_paragraphs_are_cut_as_wmt25_cuts_them() -> None:
    text = "a\n\nb\nc\n\n\nd\r\n\r\ne\n\n"
    # WMT25's own split, then each paragraph's whitespace collapsed to one line.
    assert paragraphs(text) == [" ".join(p.split()) for p in text.replace("\r\n", "\n").split("\n\n")]
    assert paragraphs(text) == ["a", "b c", "d", "e", ""]


def test_a_local_file_is_a_test_set(tmp_path: Path) -> None:
    path = tmp_path / "wmt25.jsonl.gz"
    path.write_bytes(gzip.compress(SET))
    fields = load(str(path), "en-de_DE")
    assert fields.refs == [["Eins.", "Zwei. Noch zwei.", "Drei."], ["1.", "2.", ""]]
    assert fields.paragraph == ["0", "1", "0"] and fields.keep(origlang="en") == [True] * 3
    assert is_local(str(path)) and not is_local("wmt17")
    import hashlib

    assert label(str(path)) == "wmt25.jsonl.gz@" + hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    xml = tmp_path / "set.xml"
    xml.write_bytes(wmt_xml(XML_DOCS))
    assert load(str(xml), "en-de").ref_fields == ("ref:A", "ref:B")
    # The pair picks the tokenizer: a file's own pair is the only one it answers to.
    with pytest.raises(
        UnknownDatasetError, match=r"set\.xml is en-de \(its <src> and <ref> languages\), not en-ja"
    ):
        load(str(xml), "en-ja")


def test_wmt_xml_paragraphs_are_its_p_elements() -> None:
    data = wmt_xml(XML_DOCS).replace(
        b'<seg id="2">Untranslated.</seg>', b'</p><p><seg id="2">Untranslated.</seg>'
    )
    xml = parse_wmt_xml(data, "t.xml")
    # Segment 2 has no reference and is left out; segment 3 is in the second paragraph.
    assert xml.src == ["A cat & dog.", "Only B.", "Tschüss Welt"]
    assert xml.paragraph == ["0", "1", "0"]


def test_a_systems_documents_in_the_test_sets_order() -> None:
    lines = [
        json.dumps({"doc_id": "d2", "hypothesis": "Drei!"}),
        json.dumps({"doc_id": "other", "hypothesis": "not in the set"}),
        json.dumps({"doc_id": "d1", "hypothesis": "Eins!\n\nZwei!"}),
    ]
    assert system_lines(lines, "s.jsonl", ["d1", "d1", "d2"]) == ["Eins!", "Zwei!", "Drei!"]
    assert system_lines(lines, "s.jsonl", ["d1", "d1", "d2"], whole=True) == ["Eins! Zwei!", "Drei!"]
    with pytest.raises(
        LengthMismatchError, match=r"s\.jsonl:3: document 'd1' has 2 paragraphs but the reference has 3"
    ):
        system_lines(lines, "s.jsonl", ["d1", "d1", "d1", "d2"])
    with pytest.raises(InputFileError, match=r"s\.jsonl: has no document 'd3'"):
        system_lines(lines, "s.jsonl", ["d3"])


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        (b'{"doc_id": "d1"\n', DatasetFormatError, r"set\.jsonl:1: not JSON"),
        (b"[1]\n", DatasetFormatError, r"set\.jsonl:1: expected a JSON object, got list"),
        (
            SET + _line("d1", "x", {"refA": "y"}).encode(),
            DatasetFormatError,
            r"set\.jsonl:5: document 'd1' again",
        ),
        (
            _line("d", "a\n\nb", {"refA": "a"}).encode(),
            DatasetFormatError,
            r"set\.jsonl:1: document 'd' has 2 source paragraphs but 1 in ref:A",
        ),
        (
            b'{"doc_id": "d", "src_lang": "en"}\n',
            DatasetFormatError,
            r"set\.jsonl:1: 'tgt_lang' should be a text",
        ),
        (SET, UnknownDatasetError, r"has no documents of en-fr; it has cs-de_DE, en-de_DE"),
        (
            # Before: both became ref:A, one dropped without a word (nrefs:1).
            _line("d", "x", {"refA": "y", "A": "z"}).encode(),
            DatasetFormatError,
            r"set\.jsonl:1: references 'refA' and 'A' are both ref:A: rename one",
        ),
    ],
)
def test_bad_sets_are_named_by_line(data: bytes, error: type[Exception], message: str) -> None:
    langpair = "en-fr" if "en-fr" in message else "en-de_DE"
    with pytest.raises(error, match=message):
        parse_test_set(data, "set.jsonl", langpair)


def test_bad_system_files_are_named_by_line() -> None:
    with pytest.raises(InputFileError, match=r"s\.jsonl:2: document 'd' again \(first on line 1\)"):
        system_lines(['{"doc_id": "d", "hypothesis": ""}'] * 2, "s.jsonl", ["d"])
    with pytest.raises(InputFileError, match=r"s\.jsonl:1: 'hypothesis' should be a text, got int"):
        system_lines(['{"doc_id": "d", "hypothesis": 3}'], "s.jsonl", ["d"])
