"""The error contract of the command line, in real processes: one line on stderr and a
non-zero exit (or a quiet stop for a closed pipe), never a traceback or a wrong number."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import SAMPLE

REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
ONLINE_A = SAMPLE / "newstest2017.online-A.0.en-de.de"
CLI = [sys.executable, "-m", "understudy.cli"]


def run(*argv: str, **kwargs: object) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*CLI, *argv], capture_output=True, timeout=120, check=False, **kwargs)  # type: ignore[call-overload]


def one_line_error(proc: subprocess.CompletedProcess[bytes], *words: str) -> None:
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode != 0
    assert err.startswith("understudy: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err


def test_stdin_given_twice_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "f.txt"
    data.write_text("a b c\nd e f\n", encoding="utf-8")
    for argv in (
        ["score", "-", "-b"],
        ["score", "-", "-i", "-"],
        ["pairwise", "-", "-"],
        ["compare", "-", "-i", "-", "x"],
    ):
        with open(data, "rb") as stdin:
            proc = run(*argv, stdin=stdin)
        one_line_error(proc, "standard input (-)", "read once")
        assert proc.stdout == b""


def test_full_disk_closed_streams_and_broken_pipes(tmp_path: Path) -> None:
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            proc = subprocess.run(
                [*CLI, "score", str(REF), "-i", str(UEDIN)], stdout=full, stderr=subprocess.PIPE, check=False
            )
        assert (
            proc.returncode == 1
            and proc.stderr
            == b"understudy: error: cannot write to standard output: No space left on device\n"
        )
    closed = subprocess.run(
        f"{' '.join(CLI)} score {REF} -i {UEDIN} -b >&-", shell=True, capture_output=True, check=False
    )
    one_line_error(closed, "standard output is closed")
    closed = subprocess.run(
        f"{' '.join(CLI)} score {REF} -b <&-", shell=True, capture_output=True, check=False
    )
    one_line_error(closed, "standard input is closed")
    # A reader that stops early: a quiet stop with status 0, for every command that prints.
    for argv in (f"pairwise {UEDIN} {REF} -m chrf", f"score {REF} -i {UEDIN} -sl -m ter -f text"):
        proc = subprocess.run(
            f"{' '.join(CLI)} {argv} | head -1", shell=True, capture_output=True, check=False
        )
        assert proc.stderr == b"" and len(proc.stdout.splitlines()) == 1, proc.stderr


def test_file_names_that_are_not_utf8(tmp_path: Path) -> None:
    name = os.fsencode(str(tmp_path)) + b"/sys\xff.txt"
    with open(name, "wb") as fh:
        fh.write(UEDIN.read_bytes())
    proc = subprocess.run(
        [*CLI, "score", str(REF), "-i", str(UEDIN), os.fsdecode(name), "-f", "text"],
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert b"sys\xff.txt" in proc.stdout


def test_caps_and_bounds(tmp_path: Path) -> None:
    proc = run("score", str(REF), "-i", str(UEDIN), "-b", "-j", "5000")
    assert proc.returncode == 0 and b"more than the" in proc.stderr and b"Traceback" not in proc.stderr
    assert proc.stderr.count(b"\n") == 1 and proc.stderr.startswith(b"understudy: warning: ")
    one_line_error(
        run("score", str(REF), "-i", str(UEDIN), "--max-ngram-order", "1000000"), "max_ngram_order"
    )
    one_line_error(run("score", str(REF), "-i", str(UEDIN), "-m", "chrf", "-cc", "1000000"), "char_order")
    one_line_error(run("score", str(REF), "-i", str(UEDIN), "--confidence", "--seed", "-1"), "seed")
    one_line_error(run("compare", str(REF), "-i", str(UEDIN), str(ONLINE_A), "--blocks", "1"), "blocks")


@pytest.mark.parametrize("threads", [2, 40])
def test_pools_are_reused_and_capped(threads: int) -> None:
    code = (
        "import threading, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from understudy import BLEU\n"
        f"for t in range(2, {threads} + 1):\n"
        "    BLEU(threads=t).sentence_scores(['a b c'] * 3000, [['a b d'] * 3000])\n"
        "import os\n"
        "print(len(os.listdir('/proc/self/task')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    # The main thread plus at most one pool, whatever was asked.
    assert int(proc.stdout) <= 1 + (os.cpu_count() or 1) + 1


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_sentence_scores_of_a_failed_run_read_as_failed(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from understudy.cli import main, stream

    monkeypatch.setattr(stream, "CHUNK_LINES", 100)
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(b"".join(UEDIN.read_bytes().splitlines(keepends=True)[:250]))
    status = main(["score", str(REF), "-i", str(hyp), "-sl", "-m", "chrf", "-f", fmt])
    out, err = capsys.readouterr()
    assert status == 1 and "has 250 lines but" in err
    if fmt == "json":
        records = json.loads(out)  # still valid JSON, and its last record says the run failed
        assert len(records) == 201 and "has 250 lines but" in records[-1]["error"]
    else:
        lines = out.splitlines()
        assert len(lines) == 201 and lines[-1].startswith("understudy: error: ") and "250 lines" in lines[-1]


def test_errors_in_a_later_chunk_name_where_counting_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from understudy.cli import main, stream

    monkeypatch.setattr(stream, "CHUNK_LINES", 100)
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a\n" * 250, encoding="utf-8")
    ref.write_text("a\n" * 149 + " ".join(["w"] * 9000) + "\n" + "a\n" * 100, encoding="utf-8")
    hyp.write_text("a\n" * 149 + " ".join(["w"] * 9000) + "\n" + "a\n" * 100, encoding="utf-8")
    status = main(["score", str(ref), "-i", str(hyp), "-m", "ter"])
    _, err = capsys.readouterr()
    # Line 150 is segment 50 of the chunk that starts at line 101.
    assert status == 1 and "segment 50: TER of a 9000-word" in err and "counted from line 101" in err
