"""The error contract of the command line, in real processes: one line on stderr and a
non-zero exit (or a quiet stop for a closed pipe), never a traceback or a wrong number."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_cli, run_process
from tests.support.paths import SAMPLE

REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
ONLINE_A = SAMPLE / "newstest2017.online-A.0.en-de.de"
CLI = [sys.executable, "-m", "understudy.cli"]


def run(*argv: str, **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    done: subprocess.CompletedProcess[bytes] = subprocess.run(
        [*CLI, *argv], capture_output=True, timeout=120, check=False, **kwargs
    )
    return done


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
    from understudy import streaming
    from understudy.cli import main

    monkeypatch.setattr(streaming, "CHUNK_LINES", 100)
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
    from understudy import streaming
    from understudy.cli import main

    monkeypatch.setattr(streaming, "CHUNK_LINES", 100)
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("a\n" * 250, encoding="utf-8")
    ref.write_text("a\n" * 149 + " ".join(["w"] * 9000) + "\n" + "a\n" * 100, encoding="utf-8")
    hyp.write_text("a\n" * 149 + " ".join(["w"] * 9000) + "\n" + "a\n" * 100, encoding="utf-8")
    status = main(["score", str(ref), "-i", str(hyp), "-m", "ter"])
    _, err = capsys.readouterr()
    # Line 150 is segment 50 of the chunk that starts at line 101.
    assert status == 1 and "segment 50: TER of a 9000-word" in err and "counted from line 101" in err


def _open_when_read(fifo: Path, proc: subprocess.Popen[str]) -> int:
    """The FIFO's write end, opened once ``proc`` opens it to read (polled: no timing assumed)."""
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            assert proc.poll() is None, "the command ended before reading the FIFO"
            time.sleep(0.05)


LOW_MEMORY = """
import resource, sys
from understudy.cli import main
import matplotlib, numpy, scipy.stats  # what the commands load, loaded before the limit

def address_space():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))

resource.setrlimit(resource.RLIMIT_AS, (address_space() + (int(sys.argv[1]) << 20), resource.RLIM_INFINITY))
sys.exit(main(sys.argv[2:]))
"""


def test_sigterm_ends_the_command_line_with_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "human.tsv"
    os.mkfifo(fifo)  # nobody writes it: the command waits in open() until the signal
    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    hyps = [str(p) for p in sorted(SAMPLE.glob("newstest2017.*.de")) if ".ref." not in p.name]
    proc = subprocess.Popen(
        [*CLI, "correlate", ref, "-i", *hyps, "--human", str(fifo)], stderr=subprocess.PIPE, text=True
    )
    # A writer's open succeeds once the command has the FIFO open to read: it is running, its
    # handler set, and it waits in read() for data that never comes.
    writer = _open_when_read(fifo, proc)
    try:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        os.close(writer)
    assert proc.returncode == 143 and err == "understudy: error: terminated (SIGTERM)\n"


def test_width_is_bounded_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = str(SAMPLE / "newstest2017.ref.en-de.de"), str(SAMPLE / "newstest2017.online-A.0.en-de.de")
    for command in (["score", ref, "-i", hyp], ["pairwise", hyp, ref]):
        status, out, err = run_cli(capsys, *command, "-w", "3000000000")
        assert (status, out) == (2, "") and err.count("\n") == 1
        assert "argument -w/--width: takes 0 to 50 decimal places, got 3000000000" in err
    status, out, _ = run_cli(capsys, "score", ref, "-i", hyp, "-w", "50", "-b")
    assert status == 0 and len(out.strip().split(".")[1]) == 50


def test_control_characters_in_messages_are_escaped(tmp_path: Path) -> None:
    name = tmp_path / "bad\x1b[31mname\u202e.txt"
    proc = subprocess.run([*CLI, "score", str(name), "-i", str(name)], capture_output=True, timeout=60)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err.count("\n") == 1
    assert "\\x1b[31m" in err and "\\u202e" in err and "\x1b" not in err and "\u202e" not in err


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the address space from /proc")
def test_out_of_memory_is_one_line_and_status_1_never_a_signal(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    pytest.importorskip("jinja2")
    names = [
        "newstest2017.ref.en-de.de",
        "newstest2017.online-A.0.en-de.de",
        "newstest2017.uedin-nmt.4722.en-de.de",
    ]
    for name in names:
        (tmp_path / name).write_bytes((SAMPLE / name).read_bytes() * 10)
    commands = [
        ["score", names[0], "-i", *names[1:], "-m", "bleu", "chrf", "ter"],
        ["report", names[0], "-i", *names[1:], "-o", "r.html", "-n", "20"],
    ]
    outcomes = []
    # Before: at some limits the interpreter aborted (SIGABRT, "memory allocation of N bytes
    # failed" from the Rust core), at others MemoryError tracebacks.
    for headroom in (24, 64, 128):
        for command in commands:
            proc = subprocess.run(
                [sys.executable, "-c", LOW_MEMORY, str(headroom), *command],
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert proc.returncode in (0, 1), (headroom, command[0], proc.returncode, proc.stderr[-500:])
            lines = proc.stderr.splitlines()
            if proc.returncode == 1:
                assert len(lines) == 1 and lines[0].startswith("understudy: error: out of memory"), lines
            outcomes.append(proc.returncode)
    assert 1 in outcomes  # the limits do bite


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["score", str(REF), "-i", str(ONLINE_A), "-o", "out.json"], "unrecognized arguments: -o out.json"),
        (["score", str(REF), "-i", str(ONLINE_A), "--tok", "intl"], "unrecognized arguments: --tok intl"),
        (
            ["score", str(REF), "-i", str(ONLINE_A), "--metric", "chrf"],
            "unrecognized arguments: --metric chrf; did you mean -m/--metrics?",
        ),
        ([str(REF), "-i", str(ONLINE_A), "--metric", "chrf"], "; did you mean -m/--metrics?"),
        (["score", str(REF), "-i", str(ONLINE_A), "-m", "bleuu"], "invalid choice: 'bleuu'"),
        (["score", str(REF), "-i", str(ONLINE_A), "--seed", "-1"], "a seed is a whole number from 0, not -1"),
        (
            ["compare", str(REF), "-i", str(ONLINE_A), str(UEDIN), "-w", "-3"],
            "takes 0 to 50 decimal places, got -3",
        ),
        (["compare", str(REF), "-i", str(ONLINE_A), "-w", "3000000000"], "takes 0 to 50 decimal places"),
        (["ledger", "compare", "1", "2", "-w", "99"], "takes 0 to 50 decimal places, got 99"),
    ],
)
def test_an_option_error_is_one_line_and_no_option_is_abbreviated(argv: list[str], said: str) -> None:
    done = run_process(*argv)
    assert done.returncode == 2 and said in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "usage:" not in done.stderr and done.stdout == ""


def test_metrics_are_named_in_any_case_and_typos_get_the_nearest_name() -> None:
    done = run_process("score", str(REF), "-i", str(ONLINE_A), "-m", "BLEU", "chrF++", "-f", "json")
    canonical = run_process("score", str(REF), "-i", str(ONLINE_A), "-m", "bleu", "chrfpp", "-f", "json")
    assert done.returncode == 0 and done.stdout == canonical.stdout, done.stderr
    assert [r["name"] for r in json.loads(done.stdout)] == ["BLEU", "chrF2++"]
    typo = run_process("score", str(REF), "-i", str(ONLINE_A), "-m", "bleuu")
    assert "did you mean 'bleu'?" in typo.stderr


def test_hypotheses_from_a_terminal_are_announced() -> None:
    import pty

    controller, terminal = pty.openpty()
    try:
        os.write(controller, b"\x04")  # Ctrl-D at the start of a line: the end of the input
        done = subprocess.run(
            [sys.executable, "-m", "understudy", "score", str(REF)],
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        os.close(controller)
        os.close(terminal)
    assert "reading the hypotheses from the terminal (no -i FILE given)" in done.stderr
    piped = run_process("score", str(REF), stdin=ONLINE_A.read_text(encoding="utf-8"))
    assert "terminal" not in piped.stderr


def test_a_bom_goes_the_same_way_from_a_file_and_from_a_field_of_standard_input(tmp_path: Path) -> None:
    with_bom = tmp_path / "bom.de"
    with_bom.write_bytes(b"\xef\xbb\xbf" + ONLINE_A.read_bytes())
    lines_a = UEDIN.read_text(encoding="utf-8").splitlines()
    lines_b = with_bom.read_text(encoding="utf-8").splitlines()  # the BOM kept, as paste keeps it
    pasted = "".join(f"{a}\t{b}\n" for a, b in zip(lines_a, lines_b, strict=True))
    assert pasted.split("\t")[1].startswith("\ufeff")
    piped = run_process("score", str(REF), "-m", "chrf", "-f", "json", stdin=pasted)
    files = run_process("score", str(REF), "-i", str(UEDIN), str(with_bom), "-m", "chrf", "-f", "json")
    assert piped.returncode == 0 and files.returncode == 0, piped.stderr + files.stderr
    scores = [[r["score"] for r in json.loads(done.stdout)] for done in (piped, files)]
    assert scores[0] == scores[1]
    plain = run_process("score", str(REF), "-i", str(ONLINE_A), "-m", "chrf", "-f", "json")
    assert scores[1][1] == json.loads(plain.stdout)["score"]


def test_a_full_disk_names_the_file_being_written(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    done = run_process(
        "gate", str(REF), "--baseline", str(UEDIN), "--candidate", str(ONLINE_A), "--junit", "/dev/full"
    )
    assert done.returncode == 2 and "/dev/full: cannot write: No space left on device" in done.stderr
    assert "standard output" not in done.stderr


def test_counts_in_messages_agree_with_their_number(tmp_path: Path) -> None:
    # Before: "has 1 lines".
    (tmp_path / "one").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "two").write_text("a b c\nd e f\n", encoding="utf-8")
    said = [
        run_process("score", str(tmp_path / ref), "-i", str(tmp_path / hyp)).stderr
        for ref, hyp in (("one", "two"), ("two", "one"))
    ]
    assert f"{tmp_path / 'one'} has 1 line but {tmp_path / 'two'} has 2" in said[1]
    assert f"{tmp_path / 'two'} has 2 lines but {tmp_path / 'one'} has 1" in said[0]


STALLING = """
import re, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 40, resource.RLIM_INFINITY))  # capped, far above need
from understudy._memory import watch_progress
assert watch_progress(int(sys.argv[1]))
if sys.argv[2] == "stall":
    re.match(r"(a+)+$", "a" * 64 + "b")  # holds the GIL for ages, as an interpreter out of memory spins
else:
    import time
    time.sleep(4)  # waiting, the GIL free: heartbeats go on
"""


@pytest.mark.parametrize("what", ["stall", "wait"])
def test_a_capped_process_that_stops_making_progress_ends_in_one_line(what: str) -> None:
    # Before: out of memory under ulimit -v, CPython 3.11 spun in an exception handler with
    # the GIL held, and `timeout`'s SIGTERM never ran: the report's memory test hung 300 s.
    # The run's timeout bounds the wait: without the watch, the regex outlives it.
    done = subprocess.run(
        [sys.executable, "-c", STALLING, "2", what], capture_output=True, timeout=120, check=False
    )
    if what == "wait":
        assert done.returncode == 0, done.stderr.decode()
        return
    one_line_error(done, "out of memory", "stopped making progress", "ulimit -v")
    assert done.returncode == 1


def test_no_watch_without_a_cap() -> None:
    import resource

    if resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY:
        pytest.skip("this process's address space is capped")
    code = "from understudy._memory import watch_progress; print(watch_progress(1))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120, check=False)
    assert done.stdout.decode().strip() == "False", done.stderr.decode()


def test_a_library_that_fails_to_load_is_not_a_missing_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: any ImportError was "needs the 'report' extra", also a library that could not be
    # mapped under ulimit -v: installed, and short of memory.
    from understudy._memory import out_of_memory
    from understudy.errors import MissingExtraError, import_extra

    (tmp_path / "brokenlib").mkdir()
    (tmp_path / "brokenlib" / "__init__.py").write_text(
        'raise ImportError("libfoo.so: failed to map segment from shared object")\n', encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ImportError) as caught:
        import_extra("brokenlib", "needs the 'x' extra")
    assert not isinstance(caught.value, MissingExtraError)
    line = out_of_memory(caught.value, "report")
    assert line is not None and line.startswith(
        "out of memory while running report (loading a library failed"
    )
    with pytest.raises(MissingExtraError, match="needs the 'x' extra"):
        import_extra("brokenlib_absent.sub", "needs the 'x' extra")


def test_out_of_memory_while_the_command_loads_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib

    real = importlib.import_module

    def short(name: str, package: str | None = None) -> Any:
        if name == "understudy.cli.report":
            raise MemoryError
        return real(name, package)

    monkeypatch.setattr("understudy.cli.importlib.import_module", short)
    status, out, err = run_cli(capsys, "report", str(REF), "-i", str(UEDIN), "-o", "r.html")
    assert (status, out) == (1, "")
    said = "understudy: error: out of memory while running report: give it more memory or less input at once"
    assert err == said + "\n"
