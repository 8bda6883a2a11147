"""Reading and scoring a chunk at a time gives exactly what reading everything gives;
long calls stop promptly on Ctrl-C; the all-pairs command writes what the API computes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from understudy import BLEU, CHRF, InputFileError, streaming
from understudy.inputs.files import LineReader, decode_lines, read_lines
from understudy.streaming import Reading

from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE, first_lines, read_raw
from tests.support.signals import interruptible

REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
ONLINE_A = SAMPLE / "newstest2017.online-A.0.en-de.de"
PROMT = SAMPLE / "newstest2017.PROMT-Rule-based.4735.en-de.de"

line_bytes = st.lists(
    st.sampled_from([b"a", b"\xc3\xa9", b"\r", b"\n", b"\r\n", b" ", b"\xe2\x80\xa8", b"\xef\xbb\xbf"]),
    max_size=40,
).map(b"".join)


@settings(max_examples=200, deadline=None)
@given(line_bytes, st.integers(min_value=1, max_value=9), st.integers(min_value=1, max_value=5))
def test_line_reader_gives_the_lines_read_lines_gives(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, block: int, take: int
) -> None:
    path = tmp_path_factory.mktemp("lines") / "f.txt"
    path.write_bytes(data)
    expected = read_lines(path, allow_empty=True)
    got: list[str] = []
    with LineReader(path, block_size=block) as reader:
        while chunk := reader.take(take):
            got.extend(chunk)
        assert reader.count_all() == len(expected)
    assert got == expected


def test_bad_utf8_deep_in_a_file_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_bytes(b"ok\n" * 1000 + b"bad \xff\n")
    with pytest.raises(InputFileError, match=r"f.txt:1001: invalid UTF-8"), LineReader(path, 64) as reader:
        while reader.take(10):
            pass
    assert decode_lines(b"\xef\xbb\xbfx\n", "f", first_line=2) == ["\ufeffx"]


@pytest.mark.parametrize("extra", [[], ["-sl"], ["-sl", "-f", "text"], ["-f", "text", "-lc", "-tok", "intl"]])
def test_small_chunks_print_exactly_what_one_chunk_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, extra: list[str]
) -> None:
    systems = [str(UEDIN)] if "-sl" in extra else [str(UEDIN), str(ONLINE_A), str(PROMT)]
    argv = ["score", str(REF), "-i", *systems, "-w", "6", *extra]
    whole = run(capsys, *argv)
    monkeypatch.setattr(streaming, "CHUNK_LINES", 37)
    assert run(capsys, *argv) == whole
    if extra == ["-sl"]:
        records = json.loads(whole[1])
        assert len(records) == 3004 and records[-1]["segment"] == 3004


def test_score_files_is_sacrebleus_corpus_score_a_chunk_at_a_time(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    # The first 1200 lines in chunks of 200: six chunks, and sacrebleu's chrF a third as long.
    monkeypatch.setattr(streaming, "CHUNK_LINES", 200)
    ref, online_a, uedin, promt = first_lines([REF, ONLINE_A, UEDIN, PROMT], tmp_path, 1200)
    refs, hyps = [read_lines(ref), read_lines(online_a)], [read_lines(uedin), read_lines(promt)]
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"{a}\t{b}\n" for a, b in zip(*refs, strict=True)), encoding="utf-8")
    metrics: list[Any] = [BLEU(), CHRF()]
    apart = streaming.score_files([ref, online_a], [uedin, promt], metrics, reading=Reading(keep_rows=True))
    pasted = streaming.score_files([tsv], [uedin, promt], metrics, num_refs=2)
    assert apart.names == [str(uedin), str(promt)]
    for scored in (apart, pasted):
        for k, hyp in enumerate(hyps):
            bleu, chrf = (per_metric[k].score for per_metric in scored.corpus_scores())
            assert bleu == pytest.approx(sacrebleu.corpus_bleu(hyp, refs).score, abs=1e-9)
            assert chrf == pytest.approx(sacrebleu.corpus_chrf(hyp, refs).score, abs=1e-9)
    assert apart.stats is not None and len(apart.stats[0][0]) == 1200  # every chunk's rows, merged


def test_a_line_with_another_number_of_fields_is_named_with_sacrebleus_status(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("a\tb\nc\td\ne\n", encoding="utf-8")
    hyp = tmp_path / "hyp"
    hyp.write_text("a\nc\ne\n", encoding="utf-8")
    with pytest.raises(
        streaming.FieldCountError, match=r"refs.tsv:3: expected 2 TAB-separated references, found 1$"
    ):
        streaming.score_files([tsv], [hyp], [BLEU()], num_refs=2)
    assert streaming.FieldCountError.status == 17
    status, _, err = run(capsys, "score", str(tsv), "-nr", "2", "-i", str(hyp))
    assert status == 17 and "refs.tsv:3: expected 2 TAB-separated references, found 1" in err


def test_a_length_mismatch_found_mid_stream_names_both_files_and_counts(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    short = tmp_path / "short.de"
    short.write_text("\n".join(read_raw(UEDIN)[:2500]) + "\n", encoding="utf-8")
    monkeypatch.setattr(streaming, "CHUNK_LINES", 1000)
    status, out, err = run(capsys, "score", str(REF), "-i", str(short))
    assert status == 1 and out == ""
    assert err == f"understudy: error: {short} has 2500 lines but {REF} has 3004\n"


def test_pairwise_command_writes_npy_and_tsv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hyps, refs = tmp_path / "h.txt", tmp_path / "r.txt"
    hyps.write_text("\n".join(read_raw(UEDIN)[:25]) + "\n", encoding="utf-8")
    refs.write_text("\n".join(read_raw(REF)[:15]) + "\n", encoding="utf-8")
    expected = BLEU(effective_order=True).pairwise(read_raw(hyps), read_raw(refs))
    assert run(capsys, "pairwise", str(hyps), str(refs), "-o", str(tmp_path / "m.npy"))[0] == 0
    assert np.load(tmp_path / "m.npy").tolist() == expected.tolist()
    status, out, _ = run(capsys, "pairwise", str(hyps), str(refs))
    assert status == 0
    assert [[float(v) for v in line.split("\t")] for line in out.splitlines()] == expected.tolist()
    run(capsys, "pairwise", str(hyps), str(refs), "-o", str(tmp_path / "m.tsv"), "-w", "2")
    first = (tmp_path / "m.tsv").read_text().splitlines()[0].split("\t")
    assert first == [f"{v:.2f}" for v in expected[0]]
    status, _, err = run(capsys, "pairwise", str(hyps), str(refs), "-o", str(tmp_path / "m.csv"))
    assert (
        status == 1
        and err == f"understudy: error: {tmp_path / 'm.csv'}: the matrix file must end in .npy or .tsv\n"
    )


LONG_CALL = """
import sys
from understudy import BLEU
hyps = [" ".join(f"w{(i * 7 + j) % 50}" for j in range(30)) for i in range(6000)]
bleu = BLEU(effective_order=True)
bleu.pairwise(hyps[:3], hyps[:3])
try:
    print("ready", flush=True)  # inside: a signal at once still lands in the try
    while True:  # again until interrupted: the signal lands in the work however slow the machine
        bleu.pairwise(hyps, hyps)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    sys.exit(3)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_long_call_promptly() -> None:
    proc = interruptible([sys.executable, "-c", LONG_CALL], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGINT)
    # Without the checks in the call, it would never stop (it runs again until interrupted).
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 3 and out.strip() == "interrupted"


def test_progress_bar_draws_on_a_terminal_and_erases_itself(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from understudy.cli import progress

    monkeypatch.setattr(progress, "REFRESH_SECONDS", 0.0)
    with progress.Progress("scoring", total=2_000_000, enabled=True) as bar:
        bar.update(500_000)
        bar.update(1_000_000)
    err = capsys.readouterr().err
    # tqdm's bar: the label, the fraction, the amounts in decimal units; erased at the end.
    assert err.startswith("\rscoring:") and " 25%|" in err and " 50%|" in err
    assert "500k/2.00M" in err and "1.00M/2.00M" in err and "B/s]" in err
    assert err.endswith("\r")
    with progress.Progress("scoring", total=10) as quiet:  # stderr is not a terminal under pytest
        quiet.update(5)
    assert capsys.readouterr().err == ""
