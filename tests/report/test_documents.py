"""The diff's document view and cut points: rows grouped under their documents, each document's
score for both systems equal to sacrebleu's on the document's segments; a system cut into the
reference's segments shows, under each segment, the part of its file's line the words came from."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import sacrebleu
from understudy.segmentation import resegment

from tests.support.cli import run_cli
from tests.support.paths import ONLINE_A, REF, UEDIN, read_raw

LINES, DOC = 200, 20


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """200 lines of the sample as 10 documents: the reference, its ids, and each system as it
    was submitted and as one document a line."""
    folder = tmp_path_factory.mktemp("documents")
    made = {"ids": folder / "ids", "ref": folder / "ref.de"}
    made["ids"].write_text("".join(f"doc{k // DOC}\n" for k in range(LINES)), encoding="utf-8")
    made["ref"].write_text("".join(line + "\n" for line in read_raw(REF)[:LINES]), encoding="utf-8")
    for name, path in (("a", UEDIN), ("b", ONLINE_A)):
        lines = [line.lstrip("\ufeff") for line in read_raw(path)[:LINES]]
        made[name] = folder / f"{name}.de"
        made[name].write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        made[f"{name}-docs"] = folder / f"{name}.docs"
        docs = [" ".join(lines[k : k + DOC]) for k in range(0, LINES, DOC)]
        made[f"{name}-docs"].write_text("".join(d + "\n" for d in docs), encoding="utf-8")
    return made


def _page(capsys: pytest.CaptureFixture[str], files: dict[str, Path], folder: Path, *argv: str) -> str:
    out = folder / "report.html"
    status, _, err = run_cli(
        capsys, "report", str(files["ref"]), *argv, "-m", "bleu", "-n", "20", "-o", str(out)
    )
    assert status == 0, err
    return out.read_text(encoding="utf-8")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


HEAD = re.compile(
    r'<tr class="doc"[^>]*><th[^>]*>Document <bdi>(\w+)</bdi>: '
    r"segments (\d+)–(\d+); BLEU A ([\d.]+), B ([\d.]+)"
)


def test_each_document_scores_as_sacrebleu_on_its_segments(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = _page(
        capsys, files, tmp_path, "-i", str(files["a"]), str(files["b"]), "--docids", str(files["ids"])
    )
    heads = HEAD.findall(page)
    assert [h[0] for h in heads] == [f"doc{d}" for d in range(LINES // DOC)]
    refs, hyps = _lines(files["ref"]), {k: _lines(files[k]) for k in ("a", "b")}
    for name, first, last, score_a, score_b in heads:
        span = slice(int(first) - 1, int(last))
        assert int(last) - int(first) + 1 == DOC
        for side, shown in (("a", score_a), ("b", score_b)):
            expected = sacrebleu.corpus_bleu(hyps[side][span], [refs[span]]).score
            assert shown == f"{expected:.1f}", (name, side)
    # Every row carries its document, headers included, in the segments' order.
    assert page.count('data-doc="3"') == DOC + 1


def _words(text: str) -> int:
    return len(re.split(r"[ \t\n\v\f\r]+", text.strip(" \t\n\v\f\r"))) if text.strip() else 0


def _expected(segments: list[str], lines: list[str]) -> list[str]:
    """Each segment's origin worked out by hand: each document's words taken in turn, DOC
    segments a document."""
    out, taken = [], [0] * len(lines)
    for k, segment in enumerate(segments):
        line, n = k // DOC, _words(segment)
        first, last, total = taken[line] + 1, taken[line] + n, _words(lines[line])
        taken[line] = last
        if n == 0:
            out.append("no words")
        elif first == 1 and last == total:
            out.append(f"line {line + 1} (all {total} words)")
        else:
            which = f"word {first}" if first == last else f"words {first}-{last}"
            out.append(f"line {line + 1} ({which}{', to its end' if last == total else f' of {total}'})")
    return out


def test_a_cut_systems_segments_say_where_their_words_came_from(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["-i", str(files["a-docs"]), str(files["b-docs"]), "--resegment", "--docids", str(files["ids"])]
    page = _page(capsys, files, tmp_path, *argv, "--pair", str(files["a-docs"]), str(files["b-docs"]))
    origins = [html.unescape(o) for o in re.findall(r'<div class="origin">from ([^<]*)</div>', page)]
    refs, ids = _lines(files["ref"]), _lines(files["ids"])
    for side, name in ((0, "a-docs"), (1, "b-docs")):
        docs = _lines(files[name])
        cut = resegment(docs, refs, docids=ids)
        assert origins[side::2] == _expected(cut, docs), name
        # Each document's last words close its last segment that has any.
        assert sum("to its end" in o or "(all " in o for o in origins[side::2]) == LINES // DOC
    assert len(HEAD.findall(page)) == LINES // DOC
