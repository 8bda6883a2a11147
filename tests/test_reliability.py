"""Issue 26, reliability round three: each defect the probe found, reproduced and held fixed.

Each test names the item it covers; the values are worked by hand or come from sacrebleu and SciPy.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
import understudy.sacrebleu as compat
from understudy import BLEU, CHRF, Totals
from understudy._atomic import atomic_write, writable
from understudy.accumulator import Accumulator
from understudy.cli.chunks import Chunks
from understudy.correlation import compare, read_human, read_mqm
from understudy.errors import InputError, InputFileError, InputTypeError, OutputError, UnderstudyError

from tests.support.cli import run_cli
from tests.support.paths import SAMPLE

CLI = [sys.executable, "-m", "understudy.cli"]
ONLINE_A = str(SAMPLE / "newstest2017.online-A.0.en-de.de")

MQM_HEADER = "system\tdoc\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


@pytest.mark.parametrize(
    ("a", "human", "why"),
    [
        ([3.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0], "scores of 'a' are all equal"),
        ([1.0, 2.0, 4.0, 3.0], [5.0, 5.0, 5.0, 5.0], "human scores are all equal"),
        ([1.0, math.nan, 4.0, 3.0], [1.0, 2.0, 3.0, 4.0], "score of 'a' is not a number"),
    ],
)
def test_1_an_undefined_correlation_has_no_p_value(a: list[float], human: list[float], why: str) -> None:
    # Before: the difference was NaN, no permutation reached it, and p was 1/(n+1), "significant".
    with pytest.raises(InputError, match=why):
        compare(("a", a), ("b", [1.0, 2.0, 3.0, 5.0]), human, n=99)


def test_1_a_defined_comparison_still_has_its_p_value() -> None:
    # Identical metrics: every permutation's difference is 0, at least the observed 0, so p = 1.
    same = compare(("a", [1.0, 2.0, 4.0, 3.0]), ("b", [1.0, 2.0, 4.0, 3.0]), [1.0, 2.0, 3.0, 4.0], n=99)
    assert same.difference == 0.0 and same.p_value == 1.0


def test_2_segment_numbers_reused_by_two_documents_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "mqm.tsv"
    rows = ["A\td1\t1\tr1\ts\tt\tAccuracy/Mistranslation\tMajor", "A\td1\t2\tr1\ts\tt\tno-error\tno-error"]
    rows += ["A\td2\t1\tr1\ts\tt\tno-error\tno-error", "A\td2\t2\tr1\ts\tt\tno-error\tno-error"]
    path.write_text(MQM_HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    # Before: d2's segment 1 overwrote d1's, and the system's one Major error vanished (0.0).
    with pytest.raises(
        InputFileError, match=r"mqm.tsv:4: segment 1 is in document 'd2' and, on line 2, in 'd1'"
    ):
        read_mqm(path)
    numbered = "\n".join(r.replace("\td2\t1\t", "\td2\t3\t").replace("\td2\t2\t", "\td2\t4\t") for r in rows)
    path.write_text(MQM_HEADER + numbered + "\n", encoding="utf-8")
    assert read_mqm(path).system == {"A": -5.0 / 4}


def test_6_a_judged_segment_missing_from_metric_scores_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp_a, hyp_b = (tmp_path / n for n in ("ref.txt", "A.txt", "B.txt"))
    ref.write_text("a b c d\ne f g h\ni j k l\nm n o p\n", encoding="utf-8")
    hyp_a.write_text("a b c d\ne f x h\ni y z l\nm n o q\n", encoding="utf-8")
    hyp_b.write_text("a b x d\ne f g h\ni j k q\nx y z p\n", encoding="utf-8")
    human, other = tmp_path / "human.tsv", tmp_path / "comet.tsv"
    judged = [1, 3, 2, 4]
    human.write_text("".join(f"{s}\t{g}\t{judged[g - 1]}\n" for s in "AB" for g in range(1, 5)))
    other.write_text("".join(f"{s}\t{g}\t0.{g}\n" for s in "AB" for g in range(1, 5) if (s, g) != ("B", 3)))
    argv = ["correlate", str(ref), "-i", str(hyp_a), str(hyp_b), "--human", str(human), "--level", "segment"]
    status, out, err = run_cli(capsys, *argv, "--metric-scores", str(other), "-n", "100")
    assert status == 1 and out == ""
    missing = f"{other} has no score for segment 3 of 'B', which the human scores judge"
    missing += " (1 judged segment missing)"
    assert err == f"understudy: error: {missing}\n"
    human.write_text(human.read_text() + "A\t5\t1\n")
    status, out, err = run_cli(capsys, *argv, "-n", "100")
    assert status == 1 and "scores segment 5 of 'A', but the references have 4 lines" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1, "a": 7}', "key 'a' is given twice"),
        ('{"a": {"1": 1, "1": 2}}', "key '1' is given twice"),
        ('{"a": {"1": 1, "01": 2}}', "segment 1 of 'a' has a score already"),
        (
            '[{"system": "a", "segment": 1, "score": 1}, {"system": "a", "segment": 1, "score": 2}]',
            "record 2: segment 1",
        ),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a": ' + "9" * 5000 + "}", "not a finite number"),
        ('{"a": true}', "expected a number"),
        ('{"a": {"1": [1]}}', "expected a number"),
    ],
)
def test_7_18_json_readers_refuse_duplicates_depth_and_huge_numbers(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "human.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError, match=message):
        read_human(path)


def test_7_json_and_tsv_read_the_same_scores(tmp_path: Path) -> None:
    (tmp_path / "h.json").write_text(json.dumps({"A": {"1": -1, "2": -3}, "B": {"1": 0.5}}))
    (tmp_path / "h.tsv").write_text("A\t1\t-1\nA\t2\t-3\nB\t1\t0.5\n")
    from_json, from_tsv = read_human(tmp_path / "h.json"), read_human(tmp_path / "h.tsv")
    assert from_json.segments == from_tsv.segments == {"A": {1: -1.0, 2: -3.0}, "B": {1: 0.5}}
    assert from_json.system == from_tsv.system == {"A": -2.0, "B": 0.5}
    assert isinstance(InputFileError("x"), UnderstudyError) and np.isfinite(from_json.system["A"])


def test_3_accumulator_updates_from_ten_threads_keep_every_segment() -> None:
    bleu = BLEU()
    hyps = [f"the cat sat on a mat number {i} today" for i in range(100)]
    refs = [f"the cat sat on the mat number {i}" for i in range(100)]
    acc = bleu.accumulator()

    def work() -> None:
        for _ in range(3):
            acc.update(hyps, [refs])

    threads = [threading.Thread(target=work) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Before: 900-1,600 of the 3,000 segments were kept, silently.
    assert acc.n_segments == 3000
    assert acc.compute().score == bleu.corpus_score(hyps * 30, [refs * 30]).score


@pytest.mark.parametrize(
    ("correct", "total", "sys_len", "ref_len"),
    [([4.5, 3.5, 2.5, 1.5], [5, 4, 3, 2], 5, 5), ([2.25, 0.5, 0, 0], [3.5, 2.5, 1.5, 0.5], 3, 5)],
)
def test_4_compute_bleu_scores_fractional_counts_as_sacrebleu(
    correct: list[float], total: list[float], sys_len: float, ref_len: float
) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    for smooth in ("none", "exp", "floor", "add-k"):
        value = 0.1 if smooth in ("floor", "add-k") else None
        ours = compat.BLEU.compute_bleu(correct, total, sys_len, ref_len, smooth, value)
        theirs = sacrebleu.BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, smooth, value)
        assert (ours.score, ours.precisions, ours.bp) == (theirs.score, theirs.precisions, theirs.bp)
    # Before: the counts were truncated to whole numbers (66.87).
    assert round(compat.BLEU.compute_bleu([4.5, 3.5, 2.5, 1.5], [5, 4, 3, 2], 5, 5).score, 2) == 83.76
    with pytest.raises(InputError, match="never negative"):
        compat.BLEU.compute_bleu([1, -1, 0, 0], [5, 4, 3, 2], 5, 5)
    # sacrebleu cannot print averaged lengths ("d" format of a float); understudy prints them.
    averaged = compat.BLEU.compute_bleu([4.5, 3.5, 2.5, 1.5], [5, 4, 3, 2], 5.0, 5.5)
    assert str(averaged).endswith("hyp_len = 5 ref_len = 5.5)")


def _bleu_state(order: int = 4) -> np.ndarray:
    return BLEU(max_ngram_order=order).segment_stats(["a b c d"], [["a b c e"]]).totals().state


def test_5_impossible_states_are_refused() -> None:
    bleu, chrf = BLEU(), CHRF()
    good = _bleu_state()
    header = Totals.STATE_HEADER
    more_matches = good.copy()
    more_matches[header + 2] = 10  # ten matching unigrams of four (after the two lengths)
    with pytest.raises(InputError, match="no text gives this BLEU state: 10 matching 1-grams of 4"):
        Accumulator.from_state(bleu, more_matches)
    chrf_state = chrf.segment_stats(["a cat"], [["a cat"]]).totals().state
    chrf_state[header + 2] = chrf_state[header] + 1
    with pytest.raises(InputError, match="no text gives this chrF2 state"):
        Accumulator.from_state(chrf, chrf_state)
    for bad in ([str(v) for v in good], [2**70] * len(good), [True] * len(good), [math.nan] * len(good)):
        with pytest.raises(InputError, match="a BLEU state holds"):
            Accumulator.from_state(bleu, bad)


def test_5_a_state_carries_its_configuration_through_sums() -> None:
    # A BLEU state of order 2 is as wide as a chrF state of order 2 (and no words): before, it read
    # back as chrF 74.07.
    two = _bleu_state(order=2)
    chrf2 = CHRF(char_order=2, word_order=0)
    with pytest.raises(InputError, match="not made by chrF2 with this configuration"):
        Accumulator.from_state(chrf2, two)
    with pytest.raises(InputError, match="not made by BLEU"):
        Accumulator.from_state(BLEU(max_ngram_order=2, smooth_method="floor"), two)
    summed = np.sum([two] * 7, axis=0)
    assert Accumulator.from_state(BLEU(max_ngram_order=2), summed).n_segments == 7


def test_5_sums_past_int64_are_refused_not_wrapped() -> None:
    bleu = BLEU()
    big = _bleu_state().copy()
    big[[0, 1, 2]] = 2**62
    big[Totals.STATE_HEADER :] = 2**62
    acc = Accumulator.from_state(bleu, big)
    with pytest.raises(InputError, match="overflow int64"):
        acc.merge(Accumulator.from_state(bleu, big))
    assert acc.n_segments == 2**62  # the failed merge left it whole


def test_20_merging_something_else_is_a_typed_error() -> None:
    with pytest.raises(InputTypeError, match="not str"):
        BLEU().accumulator().merge("x")  # type: ignore[arg-type]


def test_8_a_symlink_is_followed_and_kept(tmp_path: Path) -> None:
    real, link = tmp_path / "real.txt", tmp_path / "link.txt"
    real.write_text("old")
    link.symlink_to(real)
    with atomic_write(link) as fh:
        fh.write(b"new")
    # Before: the link was replaced by a regular file and real.txt kept the stale content.
    assert link.is_symlink() and real.read_text() == "new"


def test_8_a_fifo_and_a_device_are_written_through(tmp_path: Path) -> None:
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


def test_8_16_folders_and_missing_folders_are_refused_before_any_work(tmp_path: Path) -> None:
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


def test_9_sigterm_mid_write_leaves_no_temporary_file(tmp_path: Path) -> None:
    script = (
        "import os, signal, sys\n"
        "from understudy._atomic import atomic_write\n"
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


def _open_when_read(fifo: Path, proc: subprocess.Popen[str]) -> int:
    """The FIFO's write end, opened once ``proc`` opens it to read (polled: no timing assumed)."""
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: no reader yet
            assert proc.poll() is None, "the command ended before reading the FIFO"
            time.sleep(0.05)


def test_9_sigterm_ends_the_command_line_with_one_line(tmp_path: Path) -> None:
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


def test_20_report_human_with_two_systems_is_refused_first(tmp_path: Path) -> None:
    ref, hyp = str(SAMPLE / "newstest2017.ref.en-de.de"), str(SAMPLE / "newstest2017.online-A.0.en-de.de")
    human = tmp_path / "h.tsv"
    human.write_text("a\t1\nb\t2\n")
    argv = [
        "report",
        ref,
        "-i",
        hyp,
        hyp,
        "--names",
        "a",
        "b",
        "--human",
        str(human),
        "-o",
        str(tmp_path / "r.html"),
    ]
    proc = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=60)
    assert (
        proc.returncode == 1 and "give 3 or more, not 2" in proc.stderr and not (tmp_path / "r.html").exists()
    )


def _three_copies(tmp_path: Path, names: list[str], sources: list[Path]) -> list[str]:
    paths = []
    for name, source in zip(names, sources, strict=True):
        path = tmp_path / f"{name}.txt"
        path.write_bytes(source.read_bytes())
        paths.append(str(path))
    return paths


def test_14_identical_systems_give_one_line_or_an_undefined_line(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    ref, hyp = SAMPLE / "newstest2017.ref.en-de.de", SAMPLE / "newstest2017.online-A.0.en-de.de"
    paths = _three_copies(tmp_path, ["a", "b", "c"], [hyp] * 3)
    human = tmp_path / "h.tsv"
    human.write_text("a\t1\nb\t2\nc\t3\n")
    common = [*CLI, "correlate", str(ref), "-i", *paths, "--human", str(human), "-n", "10"]
    paper = subprocess.run([*common, "--paper"], capture_output=True, text=True, timeout=120)
    assert paper.returncode == 1 and paper.stderr.endswith(
        "understudy: error: no regression on metric scores that are all equal (identical systems?)\n"
    )
    plot = subprocess.run(
        [*common, "--plot", str(tmp_path / "p.svg")], capture_output=True, text=True, timeout=120
    )
    assert (
        plot.returncode == 0 and "r undefined (all its scores are equal)" in (tmp_path / "p.svg").read_text()
    )


def test_15_20_names_are_plain_text_isolated_and_distinctly_coloured(tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    ref = SAMPLE / "newstest2017.ref.en-de.de"
    sources = [p for p in sorted(SAMPLE.glob("newstest2017.*.de")) if ".ref." not in p.name]
    names = ["a$x$", "b$", "\u202ec$\\frac{1}{0}$"]
    paths = _three_copies(tmp_path, names, sources)
    human = tmp_path / "h.tsv"
    human.write_text("".join(f"{n}\t{k}\n" for k, n in enumerate(names)))
    output = tmp_path / "r.html"
    argv = ["report", str(ref), "-i", *paths, "--human", str(human), "-o", str(output), "-n", "10"]
    proc = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr  # before: matplotlib's mathtext parser failed on the "$"
    page = output.read_text()
    # Before: the right-to-left override in a name swapped the (A)/(B) labels of the diff heading.
    # Shown by its short name (".txt", which all share, cut away), the full path in the tooltip.
    assert re.search(r'<bdi title="[^"]*">\u202ec\$\\frac\{1\}\{0\}\$</bdi> \([AB]\)', page)
    from understudy.report.figures import colours

    many = colours([f"s{k}" for k in range(45)])
    assert len(set(many.values())) == 45 and len(set(colours(["a", "b"]).values())) == 2


def test_19_width_is_bounded_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = str(SAMPLE / "newstest2017.ref.en-de.de"), str(SAMPLE / "newstest2017.online-A.0.en-de.de")
    for command in (["score", ref, "-i", hyp], ["pairwise", hyp, ref]):
        status, out, err = run_cli(capsys, *command, "-w", "3000000000")
        assert (status, out) == (2, "") and err.count("\n") == 1
        assert "argument -w/--width: takes 0 to 50 decimal places, got 3000000000" in err
    status, out, _ = run_cli(capsys, "score", ref, "-i", hyp, "-w", "50", "-b")
    assert status == 0 and len(out.strip().split(".")[1]) == 50


def test_20_control_characters_in_messages_are_escaped(tmp_path: Path) -> None:
    name = tmp_path / "bad\x1b[31mname\u202e.txt"
    proc = subprocess.run([*CLI, "score", str(name), "-i", str(name)], capture_output=True, timeout=60)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err.count("\n") == 1
    assert "\\x1b[31m" in err and "\\u202e" in err and "\x1b" not in err and "\u202e" not in err


def test_13_reference_subsets_are_bounded() -> None:
    pytest.importorskip("scipy")
    from understudy.correlation.paper import reference_subsets

    calls: list[tuple[int, ...]] = []

    def scores(subset: Sequence[int]) -> list[float]:
        calls.append(tuple(subset))
        return [1.0 + len(subset), 2.0 + sum(subset), 3.5]

    human = [1.0, 2.0, 3.0]
    assert sum(len(v) for v in reference_subsets(scores, 6, human).values()) == len(calls) == 2**6 - 1
    calls.clear()
    found = reference_subsets(scores, 18, human)
    # Before: all 262,143 subsets of 18 references (more than 90 s); now each alone, each left out, all.
    assert sorted(found) == [1, 17, 18] and len(calls) == 18 + 18 + 1
    assert found[17][0].references == tuple(range(1, 18))


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("", "expected 'local' or a scheduler's address"),
        ("foo", "expected 'local' or a scheduler's address"),
        ("tcp://x:99999", "the port must be 1 to 65535"),
        ("http://x:1", "the scheme must be one of"),
        ("tcp://a b:1", "expected 'local' or a scheduler's address"),
    ],
)
def test_17_malformed_dask_addresses_are_one_line(
    address: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    # Before: ValueError or TypeError tracebacks, and '' ran locally without a word.
    status, out, err = run_cli(capsys, "score", ref, "-i", ONLINE_A, "--dask", address)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert f"understudy: error: --dask {address!r}: {message}" in err


def test_17_a_server_that_is_not_dask_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]

    def answer() -> None:
        with contextlib.suppress(OSError):
            while True:
                peer, _ = server.accept()
                peer.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 100)
                peer.close()

    threading.Thread(target=answer, daemon=True).start()
    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    try:
        status, _, err = run_cli(capsys, "score", ref, "-i", ONLINE_A, "--dask", f"tcp://127.0.0.1:{port}")
    finally:
        server.close()
    # Before: "Unable to allocate 3.07 EiB", a MemoryError traceback.
    assert status == 1 and f"--dask tcp://127.0.0.1:{port}: not a Dask scheduler" in err
    assert err.count("understudy: error:") == 1 and "Traceback" not in err


def test_17_a_chunk_whose_workers_keep_dying_is_one_line() -> None:
    distributed = pytest.importorskip("distributed")

    class Dying:
        def result(self) -> None:
            raise distributed.KilledWorker("remote_chunk-123", None, 3)

    chunks = Chunks([BLEU()], lambda _: None)
    chunks._pending.append((Dying(), 2001))
    with pytest.raises(UnderstudyError, match=r"a chunk failed after 4 worker deaths .* from line 2001"):
        chunks.finish()


# The call runs again until interrupted, so the signal lands in the work however slow the machine:
# "finished" cannot be printed, and a call that ignored Ctrl-C would run to the test's timeout.
INTERRUPTED_ANALYSIS = """
import sys, time
from understudy import BLEU
n = 100_000
hyps = [f"the cat number {i} sat on the mat number {i % 977} today" for i in range(n)]
refs = [[f"a cat number {i} sat on a mat {i % 977} today" for i in range(n)]]
analysis = getattr(BLEU(), sys.argv[1])
analysis(hyps[:10], [refs[0][:10]])
try:
    print("started", flush=True)  # inside: a signal at once still lands in the try
    while True:
        analysis(hyps, refs)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    raise
"""


@pytest.mark.parametrize("analysis", ["ngram_matches", "matched_tokens"])
def test_10_the_reports_analyses_stop_on_ctrl_c(analysis: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_ANALYSIS, analysis],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "started\n"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert out == "interrupted\n" and err.rstrip().endswith("KeyboardInterrupt") and "panicked" not in err


def _tenfold(folder: Path) -> list[str]:
    """The sample's reference and two systems, each ten times over (30,040 segments), in ``folder``."""
    names = ["newstest2017.ref.en-de.de", "newstest2017.online-A.0.en-de.de"]
    names.append("newstest2017.uedin-nmt.4722.en-de.de")
    for name in names:
        (folder / name).write_bytes((SAMPLE / name).read_bytes() * 10)
    return names


def test_12_the_report_page_is_bounded_at_any_corpus_size(tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    paths = []
    for name in (
        "newstest2017.ref.en-de.de",
        "newstest2017.online-A.0.en-de.de",
        "newstest2017.uedin-nmt.4722.en-de.de",
    ):
        path = tmp_path / name
        path.write_bytes((SAMPLE / name).read_bytes() * 10)
        paths.append(str(path))
    n = 10 * len((SAMPLE / "newstest2017.ref.en-de.de").read_bytes().splitlines())
    output = tmp_path / "r.html"
    proc = subprocess.run(
        [*CLI, "report", paths[0], "-i", *paths[1:], "-o", str(output), "-n", "10"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    page = output.read_text(encoding="utf-8")
    # Before: every segment went into the diff (0.8 KB each: 24 MB here, 95 MB at 120k segments).
    assert len(page.encode()) < 5_000_000
    assert page.count("<tr data-delta=") == 1000
    assert f"1000 of {n} segments: the 500 with the largest differences" in page
    assert f"{n - 1000} are left out" in page


def test_12_the_diff_segments_are_chosen_by_difference_worst_and_sample() -> None:
    from understudy.report import diff_segments

    a = np.arange(1000.0)
    b = np.full(1000, 499.5)
    shown, how = diff_segments(a, b, True, 80, 7)
    assert len(shown) == 80 and shown == sorted(set(shown)) and "920 are left out" in how
    # The 40 largest |a - b| are the segments farthest from 499.5: 0..19 and 980..999.
    assert set(range(20)) | set(range(980, 1000)) <= set(shown)
    assert shown == diff_segments(a, b, True, 80, 7)[0]  # seeded: the same every run
    lower = diff_segments(a, b, False, 80, 7)[0]  # TER: A's worst are its highest scores
    assert set(range(990, 1000)) <= set(lower)


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


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the address space from /proc")
def test_11_out_of_memory_is_one_line_and_status_1_never_a_signal(tmp_path: Path) -> None:
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


def test_3_a_locked_accumulator_still_pickles_and_copies() -> None:
    import copy
    import pickle

    acc = BLEU().accumulator()
    acc.update(["the cat sat"], [["the cat sat down"]])
    for twin in (pickle.loads(pickle.dumps(acc)), copy.deepcopy(acc)):
        assert twin.state.tolist() == acc.state.tolist()
        twin.update(["a dog"], [["a dog"]])  # its own lock works
        assert (twin.n_segments, acc.n_segments) == (2, 1)
