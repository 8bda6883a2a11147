"""The contract, driven by generated inputs: every run either exits 0 with sacrebleu's
number, or exits non-zero with one line on stderr; never a traceback, never a partial
output file.

Random option values (in range and out of it), random bytes (invalid UTF-8, BOMs, CR,
NUL, Unicode separators), random line structures (files of different lengths, empty
files, a missing final newline) and random stream layouts (stdin or files, TAB-separated
references).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from understudy import BLEUConfig, CHRFConfig, TERConfig
from understudy.cli import main

from tests.support.parity import theirs

VALID = [b"a", b"The", b" ", b"cat", b".", b",", b"\xc3\xa9", b"\xe4\xb8\xad", b"\t", b"\xe2\x80\xa8"]
HOSTILE = [b"\r", b"\xef\xbb\xbf", b"\xff", b"\x00", b"\xc3"]
# Mostly valid text, sometimes hostile bytes, so that both outcomes are exercised.
LINE_BYTES = st.one_of(
    st.lists(st.sampled_from(VALID), max_size=12).map(b"".join),
    st.lists(st.sampled_from(VALID), max_size=12).map(b"".join),
    st.lists(st.sampled_from(VALID + HOSTILE), max_size=12).map(b"".join),
)


def files(n_lines: int) -> st.SearchStrategy[bytes]:
    """A file of ``n_lines`` lines (sometimes a line more or less), with or without a final newline."""
    count = st.sampled_from([n_lines, n_lines, n_lines, max(0, n_lines - 1), n_lines + 1])
    return count.flatmap(
        lambda n: st.tuples(st.lists(LINE_BYTES, min_size=n, max_size=n), st.sampled_from([b"\n", b""])).map(
            lambda t: b"\n".join(t[0]) + (t[1] if t[0] else b"")
        )
    )


OPTION = st.one_of(
    st.just(["-m", "bleu", "chrf", "ter"]),
    st.sampled_from(
        [["-lc"], ["-tok", "intl"], ["-tok", "char"], ["-sl"], ["-b"], ["-f", "text"], ["-f", "latex"]]
    ),
    st.tuples(
        st.sampled_from(["--max-ngram-order", "-cc", "-cw", "-w", "--seed", "-j", "-nr", "--chrf-beta"]),
        st.integers(-3, 70),
    ).map(lambda kv: [kv[0], str(kv[1])]),
    st.sampled_from(
        [["--confidence", "-cin", "20"], ["--paired-bs", "-pbsn", "20"], ["-m", "ter", "--ter-normalized"]]
    ),
)


def run(
    argv: list[str], stdin: bytes, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    layout=st.integers(0, 5).flatmap(
        lambda n: st.tuples(files(n), st.lists(files(n), min_size=1, max_size=2))
    ),
    options=st.lists(OPTION, max_size=3),
    use_stdin=st.booleans(),
)
def test_every_run_keeps_the_contract(
    layout: tuple[bytes, list[bytes]],
    options: list[list[str]],
    use_stdin: bool,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ref, hyps = layout
    folder = tmp_path_factory.mktemp("contract")
    (folder / "ref.txt").write_bytes(ref)
    paths = []
    for k, data in enumerate(hyps):
        (folder / f"hyp{k}.txt").write_bytes(data)
        paths.append(str(folder / f"hyp{k}.txt"))
    argv = ["score", str(folder / "ref.txt")]
    stdin = b""
    if use_stdin:
        stdin = hyps[0]
    else:
        argv += ["-i", *paths]
    for option in options:
        argv += option
    status, out, err = run(argv, stdin, capsys, monkeypatch)
    assert "Traceback" not in err
    if status != 0:
        assert err.startswith("understudy: error: ") and err.endswith("\n"), err
        assert err.count("\n") == 1 + err.count("understudy: warning: "), err
        return
    assert out.strip(), argv
    assert sorted(p.name for p in folder.iterdir()) == sorted(["ref.txt", *(Path(p).name for p in paths)])


CLEAN = st.lists(st.sampled_from(["the cat", "a cat sat", "The mat .", "é 中", ""]), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=CLEAN.flatmap(
        lambda r: st.tuples(
            st.just(r),
            st.lists(st.sampled_from(["the cat", "cat a", "", "mat ."]), min_size=len(r), max_size=len(r)),
        )
    ),
    metric=st.sampled_from(["bleu", "chrf", "ter"]),
)
def test_a_successful_run_prints_sacrebleus_number(
    lines: tuple[list[str], list[str]],
    metric: str,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    refs, hyps = lines
    folder = tmp_path_factory.mktemp("number")
    (folder / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (folder / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    status, out, err = run(
        ["score", str(folder / "ref.txt"), "-i", str(folder / "hyp.txt"), "-m", metric, "-b", "-w", "6"],
        b"",
        capsys,
        monkeypatch,
    )
    assert status == 0, err
    config = {"bleu": BLEUConfig(), "chrf": CHRFConfig(), "ter": TERConfig()}[metric]
    expected = theirs(config).corpus_score(hyps, [refs]).score
    assert out == f"{expected:.6f}\n"
