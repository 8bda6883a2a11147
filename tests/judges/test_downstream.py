"""Judge scores downstream, as any segment scores: the ledger keeps them with the model and the
template, the gate fails a worse system on them and refuses two judges, the report marks their
spans by severity, and correlate reads them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy import stats
from understudy.judges.mock import ChatServer, Reply
from understudy.ledger import Ledger

from tests.judges.test_metric import hypothesis_of
from tests.support.cli import run_cli

N = 40
SOURCES = [f"Sentence {k} is short." for k in range(N)]
GOOD = [f"Satz {k} ist kurz." for k in range(N)]
BAD = [f"Satz {k} ist schlecht." if k % 2 else f"Satz {k} sind kurz." for k in range(N)]
WORST = [f"Satz {k} Sentence short." for k in range(N)]


def answer(hypothesis: str) -> str:
    """GOOD: no error (0); BAD: a major error (-5) or two minor ones (-2); WORST: critical (-25)."""
    if "schlecht" in hypothesis:
        return 'Critical:\nno-error\nMajor:\naccuracy/mistranslation - "schlecht"\nMinor:\nno-error'
    if "sind" in hypothesis:
        return (
            'Critical:\nno-error\nMajor:\nno-error\nMinor:\nfluency/grammar - "sind"\nstyle/awkward - "kurz."'
        )
    if "Sentence" in hypothesis:
        return 'Critical:\nnon-translation - "Sentence short."\nMajor:\nno-error\nMinor:\nno-error'
    return "Critical:\nno-error\nMajor:\nno-error\nMinor:\nno-error"


def expected(hyps: list[str]) -> float:
    """The system score of canned answers, by hand: the mean of -5/-2/-25/0."""
    values = [-5 if "schlecht" in h else -2 if "sind" in h else -25 if "Sentence" in h else 0 for h in hyps]
    return float(np.mean(values))


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    made = {}
    for name, lines in [("src", SOURCES), ("ref", GOOD), ("good", GOOD), ("bad", BAD), ("worst", WORST)]:
        (tmp_path / f"{name}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        made[name] = str(tmp_path / f"{name}.txt")
    chat = ChatServer()
    chat.respond = lambda body: Reply(text=answer(hypothesis_of(body)))
    made["url"] = chat.url
    made["ledger"] = str(tmp_path / "ledger.sqlite")
    yield made
    chat.close()


def _judge(files: dict[str, str], model: str = "judge-7b") -> list[str]:
    return ["--source", files["src"], "-l", "en-de", "--judge-url", files["url"], "--judge-model", model]


def _keep(files: dict[str, str], capsys: Any, system: str, tag: str, model: str = "judge-7b") -> None:
    argv = ["score", files["ref"], "-i", files[system], "-m", "gemba-mqm", "chrf", *_judge(files, model)]
    status, _, err = run_cli(capsys, *argv, "--log", "--ledger", files["ledger"], "--tag", tag)
    assert status == 0, err


def test_the_gate_fails_a_system_worse_on_the_judge(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    _keep(files, capsys, "good", "A")
    _keep(files, capsys, "bad", "B")
    argv = ["gate", "--baseline", "tag:A", "--candidate", "tag:B", "-f", "json", "--ledger", files["ledger"]]
    status, out, err = run_cli(capsys, *argv)
    assert status == 1, err
    results = {r["metric"]: r for r in json.loads(out)["results"]}
    assert not results["GEMBA-MQM"]["passed"]
    assert results["GEMBA-MQM"]["change"] == pytest.approx(expected(BAD) - expected(GOOD), abs=1e-9)
    with Ledger(files["ledger"]) as kept:
        records = kept.records(metric="GEMBA-MQM")
        assert [r.score for r in records] == pytest.approx([expected(GOOD), expected(BAD)])
        assert all("|model:judge-7b|rev:gemba-mqm-v1-" in str(r.signature) for r in records)


def test_the_gate_refuses_two_judge_models(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    _keep(files, capsys, "good", "A", model="judge-7b")
    _keep(files, capsys, "good", "B", model="judge-70b")
    argv = ["gate", "--baseline", "tag:A", "--candidate", "tag:B", "--ledger", files["ledger"]]
    status, _, err = run_cli(capsys, *argv)
    assert status == 2 and "differ in the signature's model: judge-7b" in err, err


def test_the_report_marks_the_judges_spans_by_severity(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    page = tmp_path / "report.html"
    argv = [
        "report",
        files["ref"],
        "-i",
        files["good"],
        files["worst"],
        files["bad"],
        "-m",
        "bleu",
        "gemba-mqm",
    ]
    status, _, err = run_cli(
        capsys, *argv, *_judge(files), "--pair", files["good"], files["bad"], "-o", str(page)
    )
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    major = '<mark class="sev-major" title="GEMBA-MQM: major error">schlecht</mark>'
    minor = '<mark class="sev-minor" title="GEMBA-MQM: minor error">sind</mark>'
    assert major in html and minor in html and "GEMBA-MQM's error spans by severity" in html


def test_correlate_reads_the_judges_scores(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    human = Path(files["ref"]).parent / "human.tsv"
    human.write_text("good\t0.9\nbad\t0.2\nworst\t0.1\n", encoding="utf-8")
    argv = ["correlate", files["ref"], "-i", files["good"], files["bad"], files["worst"]]
    status, out, err = run_cli(
        capsys, *argv, "--human", str(human), "-m", "gemba-mqm", *_judge(files), "-f", "json"
    )
    assert status == 0, err
    pearson = next(c for c in json.loads(out)["correlations"] if c["statistic"] == "pearson")
    scores = [expected(GOOD), expected(BAD), expected(WORST)]
    assert pearson["metric"] == "GEMBA-MQM"
    assert pearson["value"] == pytest.approx(stats.pearsonr(scores, [0.9, 0.2, 0.1]).statistic, abs=1e-9)


def test_the_meta_evaluation_takes_the_judge_as_a_metric(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    from understudy.correlation.spa import soft_pairwise_accuracy

    systems = {"good": GOOD, "bad": BAD, "worst": WORST}
    rng = np.random.default_rng(3)
    human = {name: -rng.random(N) * (1, 3, 2)[k] for k, name in enumerate(systems)}  # bad below worst
    table = Path(files["ref"]).parent / "human.seg.tsv"
    rows = [
        f"{name}\t{k + 1}\t{float(value)!r}"
        for name, values in human.items()
        for k, value in enumerate(values)
    ]
    table.write_text("system\tsegment\tscore\n" + "\n".join(rows) + "\n", encoding="utf-8")
    argv = ["correlate", files["ref"], "-i", *(files[name] for name in systems), "--human", str(table)]
    argv += ["-m", "gemba-mqm", *_judge(files), "--statistics", "spa", "--permutations", "50", "-f", "json"]
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    spa = next(c for c in json.loads(out)["correlations"] if c["statistic"] == "spa")
    by_hand = [
        [-5 if "schlecht" in h else -2 if "sind" in h else -25 if "Sentence" in h else 0 for h in hyps]
        for hyps in systems.values()
    ]
    want = soft_pairwise_accuracy(
        np.array(by_hand, dtype=float), np.array(list(human.values())), permutations=50
    )
    assert spa["metric"] == "GEMBA-MQM" and spa["value"] == want.value
