"""``understudy resegment``: REF's line count out, whole or not at all; documents, JSON, several
references, and bad input as one line each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run_cli

REF = ["the cat sat on the mat", "it was a sunny day", "", "we went home"]
STREAM = "The cat sat on a mat it\nwas sunny today\n\nwe went to home\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    made = {}
    for name, text in [
        ("ref", "".join(line + "\n" for line in REF)),
        ("ref2", "The cat sat on a mat it\nwas sunny today\n\nwe went to home\n"),
        ("hyp", STREAM),
        ("ids", "d1\nd1\nd2\nd2\n"),
        ("docs", "The cat sat on a mat it was sunny today\nwe went to home\n"),
    ]:
        (tmp_path / name).write_text(text, encoding="utf-8")
        made[name] = str(tmp_path / name)
    return made


def test_a_stream_is_cut_into_the_references_lines(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    status, printed, err = run_cli(capsys, "resegment", files["ref"], files["hyp"], "-o", str(out))
    assert (status, printed, err) == (0, "", "")
    # By hand: "it" joins the second segment (matched), the empty third line stays empty.
    assert out.read_text(encoding="utf-8").split("\n") == [
        "The cat sat on a mat",
        "it was sunny today",
        "",
        "we went to home",
        "",
    ]


def test_documents_json_and_a_second_reference(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["resegment", files["ref"], files["docs"], "--docids", files["ids"], "-f", "json"]
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    rows = json.loads(out)
    assert [(r["line"], r["document"], r["words"], r["text"]) for r in rows] == [
        (1, "d1", [0, 6], "The cat sat on a mat"),
        (2, "d1", [6, 10], "it was sunny today"),
        (3, "d2", [0, 0], ""),
        (4, "d2", [0, 4], "we went to home"),
    ]
    # A second reference that the stream matches word for word when cut after "it": each
    # segment counts against its closer reference, so that cut costs nothing and is taken.
    status, out, err = run_cli(capsys, "resegment", files["ref"], files["hyp"], "--more-refs", files["ref2"])
    assert (status, out) == (0, Path(files["ref2"]).read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--docids", "IDS_SHORT"], "IDS_SHORT has 1 line but"),
        (["--docids", "IDS_SPLIT"], "document ids: line 3: 'd1' again after other documents"),
        (["--more-refs", "REF_SHORT"], "the references differ in length: 4, 1 lines"),
        (["--method", "best"], "invalid choice: 'best'"),
    ],
)
def test_bad_input_is_one_line(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    for name, text in [("IDS_SHORT", "d1\n"), ("IDS_SPLIT", "d1\nd2\nd1\nd1\n"), ("REF_SHORT", "x\n")]:
        (tmp_path / name).write_text(text, encoding="utf-8")
    extra = [str(tmp_path / e) if e.isupper() and "_" in e else e for e in extra]
    out = tmp_path / "out"
    status, printed, err = run_cli(capsys, "resegment", files["ref"], files["docs"], *extra, "-o", str(out))
    assert status != 0 and printed == "" and err.count("\n") == 1 and message in err, err
    assert not out.exists()  # nothing written


def test_an_empty_hypothesis_warns_and_gives_empty_lines(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "empty").write_text("\n\n", encoding="utf-8")
    with pytest.warns(UserWarning, match="has no words: every segment is empty"):
        status, out, _ = run_cli(capsys, "resegment", files["ref"], str(tmp_path / "empty"))
    assert status == 0 and out == "\n\n\n\n"


def _catches_sigint(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status").read_text()
    caught = next(line for line in status.split("\n") if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) & (1 << 1))  # SIGINT is signal 2: bit 1


def _bytes_read(pid: int) -> int:
    io = Path(f"/proc/{pid}/io").read_text()
    return int(next(line for line in io.split("\n") if line.startswith("rchar:")).split()[1])


@pytest.mark.skipif(not Path("/proc/self/io").exists(), reason="reads the process's state from /proc")
def test_ctrl_c_stops_a_long_stream_and_writes_nothing(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.support.paths import REF, UEDIN, read_raw
    from tests.support.signals import DEADLINE, interruptible

    refs = [line.lstrip("\ufeff") for line in read_raw(REF)] * 10  # minutes of work, bounded memory
    (tmp_path / "ref").write_text("".join(line + "\n" for line in refs), encoding="utf-8")
    (tmp_path / "hyp").write_text(" ".join(read_raw(UEDIN)) * 10 + "\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = [sys.executable, "-m", "understudy", "resegment", str(tmp_path / "ref"), str(tmp_path / "hyp")]
    child = interruptible([*argv, "-o", str(out)], stderr=subprocess.PIPE)
    # Once Python catches SIGINT and has read the inputs, the work is the alignment (minutes):
    # waited for by what the kernel says of the process, not by a clock.
    size = (tmp_path / "ref").stat().st_size + (tmp_path / "hyp").stat().st_size
    deadline = time.monotonic() + DEADLINE  # a bound on the wait, not a timing
    while child.poll() is None and not (_catches_sigint(child.pid) and _bytes_read(child.pid) > size):
        assert time.monotonic() < deadline, "the child never caught SIGINT and read its inputs"
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGINT)
    _, err = child.communicate(timeout=DEADLINE)
    assert child.returncode == 130 and err.decode().strip().endswith("interrupted")
    assert not out.exists() and not list(tmp_path.glob(".out*"))


def test_progress_is_told_all_the_work() -> None:
    from understudy.segmentation import resegment

    told: list[tuple[int, int]] = []
    refs = [f"line {k}" for k in range(300)]
    resegment(" ".join(refs), refs, progress=lambda done, total: told.append((done, total)))
    assert told[-1] == (600, 600) and [d for d, _ in told] == sorted(d for d, _ in told)


def test_a_bom_and_windows_line_ends_are_read_as_text_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "ref").write_bytes("\ufeffthe cat sat\r\non the mat\r\n".encode())
    (tmp_path / "hyp").write_bytes("\ufeffthe cat\r\nsat on\rthe mat\n".encode())
    status, out, err = run_cli(capsys, "resegment", str(tmp_path / "ref"), str(tmp_path / "hyp"))
    # The BOM is no word; a lone \r is whitespace, as the line ends are.
    assert (status, out) == (0, "the cat sat\non the mat\n"), err
