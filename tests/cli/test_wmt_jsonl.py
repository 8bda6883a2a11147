"""``-t FILE.jsonl``: WMT25's JSON lines scored as a test set, its systems' JSON-lines files read by
document id, at every granularity, and cut into the reference's paragraphs where a system broke
them elsewhere. The oracle is sacrebleu on the paragraphs and documents joined by hand."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
from understudy import BLEU
from understudy.segmentation import resegment

from tests.support.cli import run_cli
from tests.support.paths import ONLINE_A, REF, UEDIN, read_raw

DOCS, LINES, PARAGRAPH = 15, 20, 4
"""15 documents of WMT17's sample, 20 lines each, a paragraph every 4 lines."""


def _paragraphs(lines: list[str]) -> list[str]:
    return [" ".join(lines[k : k + PARAGRAPH]) for k in range(0, len(lines), PARAGRAPH)]


def _lines(path: Path) -> list[list[str]]:
    raw = [line.lstrip("\ufeff") for line in read_raw(path)[: DOCS * LINES]]
    return [raw[d * LINES : (d + 1) * LINES] for d in range(DOCS)]


@pytest.fixture(scope="module")
def wmt25(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The set (with a document of another pair and one without a reference), each system's
    file (its documents in another order, beside one of another pair), and one system that
    merged two paragraphs of every document."""
    folder = tmp_path_factory.mktemp("wmt25")
    made = {
        "set": folder / "set.jsonl",
        "a": folder / "a.jsonl",
        "b": folder / "b.jsonl",
        "m": folder / "m.jsonl",
    }
    refs, a, b = _lines(REF), _lines(UEDIN), _lines(ONLINE_A)
    with open(made["set"], "w", encoding="utf-8") as out:
        out.write(
            json.dumps({"doc_id": "x", "src_lang": "en", "tgt_lang": "cs_CZ", "src_text": "x", "refs": {}})
            + "\n"
        )
        for d in range(DOCS):
            ref = "\n\n".join(_paragraphs(refs[d]))
            record: dict[str, object] = {
                "doc_id": f"en-de_DE_#_news_#_{d}",
                "src_lang": "en",
                "tgt_lang": "de_DE",
                "domain": "news",
            }
            record |= {"src_text": "\n\n".join(_paragraphs(a[d])), "refs": {"refA": {"ref": ref}}}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        out.write(
            json.dumps({"doc_id": "y", "src_lang": "en", "tgt_lang": "de_DE", "src_text": "y", "refs": {}})
            + "\n"
        )
    for name, lines in [("a", a), ("b", b)]:
        with open(made[name], "w", encoding="utf-8") as out:
            for d in reversed(range(DOCS)):
                text = "\n\n".join(_paragraphs(lines[d]))
                out.write(json.dumps({"doc_id": f"en-de_DE_#_news_#_{d}", "hypothesis": text}) + "\n")
            out.write(json.dumps({"doc_id": "x", "hypothesis": "x"}) + "\n")
    with open(made["m"], "w", encoding="utf-8") as out:
        for d in range(DOCS):
            parts = _paragraphs(a[d])
            text = "\n\n".join([parts[0] + " " + parts[1], *parts[2:]])
            out.write(json.dumps({"doc_id": f"en-de_DE_#_news_#_{d}", "hypothesis": text}) + "\n")
    return made


def _score(
    capsys: pytest.CaptureFixture[str], wmt25: dict[str, Path], system: str, *extra: str
) -> dict[str, dict[str, Any]]:
    argv = [
        "score",
        "-t",
        str(wmt25["set"]),
        "-l",
        "en-de_DE",
        "-i",
        str(wmt25[system]),
        "-m",
        "bleu",
        "chrf",
    ]
    status, out, err = run_cli(capsys, *argv, "-w", "6", "-f", "json", *extra)
    assert status == 0, err
    return {r["name"]: r for r in json.loads(out)}


def test_paragraphs_and_documents_score_as_sacrebleu_on_them(
    wmt25: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    refs, hyps = _lines(REF), _lines(UEDIN)
    by_paragraph = (
        [p for d in range(DOCS) for p in _paragraphs(refs[d])],
        [p for d in range(DOCS) for p in _paragraphs(hyps[d])],
    )
    by_document = [" ".join(d) for d in refs], [" ".join(d) for d in hyps]
    sha = hashlib.sha256(wmt25["set"].read_bytes()).hexdigest()[:12]
    for granularity, (ref, hyp) in [
        ("segment", by_paragraph),
        ("paragraph", by_paragraph),
        ("document", by_document),
    ]:
        got = _score(capsys, wmt25, "a", "--granularity", granularity)
        assert got["BLEU"]["score"] == round(sacrebleu.corpus_bleu(hyp, [ref]).score, 6), granularity
        assert got["chrF2"]["score"] == round(sacrebleu.corpus_chrf(hyp, [ref]).score, 6), granularity
        assert got["BLEU"]["test"] == f"set.jsonl@{sha}" and got["BLEU"]["lang"] == "en-de_DE"
        assert got["BLEU"].get("gran") == (None if granularity == "segment" else granularity)


def test_a_plain_text_system_a_paragraph_a_line_scores_the_same(
    wmt25: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "a.txt"
    plain.write_text("".join(p + "\n" for d in _lines(UEDIN) for p in _paragraphs(d)), encoding="utf-8")
    wmt25 = {**wmt25, "plain": plain}
    assert _score(capsys, wmt25, "plain")["BLEU"]["score"] == _score(capsys, wmt25, "a")["BLEU"]["score"]


def test_paragraphs_broken_elsewhere_are_refused_then_cut(
    wmt25: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", "-t", str(wmt25["set"]), "-l", "en-de_DE", "-i", str(wmt25["m"]), "-m", "bleu"]
    status, out, err = run_cli(capsys, *argv)
    assert status != 0 and out == "" and err.count("\n") == 1
    assert "m.jsonl:1: document 'en-de_DE_#_news_#_0' has 4 paragraphs but the reference has 5" in err
    got = _score(capsys, wmt25, "m", "--resegment")
    refs = [p for d in _lines(REF) for p in _paragraphs(d)]
    docids = [f"d{d}" for d in range(DOCS) for _ in range(LINES // PARAGRAPH)]
    cut = resegment([" ".join(d) for d in _lines(UEDIN)], refs, docids=docids)
    assert got["BLEU"]["score"] == round(BLEU().corpus_score(cut, [refs]).score, 6)
    assert got["BLEU"]["reseg"] == "mweralign"


def test_compare_and_report_read_the_set(
    wmt25: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "report.html"
    argv = ["report", "-t", str(wmt25["set"]), "-l", "en-de_DE", "-i", str(wmt25["a"]), str(wmt25["b"])]
    status, _, err = run_cli(capsys, *argv, "-m", "bleu", "-o", str(page), "--granularity", "document")
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert "gran:document" in html and _lines(UEDIN)[0][0].split()[0] in html
    argv = ["gate", "-t", str(wmt25["set"]), "-l", "en-de_DE", "--baseline", str(wmt25["a"])]
    status, out, err = run_cli(capsys, *argv, "--candidate", str(wmt25["b"]), "-f", "json")
    assert status in (0, 1), err
    result = json.loads(out)["results"][0]
    refs = [p for d in _lines(REF) for p in _paragraphs(d)]
    hyps = [p for d in _lines(ONLINE_A) for p in _paragraphs(d)]
    assert result["candidate"] == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score, abs=1e-9)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["-l", "en-fr"], "set.jsonl has no documents of en-fr; it has en-cs_CZ, en-de_DE"),
        (["-l", "en-de_DE", "-i", "MISSING"], "MISSING.jsonl: has no document 'en-de_DE_#_news_#_0'"),
    ],
)
def test_bad_sets_and_systems_are_one_line(
    wmt25: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    (tmp_path / "MISSING.jsonl").write_text('{"doc_id": "z", "hypothesis": "z"}\n', encoding="utf-8")
    extra = [str(tmp_path / "MISSING.jsonl") if e == "MISSING" else e for e in extra]
    if "-i" not in extra:
        extra += ["-i", str(wmt25["a"])]
    status, out, err = run_cli(capsys, "score", "-t", str(wmt25["set"]), *extra, "-m", "bleu")
    assert status != 0 and out == "" and err.count("\n") == 1 and message in err, err


def test_echo_prints_documents_and_paragraphs(
    wmt25: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(
        capsys, "testset", "echo", str(wmt25["set"]), "-l", "en-de_DE", "docid", "paragraph"
    )
    assert status == 0, err
    rows = out.splitlines()
    assert len(rows) == DOCS * LINES // PARAGRAPH
    assert rows[:2] == ["en-de_DE_#_news_#_0\t0", "en-de_DE_#_news_#_0\t1"]


def test_info_lists_the_files_pairs(wmt25: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "testset", "info", str(wmt25["set"]), "-l", "en-de_DE")
    assert status == 0, err
    sha = hashlib.sha256(wmt25["set"].read_bytes()).hexdigest()[:12]
    lines = out.splitlines()
    assert f"signature name: set.jsonl@{sha}" in lines
    # The set's 15 documents and one without a reference; the other pair's one, without.
    assert "  en-cs_CZ  1, 0" in lines and f"  en-de_DE  {DOCS + 1}, {DOCS}" in lines
    fields = "src, ref:A, docid, paragraph, domain, origlang"
    assert f"en-de_DE: {DOCS * LINES // PARAGRAPH} segments; fields: {fields}" in lines


def test_a_json_lines_system_beside_a_plain_reference_is_warned_of(
    wmt25: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = tmp_path / "ref.de"  # one line a document: as many lines as the system file has
    ref.write_text("".join(" ".join(d) + "\n" for d in _lines(REF)) + "x\n", encoding="utf-8")
    warned = r"a\.jsonl is read as plain text, one segment a line: .* \(-t FILE\.jsonl -l PAIR\)"
    with pytest.warns(UserWarning, match=warned):
        status, _, err = run_cli(capsys, "score", str(ref), "-i", str(wmt25["a"]), "-m", "bleu")
    assert status == 0, err


def test_compare_tests_the_sets_systems_as_their_paragraph_files(
    wmt25: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {}
    for name, path in (("ref", REF), ("a", UEDIN), ("b", ONLINE_A)):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text(
            "".join(p + "\n" for d in _lines(path) for p in _paragraphs(d)), encoding="utf-8"
        )
    options = ["-m", "bleu", "chrf", "-n", "200", "-f", "json"]
    argv = ["compare", "-t", str(wmt25["set"]), "-l", "en-de_DE", "-i", str(wmt25["a"]), str(wmt25["b"])]
    status, out, err = run_cli(capsys, *argv, *options, "--origlang", "en")
    assert status == 0, err
    status, expected, err = run_cli(
        capsys, "compare", str(files["ref"]), "-i", str(files["a"]), str(files["b"]), *options
    )
    assert status == 0, err
    for got, want in zip(json.loads(out), json.loads(expected), strict=True):
        assert [p["p_value"] for p in got["pairs"]] == [p["p_value"] for p in want["pairs"]]
        assert [s["score"] for s in got["ranking"]] == [s["score"] for s in want["ranking"]]
        assert got["signature"].startswith("nrefs:1|test:set.jsonl@") and "|origlang:en|" in got["signature"]
