"""``--resegment`` on ``score``, ``compare`` and ``report``: a system given as one stream is scored
as ``understudy resegment`` cuts it, the signature says so, and what cannot follow is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from understudy import BLEU, CHRF
from understudy.segmentation import resegment
from understudy.signature import Signature

from tests.support.cli import run_cli
from tests.support.paths import ONLINE_A, REF, UEDIN, read_raw


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The first 300 segments of two WMT17 systems, each as one stream with breaks elsewhere."""
    folder = tmp_path_factory.mktemp("streams")
    made = {"ref": folder / "ref.de"}
    made["ref"].write_text("".join(line + "\n" for line in read_raw(REF)[:300]), encoding="utf-8")
    for name, path in [("a", UEDIN), ("b", ONLINE_A)]:
        words = " ".join(read_raw(path)[:300]).lstrip("\ufeff").split(" ")
        made[name] = folder / f"{name}.stream"
        made[name].write_text("\n".join(" ".join(words[k : k + 33]) for k in range(0, len(words), 33)) + "\n")
    return made


def _stream(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_score_scores_the_cut_and_signs_it(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", str(files["ref"]), "-i", str(files["a"]), str(files["b"]), "-m", "bleu", "chrf"]
    status, out, err = run_cli(capsys, *argv, "--resegment", "-f", "json")
    assert status == 0, err
    refs = files["ref"].read_text(encoding="utf-8").split("\n")[:-1]
    results = {Path(r["system"]).name: r for r in json.loads(out)}
    for name in ("a", "b"):
        cut = resegment(_stream(files[name]), refs)
        assert results[f"{name}.stream"]["BLEU"]["score"] == round(BLEU().corpus_score(cut, [refs]).score, 1)
        assert results[f"{name}.stream"]["chrF2"]["score"] == round(CHRF().corpus_score(cut, [refs]).score, 1)
    assert results["a.stream"]["BLEU"]["reseg"] == "mweralign"
    status, out, err = run_cli(capsys, *argv, "--resegment", "--resegment-method", "min-edit", "-f", "text")
    signature = next(line for line in out.split("\n") if line.startswith("BLEU signature:")).split(": ", 1)[1]
    assert "|reseg:min-edit|" in signature and Signature.parse(signature).format() == signature


def test_compare_and_report_take_the_cut(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["compare", str(files["ref"]), "-i", str(files["a"]), str(files["b"]), "-m", "bleu", "--resegment"]
    status, out, err = run_cli(capsys, *argv, "--resegment-case", "unicode", "-f", "text")
    assert status == 0, err
    assert "|reseg:mweralign+case-unicode|" in out
    page = tmp_path / "report.html"
    argv = ["report", str(files["ref"]), "-i", str(files["a"]), str(files["b"]), "-m", "bleu", "--resegment"]
    status, _, err = run_cli(capsys, *argv, "-o", str(page))
    assert status == 0, err
    refs = files["ref"].read_text(encoding="utf-8").split("\n")[:-1]
    first = resegment(_stream(files["a"]), refs)[0]
    html = page.read_text(encoding="utf-8")
    assert first.split()[0] in html and "nrefs:1|reseg:mweralign|bs:1000|" in html


def test_without_resegment_a_stream_is_refused(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run_cli(capsys, "score", str(files["ref"]), "-i", str(files["a"]), "-m", "bleu")
    assert status != 0 and "a.stream has 147 lines but" in err and "has 300" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--num-refs", "2"], "--resegment cannot be combined with --num-refs"),
        (["--scores", "X=x.txt"], "--resegment cannot be combined with --scores"),
    ],
)
def test_what_cannot_follow_is_one_line(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    argv = ["score", str(files["ref"]), "-i", str(files["a"]), "-m", "bleu", "--resegment", *extra]
    status, out, err = run_cli(capsys, *argv)
    assert status != 0 and out == "" and err.count("\n") == 1 and message in err, err


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """WMT17's sample in documents of 10 lines (ids), and the same joined by hand, one a line."""
    folder = tmp_path_factory.mktemp("documents")
    made: dict[str, Path] = {"ids": folder / "ids"}
    made["ids"].write_text("".join(f"doc{k // 10}\n" for k in range(3004)), encoding="utf-8")
    for name, path in [("ref", REF), ("a", UEDIN), ("b", ONLINE_A)]:
        lines = [line.lstrip("\ufeff") for line in read_raw(path)[:3004]]
        made[name] = folder / f"{name}.de"
        made[name].write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        joined = [" ".join(x for x in lines[k : k + 10] if x.strip()) for k in range(0, 3004, 10)]
        made[f"{name}-docs"] = folder / f"{name}.docs"
        made[f"{name}-docs"].write_text("".join(line + "\n" for line in joined), encoding="utf-8")
    return made


def test_document_scores_equal_sacrebleu_on_the_joined_documents(
    documents: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    import sacrebleu

    # TER is left out: sacrebleu's takes minutes on documents of 200 words (its shifts' search).
    argv = ["score", str(documents["ref"]), "-i", str(documents["a"]), "-m", "bleu", "chrf", "-w", "6"]
    status, out, err = run_cli(capsys, *argv, "--docids", str(documents["ids"]), "--granularity", "document")
    assert status == 0, err
    result = {r["name"]: r for r in json.loads(out)}
    refs = documents["ref-docs"].read_text(encoding="utf-8").split("\n")[:-1]
    hyps = documents["a-docs"].read_text(encoding="utf-8").split("\n")[:-1]
    assert len(refs) == 301
    assert result["BLEU"]["score"] == round(sacrebleu.corpus_bleu(hyps, [refs]).score, 6)
    assert result["chrF2"]["score"] == round(sacrebleu.corpus_chrf(hyps, [refs]).score, 6)
    assert result["BLEU"]["gran"] == "document"


def test_paragraph_scores_equal_sacrebleu_on_the_joined_paragraphs(
    documents: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sacrebleu

    ids = tmp_path / "ids"  # paragraphs of 5 lines in the documents of 10
    ids.write_text("".join(f"doc{k // 10}\t{k % 10 // 5}\n" for k in range(3004)), encoding="utf-8")
    argv = ["score", str(documents["ref"]), "-i", str(documents["a"]), "-m", "bleu", "chrf", "-w", "6"]
    status, out, err = run_cli(capsys, *argv, "--docids", str(ids), "--granularity", "paragraph")
    assert status == 0, err
    result = {r["name"]: r for r in json.loads(out)}
    lines = {n: documents[n].read_text(encoding="utf-8").split("\n")[:-1] for n in ("ref", "a")}
    joined = {
        n: [" ".join(x for x in v[k : k + 5] if x.strip()) for k in range(0, 3004, 5)]
        for n, v in lines.items()
    }
    # Document 300 has 4 lines, so its one paragraph holds them all.
    assert len(joined["ref"]) == 601
    assert result["BLEU"]["score"] == round(sacrebleu.corpus_bleu(joined["a"], [joined["ref"]]).score, 6)
    assert result["chrF2"]["score"] == round(sacrebleu.corpus_chrf(joined["a"], [joined["ref"]]).score, 6)
    assert result["BLEU"]["gran"] == "paragraph"
    # The document level of the same file: its first column.
    status, out, err = run_cli(capsys, *argv, "--docids", str(ids), "--granularity", "document")
    by_document = ["--docids", str(documents["ids"]), "--granularity", "document"]
    assert status == 0 and json.loads(out) == json.loads(run_cli(capsys, *argv, *by_document)[1])


def test_compare_resamples_documents(documents: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    by_document = ["--docids", str(documents["ids"]), "--granularity", "document", "-f", "json", "-n", "200"]
    argv = ["compare", str(documents["ref"]), "-i", str(documents["a"]), str(documents["b"]), "-m", "bleu"]
    status, out, err = run_cli(capsys, *argv, *by_document)
    assert status == 0, err
    joined = ["compare", str(documents["ref-docs"]), "-i", str(documents["a-docs"]), str(documents["b-docs"])]
    status, expected, err = run_cli(capsys, *joined, "-m", "bleu", "-f", "json", "-n", "200")
    assert status == 0, err
    got, want = json.loads(out), json.loads(expected)
    assert got["signature"] == want["signature"].replace("nrefs:1|", "nrefs:1|gran:document|")
    assert [p["p_value"] for p in got["pairs"]] == [p["p_value"] for p in want["pairs"]]
    assert [s["score"] for s in got["ranking"]] == [s["score"] for s in want["ranking"]]


def test_documents_resegmented_then_scored(
    documents: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    # The system as one document a line (the reference's 10-line blocks), cut back, then scored.
    argv = [
        "score",
        str(documents["ref"]),
        "-i",
        str(documents["a-docs"]),
        "-m",
        "bleu",
        "-f",
        "json",
        "-w",
        "6",
    ]
    status, out, err = run_cli(capsys, *argv, "--resegment", "--docids", str(documents["ids"]))
    assert status == 0, err
    refs = documents["ref"].read_text(encoding="utf-8").split("\n")[:-1]
    ids = documents["ids"].read_text(encoding="utf-8").split("\n")[:-1]
    hyps = documents["a-docs"].read_text(encoding="utf-8").split("\n")[:-1]
    cut = resegment(hyps, refs, docids=ids)
    assert json.loads(out)["score"] == round(BLEU().corpus_score(cut, [refs]).score, 6)


def test_the_ledger_keeps_documents_apart_from_segments(
    documents: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = ["--ledger", str(tmp_path / "kept.db")]
    by_document = ["--docids", str(documents["ids"]), "--granularity", "document"]
    for system, extra in [("a", by_document), ("b", []), ("b", by_document)]:
        argv = ["score", str(documents["ref"]), "-i", str(documents[system]), "-m", "bleu", "--log", *ledger]
        status, _, err = run_cli(capsys, *argv, *extra)
        assert status == 0, err
    # Record 1 is of documents, record 2 of segments: never compared, and the message says why.
    status, out, err = run_cli(capsys, "gate", "--baseline", "ledger:1", "--candidate", "ledger:2", *ledger)
    assert status == 2 and out == "" and "differ in the signature's gran: document against (none)" in err
    # A file is gated segment by segment: a record of documents is refused against one.
    argv = ["gate", str(documents["ref"]), "--baseline", "ledger:1", "--candidate", str(documents["b"])]
    status, _, err = run_cli(capsys, *argv, *ledger)
    assert status == 2 and "was scored with gran:document" in err
    # Two records of documents gate as the files joined by hand do.
    argv = ["gate", "--baseline", "ledger:1", "--candidate", "ledger:3", "-f", "json", "-n", "200", *ledger]
    status, out, err = run_cli(capsys, *argv)
    assert status in (0, 1), err
    joined = [str(documents["ref-docs"]), "--baseline", str(documents["a-docs"])]
    argv = ["gate", *joined, "--candidate", str(documents["b-docs"]), "-f", "json", "-n", "200"]
    expected = run_cli(capsys, *argv)
    assert status == expected[0]
    got, want = json.loads(out)["results"][0], json.loads(expected[1])["results"][0]
    assert {k: got[k] for k in ("baseline", "candidate", "p_value")} == {
        k: want[k] for k in ("baseline", "candidate", "p_value")
    }
    assert got["signature"] == want["signature"].replace("nrefs:1|", "nrefs:1|gran:document|")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--granularity", "document"], "--granularity document needs --docids FILE"),
        (
            ["--granularity", "document", "--docids", "SHORT"],
            "has 2 document ids but the references have 3004 lines",
        ),
        (["--granularity", "document", "--docids", "APART"], "'x' again after other documents"),
        (
            ["--granularity", "paragraph", "--docids", "IDS"],
            "--granularity paragraph: no paragraphs are known",
        ),
        (
            ["--granularity", "paragraph", "--docids", "MIXED"],
            "MIXED:2: expected a document id, or a document id",
        ),
    ],
)
def test_bad_documents_are_one_line(
    documents: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    (tmp_path / "SHORT").write_text("x\ny\n", encoding="utf-8")
    (tmp_path / "APART").write_text("x\ny\n" + "x\n" * 3002, encoding="utf-8")
    (tmp_path / "MIXED").write_text("x\t1\nx\n" + "x\t1\n" * 3002, encoding="utf-8")
    extra = [str(documents["ids"]) if e == "IDS" else str(tmp_path / e) if e.isupper() else e for e in extra]
    status, out, err = run_cli(capsys, "score", str(documents["ref"]), "-i", str(documents["a"]), *extra)
    assert status != 0 and out == "" and err.count("\n") == 1 and message in err, err


def test_a_test_sets_documents(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sacrebleu

    from tests.support.testset_server import sgml
    from tests.support.twin_sets import TwinSet

    refs = ["Der Hund bellt.", "Er ist laut.", "Die Katze schläft.", "Sie ist still.", "Ende."]
    hyps = ["Der Hund bellt laut.", "Er ist laut.", "Eine Katze schläft.", "Sie ist ruhig.", "Ende."]
    docs = [
        ({"docid": "a", "genre": "news", "origlang": "en"}, 2),
        ({"docid": "b", "genre": "news", "origlang": "en"}, 3),
    ]
    served = {"test/src.en.sgm": sgml(["x"] * 5, docs), "test/ref.de.sgm": sgml(refs, docs, "refset")}
    TwinSet(tmp_path, monkeypatch, "wmt96", "wmt-sgml", served, {"en-de": list(served)})
    (tmp_path / "hyp").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    argv = ["score", "-t", "wmt96", "-l", "en-de", "-i", str(tmp_path / "hyp"), "-m", "bleu", "-w", "6"]
    status, out, err = run_cli(capsys, *argv, "--granularity", "document")
    assert status == 0, err
    joined_refs, joined_hyps = (
        [" ".join(refs[:2]), " ".join(refs[2:])],
        [" ".join(hyps[:2]), " ".join(hyps[2:])],
    )
    result = json.loads(out)
    assert result["score"] == round(sacrebleu.corpus_bleu(joined_hyps, [joined_refs]).score, 6)
    assert "|test:wmt96|lang:en-de|gran:document|" in result["signature"]
    status, _, err = run_cli(capsys, *argv, "--granularity", "document", "--origlang", "en")
    assert status != 0 and "cannot be combined with --origlang/--subset" in err
