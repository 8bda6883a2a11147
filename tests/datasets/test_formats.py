"""The test-set parsers on small files in every format, against sacrebleu 2.6.0 reading the same archive."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from understudy.datasets.formats import parse_plain, parse_sgml, parse_tsv, parse_wmt_xml
from understudy.errors import DatasetFormatError

from tests.support.testset_server import sgml
from tests.support.twin_sets import TwinSet

TRICKY = [
    "Die  Katze\tsaß auf der Matte.",
    "Tom &amp; Jerry &quot;zitiert&quot; &lt;b&gt;",
    "  führende und folgende Leerzeichen\u3000 ",
    "",
    "zwei</seg> Ende-Tags </seg> in einer Zeile",
    "Zeichen\u2028Trenner\x85und\x1cSteuer",
]
DOCS = [
    ({"sysid": "ref", "docid": "bbc.1", "genre": "news", "origlang": "en"}, 3),
    ({"docid": "dw.7", "origlang": "de"}, 2),
    ({"docid": "x.9", "genre": "talk", "origlang": "en"}, 1),
]


def test_sgml_fields_equal_sacrebleu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    refs = [f"ref {k} {text}" for k, text in enumerate(TRICKY)]
    files = {"test/a-src.en.sgm": sgml(TRICKY, DOCS), "test/a-ref.de.sgm": sgml(refs, DOCS, "refset")}
    twin = TwinSet(tmp_path, monkeypatch, "wmt99", "wmt-sgml", files, {"en-de": list(files)})
    ours = twin.ours("en-de")
    assert ours.fields == twin.theirs("en-de")
    assert list(ours.fields) == ["src", "ref", "docid", "genre", "origlang"]
    assert (
        ours.fields["src"][1] == "Tom &amp; Jerry &quot;zitiert&quot; &lt;b&gt;"
    )  # entities stay, as in sacrebleu
    assert ours.fields["src"][4] == "zwei</seg> Ende-Tags </seg> in einer Zeile"  # up to the last end tag
    assert ours.fields["genre"] == ["news"] * 5 + ["talk"]  # sacrebleu carries a missing attribute over
    assert list(ours.ref_fields) == twin.their_ref_fields("en-de") == ["ref"]


def test_several_references_and_no_document_fields(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {
        "src.sgm": sgml(["a", "b"], [({"docid": "d"}, 2)]),
        "ref1.sgm": sgml(["x", "y"], [({"docid": "d"}, 2)], "refset"),
        "ref2.sgm": sgml(["p", "q"], [({"docid": "d"}, 2)], "refset"),
    }
    twin = TwinSet(tmp_path, monkeypatch, "wmt08/mini", "wmt-sgml", files, {"fr-en": list(files)})
    ours = twin.ours("fr-en")
    assert (
        ours.fields == twin.theirs("fr-en") == {"src": ["a", "b"], "ref:0": ["x", "y"], "ref:1": ["p", "q"]}
    )
    assert ours.refs == [["x", "y"], ["p", "q"]]
    assert ours.field("ref") == ["x", "y"]  # "ref" falls back to the first reference


def test_addition_set_with_a_plain_reference_download(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"sgm/src.en.sgm": sgml(["eins", "zwei"], [({"docid": "d", "origlang": "en"}, 2)])}
    plain = {"extra-ar.ref": b"one  \r\ntwo\t\n"}
    pairs = {"en-de": ["sgm/src.en.sgm", "wmt19_extra.extra-ar.ref"]}
    twin = TwinSet(tmp_path, monkeypatch, "wmt19/extra", "wmt-addition", files, pairs, plain_downloads=plain)
    assert twin.ours("en-de").fields == twin.theirs("en-de")
    assert twin.ours("en-de").refs == [["one", "two"]]


def test_iwslt_xml_equals_sacrebleu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def talk(texts: list[str]) -> bytes:
        lines = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            "<mteval>",
            '<srcset setid="iwslt" srclang="english">',
        ]
        lines += [
            '<doc docid="535" genre="lectures">',
            "<url>http://www.ted.com/talks/x</url>",
            "<talkid>535</talkid>",
        ]
        lines += [f'<seg id="{k + 1}"> {t} </seg>' for k, t in enumerate(texts)]
        lines += ["</doc>", "</srcset>", "</mteval>"]
        return "\n".join(lines).encode()

    files = {
        "en-fr/IWSLT.en.xml": talk(["Hello  there.", "Thank you."]),
        "en-fr/IWSLT.fr.xml": talk(["Salut.", "Merci."]),
    }
    twin = TwinSet(tmp_path, monkeypatch, "iwslt99", "iwslt-xml", files, {"en-fr": list(files)})
    ours = twin.ours("en-fr")
    assert ours.fields == twin.theirs("en-fr")
    assert ours.fields["src"] == ["Hello there.", "Thank you."]
    assert ours.fields["genre"] == ["lectures", "lectures"]


def wmt_xml(docs: list[dict[str, object]]) -> bytes:
    """A WMT21+ XML file: each doc has attrs, src, refs {translator: texts}, hyps {system: texts}."""
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="wmttest">']
    for doc in docs:
        attrs = " ".join(f'{k}="{v}"' for k, v in doc["attrs"].items())  # type: ignore[attr-defined]
        out.append(f"<doc {attrs}>")

        def block(tag: str, extra: str, texts: list[str | None]) -> None:
            out.append(f"<{tag} {extra}><p>")
            out.extend(f'<seg id="{k + 1}">{escape(t)}</seg>' for k, t in enumerate(texts) if t is not None)
            out.append(f"</p></{tag}>")

        block("src", 'lang="en"', doc["src"])  # type: ignore[arg-type]
        for translator, texts in doc.get("refs", {}).items():  # type: ignore[attr-defined]
            block("ref", f'lang="de" translator="{translator}"' if translator else 'lang="de"', texts)
        for system, texts in doc.get("hyps", {}).items():  # type: ignore[attr-defined]
            block("hyp", f'system="{system}"', texts)
        out.append("</doc>")
    out.append("</dataset>")
    return "\n".join(out).encode("utf-8")


XML_DOCS: list[dict[str, object]] = [
    {
        "attrs": {"id": "news.1", "origlang": "en", "domain": "news"},
        "src": ["A  cat & dog.", "Untranslated.", "Only B."],
        "refs": {"A": ["Eine Katze & ein Hund.", "", None], "B": ["Katze und Hund.", None, "Nur B."]},
        "hyps": {"sys-1": ["Katze & Hund", "Nicht", "B"], "sys-2": ["k", "n", "b"]},
    },
    {
        "attrs": {"id": "suite.1", "origlang": "en", "testsuite": "yes"},
        "src": ["skip me"],
        "refs": {"A": ["x"]},
    },
    {
        "attrs": {"id": "social.2", "origlang": "de", "domain": "social"},
        "src": ["Tschüss\u3000Welt"],
        "refs": {"A": ["Bye <world>"], "B": ["Ciao"]},
        "hyps": {"sys-1": ["Bye"], "sys-2": ["b"]},
    },
]


def test_wmt_xml_fields_equal_sacrebleu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {"xml/test.en-de.all.xml": wmt_xml(XML_DOCS)}
    twin = TwinSet(tmp_path, monkeypatch, "wmt99x", "wmt-xml", files, {"en-de": list(files)}, refs=["B", "A"])
    ours = twin.ours("en-de")
    theirs = twin.theirs("en-de")
    assert ours.fields == theirs  # the same fields and values; sacrebleu's order of references varies
    assert list(ours.fields) == ["src", "ref:A", "ref:B", "docid", "origlang", "domain", "sys-1", "sys-2"]
    assert ours.fields["src"] == ["A cat & dog.", "Only B.", "Tschüss Welt"]  # no reference: skipped
    assert ours.fields["ref:A"] == ["Eine Katze & ein Hund.", "", "Bye <world>"]
    assert ours.ref_fields == ("ref:B", "ref:A")
    assert sorted(ours.ref_fields) == sorted(twin.their_ref_fields("en-de"))
    assert ours.keep(origlang="non-en") == [False, False, True]
    assert ours.keep(subset="^new") == [True, True, False]


def test_a_system_missing_from_a_document_stays_aligned() -> None:
    # sacrebleu's field would be shorter than the others, shifting every later segment.
    docs = [dict(XML_DOCS[0]), {**XML_DOCS[2], "hyps": {"sys-1": ["Bye"]}}]
    fields = parse_wmt_xml(wmt_xml(docs), "t.xml").fields()
    assert fields["sys-2"] == ["k", "b", ""]
    assert len({len(v) for v in fields.values()}) == 1


def test_wmt_xml_reference_without_translator(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs: list[dict[str, object]] = [
        {"attrs": {"id": "d", "origlang": "liv"}, "src": ["a"], "refs": {"": ["b"]}}
    ]
    files = {"liv.xml": wmt_xml(docs)}
    twin = TwinSet(
        tmp_path,
        monkeypatch,
        "wmt99l",
        "wmt-xml",
        files,
        {"liv-en": {"path": "liv.xml", "refs": [""]}},
        refs=["A"],
    )
    ours = twin.ours("liv-en")
    assert (
        ours.fields
        == twin.theirs("liv-en")
        == {"src": ["a"], "ref": ["b"], "docid": ["d"], "origlang": ["liv"]}
    )
    assert ours.refs == [["b"]]


def test_plain_and_tsv_equal_sacrebleu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = {
        "set/a.en": "\ufeffFirst line  \r\nsecond\u2028line\n\nlast".encode(),
        "set/a.fr": b"Premier\nSecond\n \nDernier\n",
    }
    twin = TwinSet(tmp_path, monkeypatch, "plain99", "plain", files, {"en-fr": list(files)})
    ours = twin.ours("en-fr")
    assert ours.fields == twin.theirs("en-fr")
    assert ours.src[0] == "\ufeffFirst line"  # sacrebleu keeps a BOM in test-set files

    tsv = {"T/en-fr.tsv": b"1\tHello \tBonjour\n2\t\t\n3\tBye\tAu revoir\r\n"}
    twin = TwinSet(tmp_path, monkeypatch, "tsv99", "tsv", tsv, {"en-fr": ["1:T/en-fr.tsv", "2:T/en-fr.tsv"]})
    assert (
        twin.ours("en-fr").fields
        == twin.theirs("en-fr")
        == {
            "src": ["Hello", "", "Bye"],
            "ref": ["Bonjour", "", "Au revoir"],
        }
    )


SEG_TEXT = st.text(
    alphabet=st.sampled_from(list("ab <>/seg&;\t \u3000\u2028\x85\x1c\r\u00a0é字")), max_size=25
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(SEG_TEXT, min_size=1, max_size=6))
def test_random_sgml_and_xml_segments_equal_sacrebleu(
    tmp_path_factory: pytest.TempPathFactory, texts: list[str]
) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        tmp = tmp_path_factory.mktemp("twin")
        docs = [({"docid": "d", "origlang": "en"}, len(texts))]
        files = {"s.sgm": sgml(texts, docs), "r.sgm": sgml(texts[::-1], docs, "refset")}
        twin = TwinSet(tmp, monkeypatch, "wmt98", "wmt-sgml", files, {"en-de": list(files)})
        assert twin.ours("en-de").fields == twin.theirs("en-de")

        # XML forbids \x1c; an empty source segment crashes sacrebleu (understudy reads "").
        texts = [t.replace("\x1c", "") or "x" for t in texts]
        xml_docs: list[dict[str, object]] = [
            {
                "attrs": {"id": "d", "origlang": "en"},
                "src": texts,
                "refs": {"A": [t + "x" for t in texts]},
                "hyps": {"s": texts},
            }
        ]
        files = {"t.xml": wmt_xml(xml_docs)}
        twin = TwinSet(tmp, monkeypatch, "wmt98x", "wmt-xml", files, {"en-de": list(files)}, refs=["A"])
        assert twin.ours("en-de").fields == twin.theirs("en-de")


def test_parser_errors_name_file_and_line() -> None:
    with pytest.raises(
        DatasetFormatError, match=r"x\.tsv:2: expected at least 3 TAB-separated columns, found 2"
    ):
        parse_tsv(b"a\tb\tc\nd\te\n", "x.tsv", 2)
    with pytest.raises(DatasetFormatError, match=r"r\.sgm:2: invalid UTF-8"):
        parse_sgml(b'<doc docid="a">\n<seg id="1">\xff</seg>\n', "r.sgm")
    with pytest.raises(DatasetFormatError, match=r"t\.xml:3: not well-formed XML"):
        parse_wmt_xml(b'<dataset>\n<doc id="a">\n<src lang="en"></doc>', "t.xml")
    with pytest.raises(DatasetFormatError, match=r"one <ref> language, found 2"):
        parse_wmt_xml(
            wmt_xml(XML_DOCS).replace(b'lang="de" translator="B"', b'lang="fr" translator="B"'), "t.xml"
        )
    with pytest.raises(DatasetFormatError, match=r"not a readable gzip"):
        parse_plain(b"not gzip", "a.gz")
