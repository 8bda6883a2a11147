"""`-f csv`: RFC 4180 tables (CRLF, quoting), a row per system, a column per number, signatures in theirs."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE

REF = SAMPLE / "newstest2017.ref.en-de.de"
SYSTEMS = sorted(p for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)


def _table(text: str) -> list[list[str]]:
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    return list(csv.reader(io.StringIO(text, newline="")))


def test_score_csv_holds_the_json_numbers(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    # A system whose file name holds a comma and a quote is quoted as RFC 4180 says.
    odd = tmp_path / 'sys, "odd".de'
    shutil.copy(SYSTEMS[0], odd)
    argv = ["score", str(REF), "-i", str(odd), str(SYSTEMS[1]), "-m", "bleu", "chrf", "ter"]
    status, out, err = run(capfd, *argv, "-f", "csv")
    assert status == 0, err
    rows = _table(out)
    assert rows[0] == ["system", "BLEU", "BLEU_signature", "chrF2", "chrF2_signature", "TER", "TER_signature"]
    records = json.loads(run(capfd, *argv, "-w", "20")[1])
    assert [r[0] for r in rows[1:]] == [str(odd), str(SYSTEMS[1])] and f'"{odd}"'.replace(
        '"odd"', '""odd""'
    ) in out
    for row, record in zip(rows[1:], records, strict=True):
        assert float(row[1]) == record["BLEU"]["score"] and row[2] == record["BLEU"]["signature"]
        assert float(row[5]) == record["TER"]["score"]


def test_paired_confidence_and_compare_csv(capfd: pytest.CaptureFixture[str]) -> None:
    argv = ["score", str(REF), "-i", *map(str, SYSTEMS), "--paired-bs", "-pbsn", "100"]
    rows = _table(run(capfd, *argv, "-f", "csv")[1])
    record = json.loads(run(capfd, *argv, "-f", "json")[1])
    assert rows[0] == ["system", "BLEU", "BLEU_mean", "BLEU_ci", "BLEU_p_value", "BLEU_signature"]
    assert rows[1][0] == f"Baseline: {SYSTEMS[0]}" and rows[1][4] == ""
    assert [float(r[4]) for r in rows[2:]] == [s["p_value"] for s in record["systems"]]
    rows = _table(run(capfd, "score", str(REF), "-i", str(SYSTEMS[0]), "-ci", "-cin", "100", "-f", "csv")[1])
    assert rows[0] == ["system", "BLEU", "BLEU_mean", "BLEU_ci", "BLEU_signature"] and rows[1][0] == str(
        SYSTEMS[0]
    )
    status, out, _ = run(
        capfd, "compare", str(REF), "-i", *map(str, SYSTEMS), "-n", "50", "-m", "bleu", "ter", "-f", "csv"
    )
    rows = _table(out)
    assert status == 0 and rows[0] == ["metric", "cluster", "system", "score", "mean", "ci", "signature"]
    assert [r[0] for r in rows[1:]] == ["BLEU"] * len(SYSTEMS) + ["TER"] * len(SYSTEMS)
    ter = [float(r[3]) for r in rows[1:] if r[0] == "TER"]
    assert ter == sorted(ter)  # TER ranks lowest first
