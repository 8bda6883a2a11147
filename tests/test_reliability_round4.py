"""The fourth reliability round (issue 41): each test is a reproducer of a break the probe found.

Given metrics keyed and compared by name, the ledger's order, reading what was read once, the
gate's settings, its exit codes and its ledger-against-file form, passwords, transactions and
read-only opening.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from understudy import BLEU
from understudy.errors import ConfigError, LedgerError
from understudy.ledger import Ledger
from understudy.ledger.database import redacted
from understudy.ledger.schema import statements
from understudy.metrics.scores import GivenScores
from understudy.significance import paired_test

from tests.support.cli import run_cli
from tests.support.paths import SAMPLE

REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
ONLINE = SAMPLE / "newstest2017.online-A.0.en-de.de"
PROMT = SAMPLE / "newstest2017.PROMT-Rule-based.4735.en-de.de"


def _cli(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "understudy", *argv],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
    )


def _scores(path: Path, values: list[float]) -> str:
    path.write_text("".join(f"{v!r}\n" for v in values), encoding="utf-8")
    return str(path)


def _keep_given(tmp_path: Path, ledger: str, tag: str, comet: list[float], metricx: list[float]) -> None:
    """Keep COMET-22 and MetricX-24 scores of one system under ``tag`` (no text: the files' own)."""
    argv = ["score", "--scores", f"COMET-22={_scores(tmp_path / f'{tag}.comet', comet)}"]
    argv += [f"MetricX-24={_scores(tmp_path / f'{tag}.metricx', metricx)}", "--log", "--tag", tag]
    done = _cli(*argv, "--ledger", ledger)
    assert done.returncode == 0, done.stderr


# -- 1, 2: given metrics keyed by their names; signatures without data ---------------------


def test_the_gate_tests_every_given_metric_kept_under_a_tag(
    tmp_path: Path, new_ledger: Callable[[], str]
) -> None:
    ledger = new_ledger()
    rng = np.random.default_rng(4)
    comet = (0.5 + 0.3 * rng.random(50)).tolist()
    metricx = (5 + 3 * rng.random(50)).tolist()
    _keep_given(tmp_path, ledger, "A", comet, metricx)
    # The candidate is 0.2 worse on COMET-22 and as good on MetricX-24 (logged last).
    _keep_given(tmp_path, ledger, "B", [c - 0.2 for c in comet], metricx)
    done = _cli("gate", "--baseline", "tag:A", "--candidate", "tag:B", "-f", "json", "--ledger", ledger)
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


def test_the_kept_records_report_has_a_column_per_given_metric(
    tmp_path: Path, new_ledger: Callable[[], str]
) -> None:
    pytest.importorskip("jinja2")
    ledger = new_ledger()
    _keep_given(tmp_path, ledger, "A", [0.5] * 20, [3.0] * 20)
    out = tmp_path / "report.html"
    done = _cli("report", "--records", "tag:A", "-o", str(out), "-n", "50", "--ledger", ledger)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert 'data-metric="COMET-22"' in page and 'data-metric="MetricX-24"' in page


def test_a_ledger_of_schema_2_keys_its_given_metrics_by_name_when_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    stats = GivenScores({"A": [0.5, 0.25]}, "COMET-22").segment_stats("A")
    old_signature = str(stats.signature).replace("|prec:", "|file:a.tsv|sha256:ab12|prec:")
    _old_ledger(path, [("scores", old_signature, stats.to_bytes())])
    with Ledger(path) as ledger:
        (record,) = ledger.records(metric="COMET-22")
        assert record.signature == str(stats.signature)
        assert ledger.stats(record.id).score() == stats.score()


def _old_ledger(path: Path, rows: list[tuple[str, str, bytes]]) -> None:
    """A ledger as understudy of schema version 2 wrote it."""
    from understudy.ledger.database import SQLITE

    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        for step in (0, 1):
            for statement in statements(step, SQLITE):
                raw.execute(statement)
        raw.execute("INSERT INTO meta VALUES ('schema_version', '2')")
        for k, (metric, signature, blob) in enumerate(rows):
            raw.execute(
                "INSERT INTO records (created, system, metric, signature, testset, hypotheses, score,"
                " segments, stats, command, note, revision, uid) VALUES (?, 'A', ?, ?, 'toy', '', 0.375,"
                " 2, ?, '', '', '', ?)",
                (f"2026-01-0{k + 1}T00:00:00.000000+00:00", metric, signature, blob, f"uid{k}"),
            )


# -- 3: the order of records is the time they were kept ------------------------------------


def test_latest_follows_the_time_kept_not_the_import_order(tmp_path: Path) -> None:
    refs = [["the cat sat on the mat", "a dog barked loudly", "it rains today"] * 10]
    good = ["the cat sat on the mat", "a dog barked loudly", "it rains today"] * 10
    bad = ["a cat", "dog", "rain"] * 10
    old, main = str(tmp_path / "old.sqlite"), str(tmp_path / "main.sqlite")
    with Ledger(old) as ledger:
        ledger.append(BLEU().segment_stats(good, refs), "sys", "toy", tags=["nightly"])
    with Ledger(main) as ledger:
        ledger.append(BLEU().segment_stats(good, refs), "sys", "toy", tags=["release"])
        newest = ledger.append(BLEU().segment_stats(bad, refs), "sys", "toy", tags=["nightly"])
        ledger.import_records(Ledger(old, read_only=True))
        nightly = ledger.records(tag="nightly")
        assert nightly[-1].id == newest and nightly[0].created < nightly[-1].created
        assert [p.record.id for p in ledger.history(tag="nightly", n=10)][-1] == newest
    done = _cli("gate", "--baseline", "tag:release", "--candidate", "tag:nightly", "--ledger", main)
    assert done.returncode == 1, done.stdout + done.stderr  # the far-worse nightly, not the older import


# -- 5, 16: what was read is hashed, once -------------------------------------------------


def test_references_from_a_pipe_are_hashed_as_read(tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    for ref in (REF, UEDIN):  # two different "references", each through a pipe
        shell = f'"{sys.executable}" -m understudy score <(cat "{ref}") -i "{ONLINE}" -b --log'
        shell += f' --ledger "{ledger}"'
        done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    with Ledger(ledger) as kept:
        first, second = kept.records()
    digest = hashlib.sha256(hashlib.sha256(REF.read_bytes()).digest()).hexdigest()
    assert first.testset == f"sha256:{digest}" and second.testset != first.testset
    assert (
        first.hypotheses
        == "sha256:" + hashlib.sha256(hashlib.sha256(ONLINE.read_bytes()).digest()).hexdigest()
    )


def test_a_fifo_system_is_scored_and_logged_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "hyp.fifo"
    os.mkfifo(fifo)
    data = ONLINE.read_bytes()

    def feed() -> None:
        with open(fifo, "wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done = _cli("score", str(REF), "-i", str(fifo), "-b", "--log", "--ledger", str(tmp_path / "l.sqlite"))
    writer.join(timeout=10)
    assert done.returncode == 0, done.stderr
    with Ledger(str(tmp_path / "l.sqlite")) as kept:
        (record,) = kept.records()
    assert record.hypotheses == "sha256:" + hashlib.sha256(hashlib.sha256(data).digest()).hexdigest()


# -- 6: a gate that can fail ---------------------------------------------------------------


def test_the_gate_refuses_settings_under_which_it_cannot_fail(tmp_path: Path) -> None:
    base = ["--baseline", str(UEDIN), "--candidate", str(PROMT)]
    few = _cli("gate", str(REF), *base, "-n", "10")
    assert few.returncode == 2 and "-n 10 cannot reach alpha 0.05" in few.stderr and "-n 19" in few.stderr
    assert _cli("gate", str(REF), *base, "-n", "19").returncode == 1  # 1/20 reaches 0.05
    nan = _cli("gate", str(REF), *base, "--min-score", "nan")
    assert nan.returncode == 2 and "min_score must be a finite number" in nan.stderr
    one = tmp_path / "one"
    one.write_text("a b c\n")
    single = _cli("gate", str(one), "--baseline", str(one), "--candidate", str(one))
    assert single.returncode == 2 and "at least 10 segments" in single.stderr and "has 1" in single.stderr


def test_max_drop_is_in_the_metrics_own_units(tmp_path: Path) -> None:
    wer = ["gate", str(REF), "--baseline", str(UEDIN), "--candidate", str(ONLINE), "-m", "wer"]
    refused = _cli(*wer)
    assert refused.returncode == 1  # significantly worse, without --max-drop
    whole = _cli(*wer, "--max-drop", "1.0")
    assert whole.returncode == 2 and "max_drop 1 is in WER's own units" in whole.stderr


# -- 7: randomization on decimal scores counts exactly ---------------------------------------


@pytest.mark.parametrize("case", range(30))
def test_randomization_on_decimal_scores_equals_the_exact_count(case: int) -> None:
    """Decimal scores (1 to 3 places, as judges and MQM give them) make trials that tie the
    observed difference exactly; float means counted about a third of these cases wrong."""
    from understudy.significance import _mask_sums

    rng = np.random.default_rng(case)
    size, places = int(rng.integers(5, 40)), int(rng.integers(1, 4))
    a = np.round(rng.random(size) * 2 - 0.5, places)
    b = a.copy()
    b[: size // 2] = np.round(rng.random(size // 2) * 2 - 0.5, places)
    given = GivenScores({"A": a, "B": b}, "COMET")
    result = paired_test(given.segment_stats_many(), ["A", "B"], test="ar", n=300, seed=case)
    # The definition, in exact rationals: a trial swaps the segments its mask sets, which turns
    # the sign of their differences.
    masks = _mask_sums(np.random.default_rng(case), 300, np.eye(size, dtype=np.int64)).astype(bool)
    diffs = [Fraction(float(x)) - Fraction(float(y)) for x, y in zip(a, b, strict=True)]
    observed = abs(sum(diffs))
    count = sum(
        abs(sum(-d if swap else d for d, swap in zip(diffs, mask, strict=True))) >= observed for mask in masks
    )
    assert result.systems[0].p_value == (count + 1) / 301


# -- 9: dates ----------------------------------------------------------------------------------


def test_until_takes_in_its_day_in_either_iso_form_and_the_last_day_of_the_calendar() -> None:
    ledger = Ledger(":memory:")
    ledger.append(BLEU().segment_stats(["a b c"], [["a b c"]]), "s", "toy")
    today = ledger.records()[0].created[:10]
    assert len(ledger.records(until=today)) == 1
    assert len(ledger.records(until=today.replace("-", ""))) == 1
    assert len(ledger.records(until="9999-12-31")) == 1


# -- 10: passwords -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "secrets"),
    [
        ("postgresql://u@h/db?password=SECRETPW", ["SECRETPW"]),
        ("postgresql://u@h/db?sslmode=disable&password=SECRETPW&x=1", ["SECRETPW"]),
        ("postgresql://u@h/db?pass%77ord=SECRETPW", ["SECRETPW"]),
        ("postgresql://u:sek@ret@h/db", ["sek", "ret@"]),
        ("postgresql://u:s%40cret@h/db", ["s%40cret"]),
        ("understudy score --ledger 'host=h password=SECRET user=u'", ["SECRET"]),
        ("host=h password='SE CRET' user=u", ["SE CRET", "CRET"]),
    ],
)
def test_every_password_form_libpq_accepts_is_redacted(text: str, secrets: list[str]) -> None:
    shown = redacted(text)
    assert "***" in shown and not any(secret in shown for secret in secrets)


def test_an_unencoded_at_in_a_password_leaks_nothing_in_a_connection_error() -> None:
    pytest.importorskip("psycopg")
    from tests.support.postgres_server import free_port

    url = f"postgresql://someone:sekr1t@tail9x@127.0.0.1:{free_port()}/db?password=qu3ry-pw"
    with pytest.raises(LedgerError) as refused:
        Ledger(url, timeout=2)
    for secret in ("sekr1t", "tail9x", "qu3ry-pw"):
        assert secret not in str(refused.value)
    assert refused.value.__cause__ is None and refused.value.__context__ is not None


def test_a_query_string_password_is_not_kept_in_the_record(postgres: object, tmp_path: Path) -> None:
    url = postgres.database()  # type: ignore[attr-defined]
    user, rest = url.split("://", 1)[1].split(":", 1)
    password, host = rest.split("@", 1)
    in_query = f"postgresql://{user}@{host}?password={password}"
    done = _cli("score", str(REF), "-i", str(ONLINE), "-b", "--log", "--ledger", in_query)
    assert done.returncode == 0, done.stderr
    with Ledger(url) as ledger:
        (record,) = ledger.records()
    assert password not in record.command and password not in done.stderr and "password=***" in record.command


# -- 11: a run's records, all or none -------------------------------------------------------


def test_a_run_that_fails_part_way_keeps_none_of_its_records(monkeypatch: pytest.MonkeyPatch) -> None:
    import understudy.ledger.ledger as module

    ledger = Ledger(":memory:")
    stats = BLEU().segment_stats(["a b c"], [["a b d"]])
    real = module._insert
    calls = []

    def failing(db: object, row: dict[str, object], tags: list[str]) -> int | None:
        calls.append(row["system"])
        if len(calls) == 3:
            raise LedgerError("the disk filled up")
        return real(db, row, tags)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "_insert", failing)
    with pytest.raises(LedgerError, match="disk filled"):
        ledger.append_many([(stats, f"s{k}", "toy", "") for k in range(5)])
    assert ledger.records() == [] and len(calls) == 3
    monkeypatch.setattr(module, "_insert", real)
    assert ledger.append_many([(stats, f"s{k}", "toy", "") for k in range(5)]) == [1, 2, 3, 4, 5]


# -- 12: read commands write nothing -------------------------------------------------------


def test_read_commands_create_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = tmp_path / "typo" / "x.sqlite"
    for argv in (["ledger", "show", "1"], ["ledger", "list"], ["ledger", "compare", "1", "2"]):
        code, _, err = run_cli(capsys, *argv, "--ledger", str(typo))
        assert code == 1 and "no such ledger" in err
    assert not typo.parent.exists()


def test_importing_reads_its_source_and_leaves_it_as_it_was(tmp_path: Path) -> None:
    source = tmp_path / "old.sqlite"
    stats = GivenScores({"A": [0.5, 0.25]}, "COMET-22").segment_stats("A")
    _old_ledger(source, [("scores", str(stats.signature), stats.to_bytes())])
    before = source.read_bytes()
    target = str(tmp_path / "main.sqlite")
    done = _cli("ledger", "import", str(source), "--ledger", target)
    assert done.returncode == 0, done.stderr
    assert source.read_bytes() == before and not Path(f"{source}-wal").exists()
    with Ledger(target) as ledger:
        assert [r.metric for r in ledger.records()] == ["COMET-22"]
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as raw:
        raw.execute("CREATE TABLE t (x)")
    before = other.read_bytes()
    refused = _cli("ledger", "import", str(other), "--ledger", target)
    assert refused.returncode == 1 and "not a ledger" in refused.stderr and other.read_bytes() == before


def test_a_ledger_in_wal_mode_on_read_only_media_is_listed(tmp_path: Path) -> None:
    path = tmp_path / "ro" / "l.sqlite"
    with Ledger(path) as ledger:
        ledger.append(BLEU().segment_stats(["a b c"], [["a b d"]]), "s", "toy")
    # Read-only media as root can be: no -shm or -wal beside the file, and none can be made.
    for leftover in path.parent.glob("l.sqlite-*"):
        leftover.unlink()
    with Ledger(path, read_only=True) as ledger:
        assert [r.system for r in ledger.records()] == ["s"]
        with pytest.raises(LedgerError, match="reading alone"):
            ledger.append(BLEU().segment_stats(["a"], [["a"]]), "t", "toy")


# -- 13, 20: what the ledger's API takes ---------------------------------------------------


def test_one_string_of_tags_is_one_tag_and_ids_beyond_int64_are_no_record() -> None:
    ledger = Ledger(":memory:")
    record = ledger.append(BLEU().segment_stats(["a b c"], [["a b d"]]), "s", "toy", tags="run-7")
    assert ledger.get(record).tags == ("run-7",)
    for missing in (2**63, 2**64 + 1, 0, -1):
        with pytest.raises(LedgerError, match=f"no record {missing}"):
            ledger.get(missing)
    with pytest.raises(ConfigError, match="timeout"):
        Ledger(":memory:", timeout=float("nan"))


def test_huge_record_ids_are_one_line_everywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ledger = str(tmp_path / "l.sqlite")
    with Ledger(ledger) as kept:
        kept.append(BLEU().segment_stats(["a b c"] * 10, [["a b d"] * 10]), "s", "toy")
    huge = str(2**63)
    for argv in (["ledger", "show", huge], ["ledger", "compare", "1", huge]):
        code, _, err = run_cli(capsys, *argv, "--ledger", ledger)
        assert code == 1 and err.count("\n") == 1 and f"no record {huge}" in err
    done = _cli("gate", "--baseline", "ledger:1", "--candidate", f"ledger:{huge}", "--ledger", ledger)
    assert done.returncode == 2 and f"no record {huge}" in done.stderr and "Traceback" not in done.stderr


# -- 14: one name, one metric ---------------------------------------------------------------


def test_a_given_name_that_clashes_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scores = _scores(tmp_path / "s.txt", [0.5] * 3004)
    code, _, err = run_cli(
        capsys, "score", str(REF), "-i", str(ONLINE), "-m", "bleu", "--scores", f"BLEU={scores}"
    )
    assert code == 1 and "--scores BLEU clashes with -m bleu" in err
    argv = ["score", str(REF), "-i", str(ONLINE), "--scores", f"COMET={scores}", f"comet={scores}"]
    code, _, err = run_cli(capsys, *argv)
    assert code == 1 and "--scores comet clashes with --scores COMET" in err
    # Where no text is scored (correlate without -m), BLEU is a name like any other.
    argv = ["correlate", str(REF), "-i", str(ONLINE), str(UEDIN), str(PROMT), "--human", str(scores)]
    code, _, err = run_cli(capsys, *argv, "--scores", f"BLEU={scores}", f"BLEU={scores}", f"BLEU={scores}")
    assert "clashes with" not in err


# -- 15: file names that are not UTF-8 -------------------------------------------------------


def test_a_system_file_whose_name_is_not_utf8_is_kept(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/caf\xe9.de"
    with open(name, "wb") as fh:
        fh.write(ONLINE.read_bytes())
    ledger = str(tmp_path / "l.sqlite")
    done = subprocess.run(
        [
            sys.executable.encode(),
            b"-m",
            b"understudy",
            b"score",
            os.fsencode(REF),
            b"-i",
            name,
            b"-b",
            b"--log",
            b"--ledger",
            ledger.encode(),
        ],
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    with Ledger(ledger) as kept:
        (record,) = kept.records()
    assert record.system.endswith("caf\\xe9.de")


def test_a_report_of_a_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    name = os.fsencode(tmp_path) + b"/caf\xe9.txt"
    with open(name, "wb") as fh:
        fh.write(ONLINE.read_bytes())
    out = tmp_path / "r.html"
    argv = [
        b"report",
        os.fsencode(REF),
        b"-i",
        name,
        os.fsencode(UEDIN),
        b"-o",
        os.fsencode(out),
        b"-n",
        b"20",
    ]
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"understudy", *argv], capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert "caf\\xe9" in out.read_text(encoding="utf-8")


# -- 22, 23, 24: the gate as CI uses it -------------------------------------------------------


def test_a_kept_release_gates_a_fresh_output_and_keeps_it(tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    kept = _cli(
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
    same = _cli("gate", str(REF), "--baseline", "tag:release", "--candidate", str(UEDIN), "--ledger", ledger)
    assert same.returncode == 0, same.stderr
    pair = ["--baseline", "tag:release", "--candidate", str(PROMT)]
    worse = _cli("gate", str(REF), *pair, "-f", "json", "--ledger", ledger, "--log", "--tag", "nightly")
    assert worse.returncode == 1, worse.stderr
    verdict = json.loads(worse.stdout)
    assert [r["metric"] for r in verdict["results"]] == ["BLEU", "chrF2"]
    direct = _cli(
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
    assert [(r.system, r.metric) for r in nightly] == [(str(PROMT), "bleu"), (str(PROMT), "chrf")]
    other = _cli(
        "gate", str(ONLINE), "--baseline", "tag:release", "--candidate", str(PROMT), "--ledger", ledger
    )
    assert (
        other.returncode == 2
        and "was scored on sha256:" in other.stderr
        and "the references given are" in other.stderr
    )


def test_gate_errors_exit_2_and_junit_is_checked_first(tmp_path: Path) -> None:
    pair = ["--baseline", str(UEDIN), "--candidate", str(ONLINE)]
    assert _cli("gate", str(tmp_path / "missing"), *pair).returncode == 2
    assert _cli("gate", str(REF), *pair, "--alpha", "2").returncode == 2
    assert (
        _cli(
            "gate", "--baseline", "ledger:1", "--candidate", "ledger:2", "--ledger", str(tmp_path / "l")
        ).returncode
        == 2
    )
    unwritable = _cli("gate", str(REF), *pair, "--junit", str(tmp_path / "no" / "gate.xml"))
    assert unwritable.returncode == 2 and "no such folder" in unwritable.stderr and unwritable.stdout == ""
    odd = tmp_path / "sys\x01\x1b.de"
    odd.write_bytes(ONLINE.read_bytes())
    junit = tmp_path / "gate.xml"
    done = _cli("gate", str(REF), "--baseline", str(UEDIN), "--candidate", str(odd), "--junit", str(junit))
    assert done.returncode == 1
    assert "sys\\x01\\x1b.de" in ET.parse(junit).getroot().find("testsuite/testcase/failure").text  # type: ignore[union-attr]


def test_a_tag_of_several_systems_and_a_metric_not_kept_are_refused(tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    done = _cli(
        "score", str(REF), "-i", str(UEDIN), str(ONLINE), "--log", "--tag", "both", "--ledger", ledger
    )
    assert done.returncode == 0, done.stderr
    several = _cli("gate", "--baseline", "tag:both", "--candidate", "ledger:1", "--ledger", ledger)
    assert (
        several.returncode == 2
        and "holds records of 2 systems" in several.stderr
        and str(ONLINE) in several.stderr
    )
    absent = _cli(
        "gate", "--baseline", "ledger:1", "--candidate", "ledger:2", "-m", "chrf", "--ledger", ledger
    )
    assert absent.returncode == 2 and "ledger:1 has no record of chrf (it has bleu)" in absent.stderr


# -- 21, 26, 27, 30: the command line as a new user meets it ---------------------------------


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["score", str(REF), "-i", str(ONLINE), "-o", "out.json"], "unrecognized arguments: -o out.json"),
        (["score", str(REF), "-i", str(ONLINE), "--tok", "intl"], "unrecognized arguments: --tok intl"),
        (["score", str(REF), "-i", str(ONLINE), "-m", "bleuu"], "invalid choice: 'bleuu'"),
        (["score", str(REF), "-i", str(ONLINE), "--seed", "-1"], "a seed is a whole number from 0, not -1"),
        (
            ["compare", str(REF), "-i", str(ONLINE), str(UEDIN), "-w", "-3"],
            "takes 0 to 50 decimal places, got -3",
        ),
        (["compare", str(REF), "-i", str(ONLINE), "-w", "3000000000"], "takes 0 to 50 decimal places"),
        (["ledger", "compare", "1", "2", "-w", "99"], "takes 0 to 50 decimal places, got 99"),
    ],
)
def test_an_option_error_is_one_line_and_no_option_is_abbreviated(argv: list[str], said: str) -> None:
    done = _cli(*argv)
    assert done.returncode == 2 and said in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "usage:" not in done.stderr and done.stdout == ""


def test_metrics_are_named_in_any_case_and_typos_get_the_nearest_name() -> None:
    done = _cli("score", str(REF), "-i", str(ONLINE), "-m", "BLEU", "chrF++", "-f", "json")
    canonical = _cli("score", str(REF), "-i", str(ONLINE), "-m", "bleu", "chrfpp", "-f", "json")
    assert done.returncode == 0 and done.stdout == canonical.stdout, done.stderr
    assert [r["name"] for r in json.loads(done.stdout)] == ["BLEU", "chrF2++"]
    typo = _cli("score", str(REF), "-i", str(ONLINE), "-m", "bleuu")
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
    piped = _cli("score", str(REF), stdin=ONLINE.read_text(encoding="utf-8"))
    assert "terminal" not in piped.stderr


# -- 19: score files that once raised tracebacks -----------------------------------------------


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("A\t²\t0.5\n", "segment '²' is not a segment number"),
        ("A\t" + "9" * 30 + "\t0.5\n", "is not a segment number"),
        ('{"prediction": ' + "7" * 4301 + "}\n", "not JSON MetricX writes (Exceeds the limit"),
        ('{"prediction": ' + "7" * 400 + "}\n", "is not a finite number"),
        ('{"a.de": [{"COMET": ' + "7" * 400 + "}]}", "is not a finite number"),
        ('{"a.de": [{"COMET": ' + "7" * 4301 + "}]}", "not JSON comet-score writes (Exceeds the limit"),
        ("[" * 100_000 + "]" * 100_000 + "\n", "not JSON comet-score writes (nested too deeply)"),
        ("A\t1\t0.5\nB\t1\t" + "x" * 140_000 + "\n", ":2: not a table row (field larger than field limit"),
    ],
)
def test_score_file_readers_say_one_line_for_any_content(tmp_path: Path, content: str, said: str) -> None:
    from understudy.errors import InputFileError
    from understudy.score_files import read_scores

    path = tmp_path / "scores.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputFileError, match=re.escape(said)) as refused:
        read_scores(path)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 400


def test_human_score_tables_say_one_line_for_any_content(tmp_path: Path) -> None:
    from understudy.correlation.human import read_human
    from understudy.errors import InputFileError

    path = tmp_path / "human.tsv"
    for content, said in [
        ("A\t²\t0.5\n", "segment '²' is not a segment number"),
        ("A\t1\t0.5\nB\t1\t" + "x" * 140_000 + "\n", ":2: not a table row"),
    ]:
        path.write_text(content, encoding="utf-8")
        with pytest.raises(InputFileError, match=re.escape(said)):
            read_human(path)


# -- 4: one rule to match a table's systems, never across folders ---------------------------


def test_a_score_entry_two_systems_claim_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = []
    for run, source in (("run1", ONLINE), ("run2", PROMT)):
        (tmp_path / run).mkdir()
        runs.append(tmp_path / run / "out.de")
        runs[-1].write_bytes(source.read_bytes())
    table = tmp_path / "comet.tsv"
    table.write_text("".join(f"out.de\t{k + 1}\t0.5\n" for k in range(3004)), encoding="utf-8")
    argv = ["score", str(REF), "-i", *map(str, runs), "--scores", f"COMET-22={table}"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 1 and out == "" and "would serve both" in err and str(runs[0]) in err
    # Keys that name the folders match their own systems only, in either order.
    rows = [
        f"{run}/out.de\t{k + 1}\t{value}\n"
        for run, value in (("run2", 0.25), ("run1", 0.75))
        for k in range(3004)
    ]
    table.write_text("".join(rows), encoding="utf-8")
    code, out, err = run_cli(capsys, *argv, "-f", "json")
    assert code == 0, err
    assert [(r["system"], r["COMET-22"]["score"]) for r in json.loads(out)] == [
        (str(runs[0]), 0.75),
        (str(runs[1]), 0.25),
    ]


def test_human_scores_match_systems_by_the_same_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    systems = []
    for run in ("run1", "run2", "run3"):
        (tmp_path / run).mkdir()
        systems.append(tmp_path / run / "out.de")
        systems[-1].write_bytes(ONLINE.read_bytes())
    human = tmp_path / "human.tsv"
    human.write_text("out.de\t1.0\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "correlate", str(REF), "-i", *map(str, systems), "--human", str(human))
    assert code == 1 and "would serve both" in err


# -- 25: torch tensors as token ids ----------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8"])
def test_cpu_tensors_of_any_integer_type_are_token_ids(dtype: str) -> None:
    torch = pytest.importorskip("torch")
    from understudy import TER
    from understudy.errors import InputTypeError

    rng = np.random.default_rng(25)
    hyps = [rng.integers(0, 20, int(rng.integers(3, 12))).tolist() for _ in range(40)]
    refs = [[rng.integers(0, 20, int(rng.integers(3, 12))).tolist() for _ in range(40)]]
    kind = getattr(torch, dtype)
    as_tensors = [torch.tensor(h, dtype=kind) for h in hyps], [[torch.tensor(r, dtype=kind) for r in refs[0]]]
    for metric in (BLEU(), TER()):
        assert (
            metric.segment_stats(*as_tensors).rows.tolist() == metric.segment_stats(hyps, refs).rows.tolist()
        )
    padded = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=kind)
    assert (
        BLEU().segment_stats(padded, padded[None]).rows.tolist()
        == BLEU().segment_stats(padded.numpy(), padded.numpy()[None]).rows.tolist()
    )
    cached = BLEU(references=as_tensors[1])
    assert cached.corpus_score(as_tensors[0]).score == BLEU().corpus_score(hyps, refs).score
    with pytest.raises(InputTypeError, match=r"token ids are integers|tokens are strings or integers"):
        BLEU().segment_stats([torch.tensor([0.5, 1.5])], [[torch.tensor([0.5])]])


# -- 30: one rule for a byte-order mark --------------------------------------------------------


def test_a_bom_goes_the_same_way_from_a_file_and_from_a_field_of_standard_input(tmp_path: Path) -> None:
    with_bom = tmp_path / "bom.de"
    with_bom.write_bytes(b"\xef\xbb\xbf" + ONLINE.read_bytes())
    lines_a = UEDIN.read_text(encoding="utf-8").splitlines()
    lines_b = with_bom.read_text(encoding="utf-8").splitlines()  # the BOM kept, as paste keeps it
    pasted = "".join(f"{a}\t{b}\n" for a, b in zip(lines_a, lines_b, strict=True))
    assert pasted.split("\t")[1].startswith("\ufeff")
    piped = _cli("score", str(REF), "-m", "chrf", "-f", "json", stdin=pasted)
    files = _cli("score", str(REF), "-i", str(UEDIN), str(with_bom), "-m", "chrf", "-f", "json")
    assert piped.returncode == 0 and files.returncode == 0, piped.stderr + files.stderr
    scores = [[r["score"] for r in json.loads(done.stdout)] for done in (piped, files)]
    assert scores[0] == scores[1]
    plain = _cli("score", str(REF), "-i", str(ONLINE), "-m", "chrf", "-f", "json")
    assert scores[1][1] == json.loads(plain.stdout)["score"]


# -- 28: the decimals of a metric without a preset ----------------------------------------------


def test_a_given_metric_prints_as_many_decimals_as_its_scale_needs(tmp_path: Path) -> None:
    a = _scores(tmp_path / "a.txt", [0.512, 0.3, 0.7])
    b = _scores(tmp_path / "b.txt", [0.498, 0.31, 0.69])
    argv = [
        "score",
        "--scores",
        f"judge={a}",
        f"judge={b}",
        "--scores-higher-is-better",
        "judge",
        "-f",
        "json",
    ]
    done = _cli(*argv)
    assert [r["score"] for r in json.loads(done.stdout)] == [round(1.512 / 3, 3), round(1.498 / 3, 3)]
    ranged = _cli(*argv, "--scores-range", "judge=0..100")
    records = json.loads(ranged.stdout)
    assert [r["score"] for r in records] == [0.5, 0.5] and records[0]["range"] == "0..100"
    wrong = _cli(*argv, "--scores-range", "judge=1-5")
    assert wrong.returncode == 1 and "takes LOW..HIGH" in wrong.stderr


# -- 29: what a person reads -------------------------------------------------------------------


def test_history_draws_a_line_per_system_of_a_tag_with_readable_ticks() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib.dates as mdates
    from understudy.ledger.plot import history_figure

    ledger = Ledger(":memory:")
    refs = [["the cat sat on the mat", "a dog barked"]]
    for system, hyps in (("A", ["the cat sat", "a dog"]), ("B", refs[0]), ("A", refs[0])):
        ledger.append(BLEU().segment_stats(hyps, refs), system, "toy", tags=["run"])
    (axis,) = history_figure({"tag:run": ledger.history(tag="run", n=20)}).axes
    assert axis.get_legend_handles_labels()[1] == ["tag:run: A", "tag:run: B"]
    assert [len(c.lines[0].get_ydata()) for c in axis.containers] == [2, 1]
    assert isinstance(axis.xaxis.get_major_formatter(), mdates.ConciseDateFormatter)


def test_compare_names_systems_as_the_report_does(tmp_path: Path) -> None:
    done = _cli("compare", str(REF), "-i", str(UEDIN), str(ONLINE), str(PROMT), "-n", "50")
    assert done.returncode == 0, done.stderr
    assert "uedin-nmt.4722" in done.stdout and str(SAMPLE) not in done.stdout
    assert max(map(len, done.stdout.splitlines()[:8])) < 80
    whole = _cli("compare", str(REF), "-i", str(UEDIN), str(ONLINE), str(PROMT), "-n", "50", "-f", "json")
    assert str(UEDIN) in whole.stdout


def test_a_full_disk_names_the_file_being_written(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    done = _cli(
        "gate", str(REF), "--baseline", str(UEDIN), "--candidate", str(ONLINE), "--junit", "/dev/full"
    )
    assert done.returncode == 2 and "/dev/full: cannot write: No space left on device" in done.stderr
    assert "standard output" not in done.stderr


# -- 24: a PostgreSQL ledger outlives a server restart ----------------------------------------


def test_a_postgresql_ledger_reconnects_after_the_server_restarts() -> None:
    pytest.importorskip("psycopg")
    from tests.support import postgres_server

    try:
        server = postgres_server.start()
    except (FileNotFoundError, RuntimeError) as err:
        if os.environ.get("CI"):
            raise
        pytest.skip(str(err))
    try:
        stats = BLEU().segment_stats(["a b c"], [["a b d"]])
        url = server.database()
        with Ledger(url) as ledger, Ledger(url, read_only=True) as reader:
            ledger.append(stats, "before", "toy")
            assert [r.system for r in reader.records()] == ["before"]
            server.restart()
            ledger.append(stats, "after", "toy")  # the lost connection is made again
            assert [r.system for r in reader.records()] == ["before", "after"]
            with pytest.raises(LedgerError, match="read-only"):
                reader._db.execute("INSERT INTO meta VALUES ('x', 'y')")
    finally:
        server.stop()


# -- 17: SPA's permutations in blocks --------------------------------------------------------------


@pytest.mark.parametrize("segments", [1, 7, 529])
def test_permutations_drawn_in_blocks_are_the_one_draws(
    segments: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from understudy.correlation import spa

    # mt-metrics-eval's draw, whole: what the blocks must give back, even across odd block sizes.
    whole = np.random.default_rng(4).random(size=(300, segments), dtype=np.float32) <= 0.5
    for block in (segments * 7 + 1, 3, 1):  # uneven blocks; one row a block
        monkeypatch.setattr(spa, "DRAW_BLOCK", block)
        signs = spa.PermutationSigns(segments, permutations=300, seed=4)
        assert np.array_equal(signs._taken, whole)
        assert np.array_equal(signs.swapped, whole.astype(np.float64))


# -- 18: a report under a capped address space ------------------------------------------------


@pytest.mark.parametrize("megabytes", [60, 100, 150, 170, 220, 240, 250, 280, 350])
def test_a_report_short_of_memory_says_so_in_one_line(tmp_path: Path, megabytes: int) -> None:
    # Below what loading NumPy and the core takes (60-150 MB: OpenBLAS's own message, or
    # hashlib's traceback, before) the command says so itself, before loading them.
    import resource

    def capped() -> None:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    argv = ["report", str(REF), "-i", str(ONLINE), str(UEDIN), "-o", str(tmp_path / "r.html"), "-n", "50"]
    done = subprocess.run(
        [sys.executable, "-m", "understudy", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=capped,
    )
    if done.returncode == 0:
        return  # enough for this report on this machine: nothing to say
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert done.stderr.startswith("understudy: error: out of memory"), done.stderr
    assert "extra" not in done.stderr and "OpenBLAS" not in done.stderr
    if megabytes < 192:
        assert f"capped at {megabytes} MB (ulimit -v); understudy needs 192 MB to start" in done.stderr


def test_report_records_read_the_ledger_and_take_only_record_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "l.sqlite"
    done = _cli("score", str(REF), "-i", str(UEDIN), str(ONLINE), "--log", "--ledger", str(ledger))
    assert done.returncode == 0, done.stderr
    before = ledger.read_bytes()
    for records in (str(2**63), "²", "1"):
        code, _, err = run_cli(
            capsys,
            "report",
            "--records",
            "1",
            records,
            "-o",
            str(tmp_path / "r.html"),
            "--ledger",
            str(ledger),
        )
        assert err.count("\n") <= 1 and "Traceback" not in err, err
    assert ledger.read_bytes() == before
    code, _, err = run_cli(
        capsys, "gate", "--baseline", "ledger:²", "--candidate", "ledger:1", "--ledger", str(ledger)
    )
    assert code == 2 and "ledger:ID takes a record's number" in err
