"""The judges on the command line: ``-m gemba-mqm`` beside BLEU in ``score`` and ``compare``,
against the stand-in endpoint, and its mistakes as one line each."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from understudy.judges.mock import ChatServer, Reply

from tests.judges.test_metric import MQM, SOURCES, SYSTEM_A, SYSTEM_B, hypothesis_of
from tests.support.cli import run_cli

KEY = "sk-cli-key-not-to-be-seen-7"


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("UNDERSTUDY_JUDGE_KEY", KEY)
    made = {}
    for name, lines in [("src", SOURCES), ("ref", SYSTEM_A), ("a", SYSTEM_A), ("b", SYSTEM_B)]:
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        made[name] = str(tmp_path / f"{name}.txt")
    chat = ChatServer()
    chat.respond = lambda body: Reply(text=MQM[hypothesis_of(body)])
    made["url"] = chat.url
    yield made
    chat.close()


def _judged(files: dict[str, str], *argv: str) -> list[str]:
    judge = ["--source", files["src"], "-l", "en-de", "--judge-url", files["url"], "--judge-model", "m"]
    return [*argv, *judge]


def test_score_prints_gemba_mqm_beside_bleu(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _judged(
        files, "score", files["ref"], "-i", files["a"], files["b"], "-m", "bleu", "gemba-mqm", "-f", "json"
    )
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    results = {row["system"].rsplit("/", 1)[-1]: row for row in json.loads(out)}
    mqm = results["b.txt"]["GEMBA-MQM"]
    # The means of -5, -1, -25 and of 0, -1, 0, as printed (rounded for the range's width).
    assert mqm["score"] == pytest.approx(-31 / 3, abs=0.005)
    assert results["a.txt"]["GEMBA-MQM"]["score"] == pytest.approx(-1 / 3, abs=0.005)
    assert mqm["model"] == "m" and mqm["rev"].startswith("gemba-mqm-v1-") and mqm["range"] == "-25..0"
    assert results["b.txt"]["BLEU"]["score"] == 50.2  # as alone: the judge changes nothing else
    assert KEY not in out + err


def test_compare_ranks_by_gemba_mqm_with_significance(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _judged(
        files, "compare", files["ref"], "-i", files["a"], files["b"], "-m", "gemba-mqm", "-f", "text"
    )
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    assert "GEMBA-MQM" in out and "signature" in out


@pytest.mark.parametrize(
    ("drop", "message"),
    [
        ("--judge-url", "-m gemba-mqm needs --judge-url URL (up to /v1) and --judge-model NAME"),
        ("-l", "-m gemba-mqm needs the language pair: -l SRC-TRG"),
    ],
)
def test_a_missing_setting_is_one_line(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], drop: str, message: str
) -> None:
    argv = _judged(files, "score", files["ref"], "-i", files["a"], "-m", "gemba-mqm")
    k = argv.index(drop)
    status, out, err = run_cli(capsys, *argv[:k], *argv[k + 2 :])
    assert status == 1 and out == "" and err.count("\n") == 1 and message in err
