"""The command line: output formats, sacrebleu-equal numbers, and one-line errors."""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path

import pytest
import sacrebleu
from understudy.signature import Signature

from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE, read_raw

REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
ONLINE_A = SAMPLE / "newstest2017.online-A.0.en-de.de"  # starts with a byte-order mark
PROMT = SAMPLE / "newstest2017.PROMT-Rule-based.4735.en-de.de"  # has non-breaking spaces


def write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def test_json_single_system_matches_sacrebleu(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", str(REF), "-i", str(UEDIN), "-w", "4")
    assert status == 0
    record = json.loads(out)
    expected = sacrebleu.corpus_bleu(read_raw(UEDIN), [read_raw(REF)])
    assert record["score"] == round(expected.score, 4)
    assert record["counts"] == expected.counts
    Signature.parse(record["signature"])  # always present and parseable
    assert record["tok"] == "13a" and record["ngram"] == "4"


def test_bom_is_dropped_and_nbsp_is_whitespace(capsys: pytest.CaptureFixture[str]) -> None:
    hyps = read_raw(ONLINE_A)
    assert hyps[0].startswith("\ufeff")
    expected = sacrebleu.corpus_bleu([hyps[0][1:], *hyps[1:]], [read_raw(REF)])
    status, out, _ = run(capsys, "score", str(REF), "-i", str(ONLINE_A), "-b", "-w", "6")
    assert status == 0 and out.strip() == f"{expected.score:.6f}"
    expected = sacrebleu.corpus_bleu(read_raw(PROMT), [read_raw(REF)])
    status, out, _ = run(capsys, "score", str(REF), "-i", str(PROMT), "-b", "-w", "6")
    assert out.strip() == f"{expected.score:.6f}"


def test_text_table_for_several_systems(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", str(REF), "-i", str(UEDIN), str(PROMT), "-f", "text", "-sh")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].split() == ["System", "BLEU"]
    uedin = sacrebleu.corpus_bleu(read_raw(UEDIN), [read_raw(REF)]).score
    assert lines[2].split() == [str(UEDIN), f"{uedin:.1f}"]
    assert lines[-1].startswith("BLEU signature: #:1|c:mixed|e:no|tok:13a|s:exp|n:4|v:")


def test_json_for_several_systems_carries_signatures(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "score", str(REF), "-i", str(UEDIN), str(PROMT))
    records = json.loads(out)
    assert [r["system"] for r in records] == [str(UEDIN), str(PROMT)]
    assert all("signature" in r for r in records)


def test_latex(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a = write(tmp_path / "sys_a.txt", b"a b c d\n")
    b = write(tmp_path / "sys_b.txt", b"a b c e\n")
    ref = write(tmp_path / "ref.txt", b"a b c d\n")
    _, out, _ = run(capsys, "score", ref, "-i", a, b, "-f", "latex")
    assert r"\toprule" in out and "sys\\_a.txt & 100.0" in out and "% BLEU signature: nrefs:1" in out


def test_sentence_level_matches_sentence_bleu(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hyps, refs = read_raw(UEDIN)[:20], read_raw(REF)[:20]
    h = write(tmp_path / "h.txt", "\n".join(hyps).encode() + b"\n")
    r = write(tmp_path / "r.txt", "\n".join(refs).encode() + b"\n")
    _, out, _ = run(capsys, "score", r, "-i", h, "-sl", "-b", "-w", "8")
    expected = [f"{sacrebleu.sentence_bleu(x, [y]).score:.8f}" for x, y in zip(hyps, refs, strict=True)]
    assert out.split() == expected
    _, out, _ = run(capsys, "score", r, "-i", h, "-sl")
    assert [rec["segment"] for rec in json.loads(out)] == list(range(1, 21))


def test_tab_separated_references_and_max_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hyp = write(tmp_path / "h.txt", b"the cat sat\na dog\n")
    refs = write(tmp_path / "r.tsv", b"the cat sat\tthe cat\ndogs\ta dog barked\n")
    _, out, _ = run(capsys, "score", refs, "-nr", "2", "-i", hyp, "--max-ngram-order", "2", "-w", "6")
    expected = sacrebleu.BLEU(max_ngram_order=2).corpus_score(
        ["the cat sat", "a dog"], [["the cat sat", "dogs"], ["the cat", "a dog barked"]]
    )
    assert json.loads(out)["score"] == round(expected.score, 6)
    bad = write(tmp_path / "bad.tsv", b"one\ttwo\nthree\n")
    status, _, err = run(capsys, "score", bad, "-nr", "2", "-i", hyp)
    assert status == 17 and f"{bad}:2: expected 2 TAB-separated references, found 1" in err


def test_gzip_crlf_and_line_separator(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ref = tmp_path / "ref.txt.gz"
    with gzip.open(ref, "wb") as fh:
        fh.write("a b c d\r\ne\u2028f g h\r\n".encode())
    hyp = write(tmp_path / "hyp.txt", "a b c d\ne\u2028f g h\n".encode())
    status, out, _ = run(capsys, "score", str(ref), "-i", hyp, "-b")
    assert status == 0 and out.strip() == "100.0"


def test_hypotheses_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    ref = write(tmp_path / "ref.txt", b"a b c d\nx y z w\n")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a b c d\tq\nx y z w\tx y z w\n")))
    status, out, _ = run(capsys, "score", ref, "-f", "text")
    assert status == 0 and "System 1  100.0" in out and "System 2" in out


@pytest.mark.parametrize(
    ("hyp_bytes", "message"),
    [
        (b"ok\nbad \xff byte\n", "hyp.txt:2: invalid UTF-8 (byte 0xff at byte column 5)"),
        (b"", "hyp.txt: empty input (no lines)"),
        (b"one line\n", "hyp.txt has 1 line but "),
    ],
)
def test_bad_input_gives_one_line_and_nonzero_exit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, hyp_bytes: bytes, message: str
) -> None:
    ref = write(tmp_path / "ref.txt", b"a\nb\n")
    hyp = write(tmp_path / "hyp.txt", hyp_bytes)
    status, out, err = run(capsys, "score", ref, "-i", hyp)
    assert status == 1 and out == ""
    assert err.startswith("understudy: error: ") and message in err and err.count("\n") == 1


def test_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "score", str(tmp_path / "nope.txt"), "-i", str(REF))
    assert status == 1 and err == f"understudy: error: {tmp_path / 'nope.txt'}: no such file\n"


def test_tokenize_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Hello, World! 1990.\nIt's\n")))
    status, out, _ = run(capsys, "tokenize", "-tok", "intl", "-lc")
    assert status == 0 and out == "hello , world ! 1990.\nit ' s\n"
