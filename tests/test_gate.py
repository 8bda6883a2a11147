"""The quality gate: its verdicts, its exit codes, JSON and JUnit XML, as a CI system runs it."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from understudy import BLEU, TER
from understudy.errors import IncomparableError
from understudy.gate import gate
from understudy.significance import paired_test

from tests.support.paths import SAMPLE

REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
ONLINE = SAMPLE / "newstest2017.online-A.0.en-de.de"


def _lines(path: Path) -> list[str]:
    from understudy.io import read_lines

    return read_lines(str(path))


def test_verdicts_follow_the_paired_test_and_the_bounds() -> None:
    refs, good, bad = [_lines(REF)], _lines(UEDIN), _lines(ONLINE)
    bleu = BLEU(references=refs)
    base, worse = bleu.segment_stats(good), bleu.segment_stats(bad)
    nearly = bleu.segment_stats(bad[:3] + good[3:])  # three segments of 3004 from the worse system
    same = gate(base, bleu.segment_stats(good))
    assert same.passed and same.p_value == 1.0 and same.change == 0
    failed = gate(base, worse)
    expected = paired_test([base, worse], ["baseline", "candidate"]).systems[0].p_value
    assert not failed.passed and failed.p_value == expected and failed.change < -7
    assert failed.reasons == (f"significantly worse than the baseline (p = {expected:.4f} <= 0.05)",)
    small = gate(base, nearly)
    # Worse, but not significantly: it passes, unless the drop allowed is smaller than its drop.
    assert small.change < 0 and small.p_value > 0.05 and small.passed
    assert not gate(base, nearly, max_drop=-small.change / 2).passed
    assert gate(base, nearly, max_drop=-small.change * 2).passed
    assert not gate(base, bleu.segment_stats(good), min_score=30).passed  # 28.3 is below 30
    # TER: lower is better, so a candidate with more edits is the worse one and the bound is a maximum.
    ter = TER(references=refs)
    assert not gate(ter.segment_stats(good), ter.segment_stats(bad)).passed
    assert gate(ter.segment_stats(bad), ter.segment_stats(good)).passed
    assert not gate(ter.segment_stats(good), ter.segment_stats(good), min_score=60).passed  # 61.2 > 60


def test_incomparable_statistics_are_refused() -> None:
    refs, good = [_lines(REF)], _lines(UEDIN)
    with pytest.raises(IncomparableError, match="signature's tok: 13a against intl"):
        gate(BLEU().segment_stats(good, refs), BLEU(tokenize="intl").segment_stats(good, refs))
    with pytest.raises(IncomparableError, match="3004 segments and the candidate 10"):
        gate(BLEU().segment_stats(good, refs), BLEU().segment_stats(good[:10], [refs[0][:10]]))


def _gate(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "understudy", "gate", *argv], capture_output=True, text=True)


def test_a_ci_job_gets_exit_codes_json_and_junit(tmp_path: Path) -> None:
    junit = tmp_path / "gate.xml"
    passing = _gate(
        str(REF),
        "--baseline",
        str(ONLINE),
        "--candidate",
        str(UEDIN),
        "-m",
        "bleu",
        "chrf",
        "--junit",
        str(junit),
    )
    assert passing.returncode == 0, passing.stderr
    assert passing.stdout.startswith("PASS: ")
    suite = ET.parse(junit).getroot()
    assert (suite.get("tests"), suite.get("failures")) == ("2", "0")
    failing = _gate(
        str(REF),
        "--baseline",
        str(UEDIN),
        "--candidate",
        str(ONLINE),
        "-m",
        "bleu",
        "ter",
        "-f",
        "json",
        "--junit",
        str(junit),
    )
    assert failing.returncode == 1
    verdict = json.loads(failing.stdout)
    assert verdict["passed"] is False and [r["metric"] for r in verdict["results"]] == ["BLEU", "TER"]
    assert all(r["reasons"] and r["p_value"] <= 0.05 for r in verdict["results"])
    cases = ET.parse(junit).getroot().iter("testcase")
    assert [(c.get("name"), c.find("failure") is not None) for c in cases] == [("BLEU", True), ("TER", True)]
    wrong = _gate("--baseline", str(UEDIN), "--candidate", "ledger:1")
    assert wrong.returncode == 2 and "give the reference file(s) first" in wrong.stderr


def test_ledger_records_and_tags_gate_without_the_text(new_ledger: Callable[[], str]) -> None:
    ledger = ["--ledger", new_ledger()]  # a SQLite file, then a PostgreSQL database
    for system, tag in ((UEDIN, "release"), (ONLINE, "nightly")):
        scored = subprocess.run(
            [
                sys.executable,
                "-m",
                "understudy",
                "score",
                str(REF),
                "-i",
                str(system),
                "-m",
                "bleu",
                "chrf",
                "-b",
                "--log",
                "--tag",
                tag,
                *ledger,
            ],
            capture_output=True,
            text=True,
        )
        assert scored.returncode == 0, scored.stderr
    failing = _gate("--baseline", "tag:release", "--candidate", "tag:nightly", *ledger)
    assert failing.returncode == 1 and [line.split()[0] for line in failing.stdout.splitlines()[4:6]] == [
        "BLEU",
        "chrF2",
    ]
    only_bleu = _gate(
        "--baseline", "tag:nightly", "--candidate", "tag:release", "-m", "bleu", "-f", "json", *ledger
    )
    assert only_bleu.returncode == 0 and [r["metric"] for r in json.loads(only_bleu.stdout)["results"]] == [
        "BLEU"
    ]
    across = _gate("--baseline", "ledger:1", "--candidate", "ledger:4", *ledger)  # BLEU against chrF
    assert across.returncode == 2 and "no metric in common" in across.stderr
