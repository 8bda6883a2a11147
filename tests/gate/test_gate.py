"""The quality gate: its verdicts, its exit codes, JSON and JUnit XML, as a CI system runs it."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from understudy import BLEU, TER
from understudy.errors import IncomparableError
from understudy.gate import gate
from understudy.ledger import Ledger
from understudy.significance import paired_test

from tests.support.cli import keep_given, run_process
from tests.support.paths import ONLINE_A, PROMT, REF, UEDIN


def _lines(path: Path) -> list[str]:
    from understudy.inputs.files import read_lines

    return read_lines(str(path))


def test_verdicts_follow_the_paired_test_and_the_bounds() -> None:
    refs, good, bad = [_lines(REF)], _lines(UEDIN), _lines(ONLINE_A)
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
        str(ONLINE_A),
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
        str(ONLINE_A),
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
    for system, tag in ((UEDIN, "release"), (ONLINE_A, "nightly")):
        scored = run_process(
            "score", str(REF), "-i", str(system), "-m", "bleu", "chrf", "-b", "--log", "--tag", tag, *ledger
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


def test_the_gate_tests_every_given_metric_kept_under_a_tag(
    tmp_path: Path, new_ledger: Callable[[], str]
) -> None:
    ledger = new_ledger()
    rng = np.random.default_rng(4)
    comet = (0.5 + 0.3 * rng.random(50)).tolist()
    metricx = (5 + 3 * rng.random(50)).tolist()
    keep_given(tmp_path, ledger, "A", comet, metricx)
    # The candidate is 0.2 worse on COMET-22 and as good on MetricX-24 (logged last).
    keep_given(tmp_path, ledger, "B", [c - 0.2 for c in comet], metricx)
    done = run_process(
        "gate", "--baseline", "tag:A", "--candidate", "tag:B", "-f", "json", "--ledger", ledger
    )
    assert done.returncode == 1, done.stderr
    results = {r["metric"]: r for r in json.loads(done.stdout)["results"]}
    assert set(results) == {"COMET-22", "MetricX-24"}
    assert not results["COMET-22"]["passed"] and results["MetricX-24"]["passed"]
    with Ledger(ledger) as kept:
        assert [r.metric for r in kept.records(metric="comet-22")] == ["COMET-22", "COMET-22"]
        assert len(kept.records(metric="MetricX-24")) == 2
        # Two runs of one metric compare: the signature holds no file name and no hash of scores.
        first, second = (r.id for r in kept.records(metric="COMET-22"))
        kept.check_comparable(first, second)
        assert kept.compare(first, second, n=100).systems[0].p_value is not None


def test_the_gate_refuses_settings_under_which_it_cannot_fail(tmp_path: Path) -> None:
    base = ["--baseline", str(UEDIN), "--candidate", str(PROMT)]
    few = run_process("gate", str(REF), *base, "-n", "10")
    assert few.returncode == 2 and "-n 10 cannot reach alpha 0.05" in few.stderr and "-n 19" in few.stderr
    assert run_process("gate", str(REF), *base, "-n", "19").returncode == 1  # 1/20 reaches 0.05
    nan = run_process("gate", str(REF), *base, "--min-score", "nan")
    assert nan.returncode == 2 and "min_score must be a finite number" in nan.stderr
    one = tmp_path / "one"
    one.write_text("a b c\n")
    single = run_process("gate", str(one), "--baseline", str(one), "--candidate", str(one))
    assert single.returncode == 2 and "at least 10 segments" in single.stderr and "has 1" in single.stderr


def test_max_drop_is_in_the_metrics_own_units(tmp_path: Path) -> None:
    wer = ["gate", str(REF), "--baseline", str(UEDIN), "--candidate", str(ONLINE_A), "-m", "wer"]
    refused = run_process(*wer)
    assert refused.returncode == 1  # significantly worse, without --max-drop
    whole = run_process(*wer, "--max-drop", "1.0")
    assert whole.returncode == 2 and "max_drop 1 is in WER's own units" in whole.stderr


def test_a_kept_release_gates_a_fresh_output_and_keeps_it(tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    kept = run_process(
        "score",
        str(REF),
        "-i",
        str(UEDIN),
        "-m",
        "bleu",
        "chrf",
        "--log",
        "--tag",
        "release",
        "--ledger",
        ledger,
    )
    assert kept.returncode == 0, kept.stderr
    same = run_process(
        "gate", str(REF), "--baseline", "tag:release", "--candidate", str(UEDIN), "--ledger", ledger
    )
    assert same.returncode == 0, same.stderr
    pair = ["--baseline", "tag:release", "--candidate", str(PROMT)]
    worse = run_process(
        "gate", str(REF), *pair, "-f", "json", "--ledger", ledger, "--log", "--tag", "nightly"
    )
    assert worse.returncode == 1, worse.stderr
    verdict = json.loads(worse.stdout)
    assert [r["metric"] for r in verdict["results"]] == ["BLEU", "chrF2"]
    direct = run_process(
        "gate",
        str(REF),
        "--baseline",
        str(UEDIN),
        "--candidate",
        str(PROMT),
        "-m",
        "bleu",
        "chrf",
        "-f",
        "json",
    )
    assert [r["candidate"] for r in json.loads(direct.stdout)["results"]] == [
        r["candidate"] for r in verdict["results"]
    ]
    with Ledger(ledger) as records:
        nightly = records.records(tag="nightly")
    # Kept under the file's name (the path typed is not the system's name).
    assert [(r.system, r.metric) for r in nightly] == [(PROMT.name, "bleu"), (PROMT.name, "chrf")]
    assert {r.tags for r in nightly} == {("gate:fail", "nightly")}  # the verdict kept, for the site
    other = run_process(
        "gate", str(ONLINE_A), "--baseline", "tag:release", "--candidate", str(PROMT), "--ledger", ledger
    )
    assert (
        other.returncode == 2
        and "was scored on sha256:" in other.stderr
        and "the references given are" in other.stderr
    )


def test_gate_errors_exit_2_and_junit_is_checked_first(tmp_path: Path) -> None:
    pair = ["--baseline", str(UEDIN), "--candidate", str(ONLINE_A)]
    assert run_process("gate", str(tmp_path / "missing"), *pair).returncode == 2
    assert run_process("gate", str(REF), *pair, "--alpha", "2").returncode == 2
    assert (
        run_process(
            "gate", "--baseline", "ledger:1", "--candidate", "ledger:2", "--ledger", str(tmp_path / "l")
        ).returncode
        == 2
    )
    unwritable = run_process("gate", str(REF), *pair, "--junit", str(tmp_path / "no" / "gate.xml"))
    assert unwritable.returncode == 2 and "no such folder" in unwritable.stderr and unwritable.stdout == ""
    odd = tmp_path / "sys\x01\x1b.de"
    odd.write_bytes(ONLINE_A.read_bytes())
    junit = tmp_path / "gate.xml"
    done = run_process(
        "gate", str(REF), "--baseline", str(UEDIN), "--candidate", str(odd), "--junit", str(junit)
    )
    assert done.returncode == 1
    failure = ET.parse(junit).getroot().find("testsuite/testcase/failure")
    assert failure is not None and "sys\\x01\\x1b.de" in str(failure.text)


def test_a_tag_of_several_systems_and_a_metric_not_kept_are_refused(tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    done = run_process(
        "score", str(REF), "-i", str(UEDIN), str(ONLINE_A), "--log", "--tag", "both", "--ledger", ledger
    )
    assert done.returncode == 0, done.stderr
    several = run_process("gate", "--baseline", "tag:both", "--candidate", "ledger:1", "--ledger", ledger)
    assert (
        several.returncode == 2
        and "holds records of 2 systems" in several.stderr
        and ONLINE_A.name in several.stderr
    )
    absent = run_process(
        "gate", "--baseline", "ledger:1", "--candidate", "ledger:2", "-m", "chrf", "--ledger", ledger
    )
    assert absent.returncode == 2 and "ledger:1 has no record of chrf (it has bleu)" in absent.stderr


def test_an_option_the_kept_record_contradicts_is_refused_by_name(tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    kept = run_process("score", str(REF), "-i", str(UEDIN), "-m", "bleu", "--log", "--ledger", ledger)
    assert kept.returncode == 0, kept.stderr
    pair = ["--baseline", "ledger:1", "--candidate", str(PROMT), "--ledger", ledger, "-m", "bleu"]
    # Before: scored under the record's tok:13a and passed, with no word about -tok intl.
    other = run_process("gate", str(REF), *pair, "-tok", "intl")
    assert other.returncode == 2
    assert (
        "understudy: error: -tok intl: ledger:1 (bleu, record 1) was scored with tokenize='13a'"
        in other.stderr
    )
    lowercased = run_process("gate", str(REF), *pair, "-lc")
    assert (
        lowercased.returncode == 2
        and "-lc: ledger:1 (bleu, record 1) was scored with lowercase=False" in (lowercased.stderr)
    )
    agreeing = run_process("gate", str(REF), *pair, "-tok", "13a")
    assert agreeing.returncode == 1, agreeing.stderr  # scored, and worse: the verdict, not a refusal
    two_records = run_process(
        "gate", "--baseline", "ledger:1", "--candidate", "ledger:1", "--ledger", ledger, "-tok", "intl"
    )
    assert two_records.returncode == 2 and "-tok intl: ledger:1" in two_records.stderr


def _brute_force_drop_p(base: object, cand: object, margin: float, n: int, seed: int) -> float:
    """The one-sided p-value of a drop beyond ``margin``, written out: each bootstrap resample
    (sacrebleu's draw, rng.choice(N, size=(n, N))) scored by sacrebleu's BLEU from its rows,
    the resampled drops centred on the margin, counted against the observed drop."""
    from sacrebleu.metrics import BLEU as SacreBLEU

    sacre = SacreBLEU()
    rows = [np.asarray(s.rows) for s in (base, cand)]  # type: ignore[attr-defined]
    picks = np.random.default_rng(seed).choice(len(rows[0]), size=(n, len(rows[0])), replace=True)
    drops = []
    for pick in picks:
        scores = [sacre._compute_score_from_stats(r[pick].sum(axis=0).tolist()).score for r in rows]
        drops.append(scores[0] - scores[1])
    observed = base.score().score - cand.score().score  # type: ignore[attr-defined]
    mean = sum(drops) / n
    return (1 + sum(1 for d in drops if d - mean + margin >= observed)) / (n + 1)


def test_a_margin_lets_a_small_significant_drop_pass(
    wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    # The case: on 3,004 segments a drop of 1.19 BLEU is significant, so --max-drop 1.5
    # alone still fails it; a non-inferiority margin of 1.5 asks whether the drop is
    # significantly more than 1.5, and it is not.
    bleu = BLEU(references=[wmt17_ref])
    base, cand = (
        bleu.segment_stats(wmt17_systems["uedin-nmt"]),
        bleu.segment_stats(wmt17_systems["LMU-nmt-reranked"]),
    )
    assert 1.15 < base.score().score - cand.score().score < 1.25
    assert not gate(base, cand, max_drop=1.5).passed
    wide = gate(base, cand, margin=1.5, max_drop=1.5, n=400)
    narrow = gate(base, cand, margin=0.5, n=400)
    assert wide.passed and wide.margin == 1.5
    assert not narrow.passed and narrow.reasons == (
        f"significantly worse than the baseline by more than the margin of 0.5"
        f" (one-sided p = {narrow.margin_p_value:.4f} <= 0.05)",
    )
    for result in (wide, narrow):
        assert result.margin is not None
        assert result.margin_p_value == _brute_force_drop_p(base, cand, result.margin, 400, 12345)
    # TER, lower is better: the drop is the rise, and the margin reads the same way.
    ter = TER(references=[wmt17_ref[:400]])
    t_base, t_cand = (ter.segment_stats(wmt17_systems[s][:400]) for s in ("uedin-nmt", "online-A"))
    rise = t_cand.score().score - t_base.score().score
    assert rise > 0 and gate(t_base, t_cand, margin=rise + 30, n=200).passed
    assert not gate(t_base, t_cand, margin=0.0, n=200).passed


def test_a_margin_on_the_command_line_and_what_is_refused() -> None:
    argv = [str(REF), "--baseline", str(UEDIN), "--candidate", str(ONLINE_A), "-m", "bleu", "-n", "200"]
    wide = _gate(*argv, "--margin", "9", "-f", "json")
    record = json.loads(wide.stdout)["results"][0]
    assert wide.returncode == 0 and record["passed"] and record["margin"] == 9.0
    assert 0.05 < record["margin_p_value"] <= 1 and record["p_value"] <= 0.05  # significant, within 9
    refused = _gate(*argv, "--margin", "2", "--paired-ar")
    assert (
        refused.returncode == 2 and "--margin goes without --paired-ar" in refused.stderr
    )  # an error, not a fail
    negative = _gate(*argv, "--margin", "nan")
    assert negative.returncode == 2 and negative.stderr.count("\n") == 1
