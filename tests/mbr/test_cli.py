"""``understudy mbr``: the chosen lines and expected utilities against sacrebleu's sentence
scores, the two input forms, Ctrl-C keeping what is done, and bad input named in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import sacrebleu
import understudy.mbr as mbr
from understudy import BLEU, CHRF

from tests.support.cli import run_cli

LISTS = [
    ["the cat sat on the mat", "a cat sat on a mat", "the dog ran"],
    ["hello world", "hello there world", "hi"],
    ["one two three", "one two", "three two one"],
]


def _expected(hyps: list[str]) -> list[float]:
    return [float(np.mean([sacrebleu.sentence_chrf(h, [r]).score for r in hyps])) for h in hyps]


def test_the_chosen_lines_and_utilities_are_sacrebleus_chrf_mbr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cands = tmp_path / "cands.txt"
    cands.write_text("".join(f"{c}\n" for hyps in LISTS for c in hyps), encoding="utf-8")
    best, scores = tmp_path / "best.txt", tmp_path / "u.jsonl"
    argv = [
        "mbr",
        "--candidates",
        str(cands),
        "-n",
        "3",
        "-m",
        "chrf",
        "-o",
        str(best),
        "--scores",
        str(scores),
    ]
    status, out, err = run_cli(capsys, *argv)
    assert (status, out, err) == (0, "", "")
    chosen = [hyps[int(np.argmax(_expected(hyps)))] for hyps in LISTS]
    assert best.read_text(encoding="utf-8") == "".join(f"{c}\n" for c in chosen)
    records = [json.loads(line) for line in scores.read_text(encoding="utf-8").splitlines()]
    assert [r["source"] for r in records] == [1, 2, 3]
    for hyps, record in zip(LISTS, records, strict=True):
        assert record["expected"] == pytest.approx(_expected(hyps), abs=1e-9)


def test_json_lines_take_any_number_a_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lists = [LISTS[0], ["only"], LISTS[1][:2]]
    cands = tmp_path / "cands.jsonl"
    cands.write_text("".join(json.dumps({"candidates": c}) + "\n" for c in lists), encoding="utf-8")
    status, out, err = run_cli(capsys, "mbr", "--candidates", str(cands), "-m", "chrf")
    assert status == 0, err
    assert out.splitlines() == [hyps[int(np.argmax(_expected(hyps)))] for hyps in lists]


def test_with_n_a_text_file_is_text_even_where_a_candidate_starts_with_a_brace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # -n says text: a first candidate such as "{name} logged in" is a line, not JSON.
    lists = [["{name} logged in", "{name} has logged in"], ["{x}", '{"candidates": ["y"]}']]
    for suffix in ("txt", "jsonl"):
        cands = tmp_path / f"cands.{suffix}"
        cands.write_text("".join(f"{c}\n" for hyps in lists for c in hyps), encoding="utf-8")
        status, out, err = run_cli(capsys, "mbr", "--candidates", str(cands), "-n", "2", "-m", "chrf")
        assert status == 0, err
        assert out.splitlines() == [hyps[int(np.argmax(_expected(hyps)))] for hyps in lists]


def test_ctrl_c_keeps_the_choices_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cands = tmp_path / "cands.txt"
    cands.write_text("".join(f"{c}\n" for hyps in LISTS for c in hyps), encoding="utf-8")
    real, calls = mbr.select, []

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr("understudy.cli.mbr.select", interrupted)
    best = tmp_path / "best.txt"
    status, _, err = run_cli(
        capsys, "mbr", "--candidates", str(cands), "-n", "3", "-m", "chrf", "-o", str(best)
    )
    assert status == 130
    assert err == "understudy: error: stopped at source 3 of 3; the first 2 choices are written\n"
    chosen = [hyps[int(np.argmax(_expected(hyps)))] for hyps in LISTS[:2]]
    assert best.read_text(encoding="utf-8") == "".join(f"{c}\n" for c in chosen)


@pytest.mark.parametrize(
    ("text", "extra", "said"),
    [
        ("a\nb\nc\n", ["-n", "2"], "has 3 lines, not a multiple of -n 2: its last source has 1 candidates"),
        ("a\nb\n", [], "a text file of candidates needs their number a source (-n N)"),
        ("{a}\nb\n", [], "line 1: not JSON"),
        ("a\nb\n", ["-n", "0"], "-n must be at least 1, not 0"),
        ('{"candidates": ["a"]}\n{"candidates": "b"}\n', [], 'line 2: expected {"candidates": [...]}'),
        ('{"candidates": ["a"]}\n{"candidates": []}\n', [], "line 2: no candidates"),
        ('{"candidates": ["a"]}\n{oops\n', [], "line 2: not JSON"),
        ("a\nb\n", ["-n", "1", "-m", "chrf", "bleu"], "mbr takes one metric"),
        ("a\nb\n", ["-n", "1", "--prune-alpha", "0.9"], "--prune-alpha set(s) pruning: add --method prune"),
        (
            "a\nb\n",
            ["-n", "1", "--method", "prune", "--prune-schedule", "8,x"],
            "counts like 8,16,32, not '8,x'",
        ),
        ("a\nb\n", ["-n", "1", "--method", "prune", "--prune-alpha", "2"], "alpha must lie between 0 and 1"),
        ("a\nb\n", ["-n", "1", "-m", "ter", "--method", "aggregate"], "TER has no reference aggregation"),
        # Before any model is looked for: the input is checked first.
        ("a\nb\n", ["-n", "1", "-m", "comet"], "-m comet reads the sources: give them with --source FILE"),
    ],
)
def test_bad_input_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, extra: list[str], said: str
) -> None:
    cands = tmp_path / "cands.txt"
    cands.write_text(text, encoding="utf-8")
    argv = ["mbr", "--candidates", str(cands), *extra]
    status, out, err = run_cli(capsys, *(argv if "-m" in extra else [*argv, "-m", "chrf"]))
    assert status == 1 and out == ""
    assert err.startswith("understudy: error: ") and said in err and err.count("\n") == 1


def test_xcomet_spans_asked_of_mbr_are_refused_before_any_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # mbr scores candidates against candidates: it has no segment's spans, so a spans file
    # asked for is refused rather than left unwritten without a word.
    cands, spans = tmp_path / "cands.txt", tmp_path / "spans.jsonl"
    cands.write_text("a\nb\n", encoding="utf-8")
    argv = ["mbr", "--candidates", str(cands), "-n", "1", "--source", str(cands), "-m", "xcomet"]
    status, out, err = run_cli(capsys, *argv, "--xcomet-spans", str(spans))
    assert (status, out) == (1, "")
    assert err == (
        "understudy: error: mbr writes no error spans (it scores each candidate against the"
        f" others): {spans} would stay unwritten; score -m xcomet writes them\n"
    )
    assert not spans.exists()


@pytest.mark.parametrize(
    ("extra", "method", "pruning"),
    [
        (["--method", "aggregate", "-m", "bleu"], "aggregate", None),
        (
            ["--method", "prune", "--prune-schedule", "2,3", "--prune-seed", "1", "-m", "chrf"],
            "prune",
            (2, 3),
        ),
    ],
)
def test_the_methods_write_what_select_chooses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], method: str, pruning: Any
) -> None:
    lists = [[*LISTS[0], *LISTS[2]], [*LISTS[1], "hello", "world", "hi there"]]
    cands = tmp_path / "cands.txt"
    cands.write_text("".join(f"{c}\n" for hyps in lists for c in hyps), encoding="utf-8")
    scores = tmp_path / "u.jsonl"
    argv = ["mbr", "--candidates", str(cands), "-n", "6", "--scores", str(scores), *extra]
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    metric = BLEU(effective_order=True) if "bleu" in extra else CHRF()
    settings = None if pruning is None else mbr.Pruning(schedule=pruning, seed=1)
    choices = mbr.select(lists, metric, method=method, pruning=settings)
    assert out.splitlines() == [c.candidate for c in choices]
    records = [json.loads(line) for line in scores.read_text(encoding="utf-8").splitlines()]
    # A pruned candidate's expected utility is JSON's null, not NaN (which JSON has not).
    assert [r["expected"] for r in records] == [c.to_dict()["expected"] for c in choices]


@pytest.mark.parametrize("command", ["mbr", "pairwise"])
def test_no_effective_order_says_it_does_nothing_for_chrf(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    cands = tmp_path / "cands.txt"
    cands.write_text("a b c\na b d\n", encoding="utf-8")
    files = ["--candidates", str(cands), "-n", "2"] if command == "mbr" else [str(cands), str(cands)]
    # Before: the flag was dropped without a word.
    with pytest.warns(UserWarning, match="--no-effective-order is BLEU's: ignored for -m chrf"):
        status, _, err = run_cli(capsys, command, *files, "-m", "chrf", "--no-effective-order")
    assert status == 0, err
