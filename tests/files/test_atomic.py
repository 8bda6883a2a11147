"""Atomic writes (understudy.files.atomic): links, pipes, devices, folders, and a signal mid-write."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from understudy import BLEU
from understudy.errors import OutputError
from understudy.files.atomic import atomic_write, writable

from tests.support.paths import SAMPLE

CLI = [sys.executable, "-m", "understudy.cli"]


def test_a_symlink_is_followed_and_kept(tmp_path: Path) -> None:
    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    real.write_text("old")
    link.symlink_to(real)
    with atomic_write(link) as fh:
        fh.write(b"new")
    # Before: the link was replaced by a regular file and real.txt kept the stale content.
    assert link.is_symlink() and real.read_text() == "new"


def test_a_fifo_and_a_device_are_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    with atomic_write(fifo) as fh:
        fh.write(b"through the pipe")
    reader.join(timeout=30)
    assert received == [b"through the pipe"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    if os.geteuid() == 0:  # a private twin of /dev/null, so that a regression cannot replace the real one
        null = tmp_path / "null"
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        BLEU().segment_stats(["a b"], [["a b"]]).save(null)
        assert stat.S_ISCHR(os.stat(null).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["pipe", *(["null"] if os.geteuid() == 0 else [])]
    )


def test_the_file_behind_standard_output_is_appended_to_not_replaced(tmp_path: Path) -> None:
    # `-o /dev/stdout >> ci.log` (or -o naming the log itself): the earlier log stays, the output
    # follows it, and no temporary file is left beside it.
    log, cands = tmp_path / "ci.log", tmp_path / "cands.txt"
    cands.write_text("the cat sat\nthe cat sat down\na cat\n", encoding="utf-8")
    mbr = [*CLI, "mbr", "--candidates", str(cands), "-n", "3", "-m", "chrf"]
    alone = subprocess.run(mbr, capture_output=True, timeout=60, check=True).stdout
    for output in ("/dev/stdout", str(log)):
        log.write_bytes(b"earlier lines\n")
        with open(log, "ab") as appended:
            proc = subprocess.run([*mbr, "-o", output], stdout=appended, stderr=subprocess.PIPE, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert log.read_bytes() == b"earlier lines\n" + alone
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cands.txt", "ci.log"]


def test_folders_and_missing_folders_are_refused_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="cannot write a file over a folder"), atomic_write(tmp_path):
        pass
    with pytest.raises(OutputError, match="no such folder"):
        writable(tmp_path / "missing" / "report.html")
    ref, hyp = str(SAMPLE / "newstest2017.ref.en-de.de"), str(SAMPLE / "newstest2017.online-A.0.en-de.de")
    for output, message in [(tmp_path / "no" / "r.html", "no such folder"), (tmp_path, "over a folder")]:
        proc = subprocess.run(
            [*CLI, "report", ref, "-i", hyp, hyp, "-o", str(output)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 1 and proc.stderr.count("\n") == 1 and message in proc.stderr, proc.stderr
    status = subprocess.run(
        [*CLI, "correlate", ref, "-i", hyp, "--human", ref, "--plot", str(tmp_path / "no" / "p.png")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert status.returncode == 1 and "no such folder" in status.stderr


def test_sigterm_mid_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    script = (
        "import os, signal, sys\n"
        "from understudy.files.atomic import atomic_write\n"
        "from understudy.cli import Terminated, _terminable\n"
        "with _terminable():\n"
        "    try:\n"
        "        with atomic_write(sys.argv[1]) as fh:\n"
        "            fh.write(b'part')\n"
        "            os.kill(os.getpid(), signal.SIGTERM)\n"
        "            fh.write(b'never')\n"
        "    except Terminated:\n"
        "        sys.exit(143)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script, str(tmp_path / "out.bin")], timeout=60, check=False)
    assert proc.returncode == 143 and list(tmp_path.iterdir()) == []
