"""The ledger: records kept exactly, refused when incomparable, whole under concurrency and crashes."""

from __future__ import annotations

import base64
import csv
import dataclasses
import hashlib
import json
import multiprocessing
import os
import shlex
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from understudy import BLEU
from understudy.errors import ConfigError, IncomparableError, InputTypeError, LedgerError, MissingExtraError
from understudy.ledger import LEDGER_ENV, Ledger, default_location
from understudy.ledger.database import SQLITE, Database, open_database
from understudy.ledger.schema import SCHEMA_VERSION, statements
from understudy.ledger.secrets import redacted
from understudy.metrics import FAMILIES
from understudy.metrics.scores import GivenScores
from understudy.significance import paired_test
from understudy.stats import Stats

from tests.support.cli import run_cli, run_process
from tests.support.families import TEST_FAMILIES
from tests.support.paths import ONLINE_A, REF, SAMPLE, UEDIN
from tests.support.postgres_server import PASSWORD, Server

NewLedger = Callable[..., str]
"""The ``new_ledger`` fixture (tests/conftest.py): a new ledger's location, on each backend."""


def test_every_familys_statistics_come_back_exactly(
    new_ledger: NewLedger, wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    hyps, refs = wmt17_systems["uedin-nmt"], [wmt17_ref]
    with Ledger(new_ledger()) as ledger:
        for family in TEST_FAMILIES.values():
            config = family.examples[-1]
            stats = FAMILIES[config.metric].metric.from_config(config).segment_stats(hyps, refs)
            record = ledger.append(stats, "uedin-nmt", "wmt17:en-de", note=config.metric)
            back = ledger.stats(record)
            assert type(back) is type(stats) and back.config == stats.config
            assert np.array_equal(back.rows, stats.rows) and back.rows.dtype == np.int64
            assert np.array_equal(back.refs_per_segment, stats.refs_per_segment)
            kept = ledger.get(record)
            assert kept.score == stats.score().score == back.score().score
            assert kept.signature == str(stats.signature) and kept.segments == len(hyps)
    # A second opening reads what the first wrote.
    with Ledger(new_ledger()) as again:
        assert [r.note for r in again.records()] == [f.examples[-1].metric for f in TEST_FAMILIES.values()]


AWKWARD = [
    'it\'s "quoted"',
    "x'); DROP TABLE records; --",
    "back\\slash %s %(x)s ? $1",
    "é e\u0301 中文 \U0001f600",
    "m" * 1_000_000,
    "",
]


def test_awkward_text_is_kept_exactly_and_invalid_text_refused(new_ledger: NewLedger) -> None:
    stats = BLEU().segment_stats(["a b"], [["a b"]])
    with Ledger(new_ledger()) as ledger:
        ids = [
            ledger.append(stats, text, text, tags=[text, "t"], note=text, command=text) for text in AWKWARD
        ]
        for record, text in zip(ids, AWKWARD, strict=True):
            kept = ledger.get(record)
            assert (kept.system, kept.testset, kept.note, kept.command) == (text, text, text, text)
            assert kept.tags == tuple(sorted({text, "t"}))
        assert [r.id for r in ledger.records(system=AWKWARD[1])] == [ids[1]]
        assert [r.id for r in ledger.records(tag=AWKWARD[2])] == [ids[2]]
        # A record found by one tag comes with all of its tags.
        assert [r.tags for r in ledger.records(tag=AWKWARD[2])] == [tuple(sorted({AWKWARD[2], "t"}))]
        assert [r.tags for r in ledger.records(tag="t")] == [tuple(sorted({t, "t"})) for t in AWKWARD]
        assert len(ledger.records()) == len(AWKWARD)  # the injection attempt was a name, nothing more
        with pytest.raises(InputTypeError, match="system is not valid Unicode"):
            ledger.append(stats, "bad \ud800", "toy")
        with pytest.raises(InputTypeError, match="note contains a NUL character"):
            ledger.append(stats, "s", "toy", note="nul\x00byte")  # PostgreSQL could not keep it
        with pytest.raises(InputTypeError, match="tag is text, not int"):
            ledger.append(stats, "s", "toy", tags=[3])  # type: ignore[list-item]
        assert len(ledger.records()) == len(AWKWARD)  # a refused record leaves nothing
        with pytest.raises(LedgerError, match="no record 99"):
            ledger.get(99)


def test_incomparable_records_are_refused_naming_what_differs(new_ledger: NewLedger) -> None:
    hyps, refs = ["the cat sat", "a dog"], [["the cat sat down", "a dog barked"]]
    with Ledger(new_ledger()) as ledger:
        base = ledger.append(BLEU().segment_stats(hyps, refs), "a", "toy")
        same = ledger.append(BLEU().segment_stats(hyps[::-1], refs), "b", "toy")
        ledger.check_comparable(base, same)
        lowercased = ledger.append(BLEU(lowercase=True).segment_stats(hyps, refs), "c", "toy")
        with pytest.raises(IncomparableError, match="signature's case: mixed against lc"):
            ledger.check_comparable(base, lowercased)
        other_set = ledger.append(BLEU().segment_stats(hyps, refs), "d", "other")
        with pytest.raises(IncomparableError, match=r"different test sets \(toy, 2 segments; other, 2"):
            ledger.check_comparable(base, other_set)
        shorter = ledger.append(BLEU().segment_stats(hyps[:1], [refs[0][:1]]), "e", "toy")
        with pytest.raises(IncomparableError, match="1 segments"):
            ledger.check_comparable(base, shorter)


def test_query_by_time_compare_and_gate_from_the_api(new_ledger: NewLedger) -> None:
    from understudy.gate import gate

    refs = [["the cat sat on the mat", "a dog barked at the moon", "it is raining"] * 6]
    worse = ["the cat", "a dog barked", "rain"] * 6
    with Ledger(new_ledger()) as ledger:
        base = ledger.append(BLEU().segment_stats(refs[0], refs), "base", "toy")
        cand = ledger.append(BLEU().segment_stats(worse, refs), "cand", "toy")
        tokenized = ledger.append(BLEU(tokenize="char").segment_stats(worse, refs), "char", "toy")
        first, second, third = ledger.query()
        assert ledger.query(since=second.created) == [second, third]  # from that instant on
        assert ledger.query(until=second.created) == [first]  # before it
        assert ledger.query(until=first.created[:10]) == [first, second, third]  # a date: all its day
        assert ledger.query(since="2999-01-01") == [] and ledger.query(until="2000-01-01T00:00") == []
        with pytest.raises(InputTypeError, match="since is an ISO date or time"):
            ledger.query(since="yesterday")
        compared = ledger.compare(base, cand, n=300)
        want = paired_test([ledger.stats(base), ledger.stats(cand)], ["1: base", "2: cand"], "bs", 300)
        assert compared == want and compared.systems[0].p_value is not None
        verdict = ledger.gate(base, cand, alpha=0.05, n=300)
        assert verdict == gate(ledger.stats(base), ledger.stats(cand), alpha=0.05, n=300)
        assert not verdict.passed and ledger.gate(cand, base, n=300).passed
        with pytest.raises(IncomparableError, match="signature's tok: 13a against char"):
            ledger.gate(base, tokenized)
        with pytest.raises(IncomparableError, match="signature's tok"):
            ledger.compare(base, cand, tokenized)


def _append_one(path: str, k: int, start: Any, ids: Any) -> None:
    stats = BLEU().segment_stats([f"word {k} and more"] * 50, [["word 1 and more"] * 50])
    with Ledger(path) as ledger:
        start.wait(timeout=60)  # every process has its ledger open: now all append at once
        ids.put(ledger.append(stats, f"system-{k}", "toy", tags=[f"k{k}", "all"]))


def test_32_processes_appending_at_once_each_leave_one_whole_record(new_ledger: NewLedger) -> None:
    path = new_ledger()
    Ledger(path).close()  # created first: opening a new ledger at once is another test's
    # Forked from one process that imported understudy, not 32 imports: fresh processes all the same.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["understudy", "understudy.ledger", "tests.ledger.test_ledger"])
    start, queue = context.Barrier(32), context.Queue()
    writers = [context.Process(target=_append_one, args=(path, k, start, queue)) for k in range(32)]
    for writer in writers:
        writer.start()
    ids = [queue.get(timeout=120) for _ in writers]
    for writer in writers:
        writer.join(timeout=60)
        assert writer.exitcode == 0
    assert sorted(ids) == list(range(1, 33))
    with Ledger(path) as ledger:
        records = ledger.records()
        assert sorted(r.system for r in records) == sorted(f"system-{k}" for k in range(32))
        assert all(r.tags == ("all", f"k{r.system[7:]}") for r in records)
        assert len(ledger.records(tag="all")) == 32
        for r in records:
            assert ledger.stats(r.id).score().score == r.score


def _open_new(path: str, start: Any, done: Any) -> None:
    start.wait(timeout=60)
    with Ledger(path) as ledger:
        done.put(len(ledger.records()))


def test_processes_opening_a_new_ledger_at_once_create_it_once(new_ledger: NewLedger) -> None:
    path = new_ledger()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["understudy", "understudy.ledger", "tests.ledger.test_ledger"])
    start, queue = context.Barrier(16), context.Queue()
    openers = [context.Process(target=_open_new, args=(path, start, queue)) for _ in range(16)]
    for opener in openers:
        opener.start()
    assert [queue.get(timeout=120) for _ in openers] == [0] * 16
    for opener in openers:
        opener.join(timeout=60)
        assert opener.exitcode == 0
    with _raw(path) as raw:
        assert raw.execute("SELECT key, value FROM meta") == [("schema_version", str(SCHEMA_VERSION))]


def test_history_plotted_one_line_per_system_or_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    from understudy.ledger.plot import history_figure

    from tests.support.cli import run_cli

    refs = [["the cat sat on the mat", "a dog barked at the moon", "it is raining"] * 4]
    tries = [
        ["the cat sat on it", "a dog", "it is rain"],
        ["the cat sat", "a dog barked at the sun", "it rains"],
    ]
    checkpoints = [tries[0] * 4, tries[1] * 4, tries[0] * 2 + tries[1] * 2]
    path = str(tmp_path / "l.sqlite")
    with Ledger(path) as ledger:
        for k, hyps in enumerate(checkpoints):
            for metric in (BLEU(), FAMILIES["chrf"].metric()):
                ledger.append(metric.segment_stats(hyps, refs), f"ckpt-{k}", "toy", tags=["run"])
        ledger.append(BLEU().segment_stats(checkpoints[0], refs), "baseline", "toy")
        lines = {"tag:run": ledger.history(tag="run", n=50), "baseline": ledger.history("baseline", n=50)}
    figure = history_figure(lines)
    assert [axis.get_title() for axis in figure.axes] == ["BLEU", "chrF"]
    bleu, chrf = figure.axes
    assert bleu.get_legend_handles_labels()[1] == ["tag:run", "baseline"]
    assert chrf.get_legend_handles_labels()[1] == ["tag:run"]  # the baseline has no chrF record
    drawn = bleu.containers[0]
    want = [p for p in lines["tag:run"] if p.record.metric == "bleu"]
    assert list(drawn.lines[0].get_ydata()) == [p.record.score for p in want]
    bars = drawn.lines[2][0].get_segments()  # each [(x, score - ci), (x, score + ci)]
    assert [(b[1][1] - b[0][1]) / 2 for b in bars] == pytest.approx([p.ci for p in want], rel=1e-12)
    assert all(p.ci > 0 for p in want)  # else the bars would prove nothing
    code, out, err = run_cli(
        capsys,
        "ledger",
        "history",
        "tag:run",
        "baseline",
        "-m",
        "bleu",
        "-n",
        "50",
        "--plot",
        str(tmp_path / "h.png"),
        "--ledger",
        path,
        "-f",
        "json",
    )
    assert code == 0, err
    assert (tmp_path / "h.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [(p["line"], p["system"]) for p in json.loads(out)] == [
        ("tag:run", "ckpt-0"),
        ("tag:run", "ckpt-1"),
        ("tag:run", "ckpt-2"),
        ("baseline", "baseline"),
    ]
    code, _, err = run_cli(
        capsys, "ledger", "history", "baseline", "--plot", str(tmp_path / "h.pdf"), "--ledger", path
    )
    assert code != 0 and "a plot is written as .png or .svg, not '.pdf'" in err


WRITER = """
import sys
from understudy import BLEU
from understudy.ledger import Ledger
stats = BLEU().segment_stats(["a b c d"] * 2000, [["a b c e"] * 2000])
with Ledger(sys.argv[1]) as ledger:
    ledger.append(stats, "s", "toy", tags=["x", "y"], note="n" * 10000)
    print("appended", flush=True)  # one record at least, however slow the machine
    while True:
        ledger.append(stats, "s", "toy", tags=["x", "y"], note="n" * 10000)
"""


def test_a_writer_killed_mid_append_leaves_a_valid_ledger(new_ledger: NewLedger) -> None:
    path = new_ledger()
    for delay in (0.05, 0.2, 0.6):
        child = subprocess.Popen([sys.executable, "-c", WRITER, path], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline() == "appended\n"
        time.sleep(delay)  # where the kill lands in the appends that follow: any place is right
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=120)
    if not path.startswith("postgresql://"):
        with sqlite3.connect(path) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    with Ledger(path) as ledger:
        records = ledger.records()
        assert records, "the writer appended nothing before it was killed"
        # Every record whole: its tags with it, its statistics readable, its score theirs.
        assert all(r.tags == ("x", "y") and len(r.note) == 10000 for r in records)
        assert all(ledger.stats(r.id).score().score == r.score for r in records[-3:])
        ledger.append(BLEU().segment_stats(["a"], [["a"]]), "after", "toy")  # and writable
        assert ledger.records()[-1].system == "after"


def _tables(db: Database) -> list[tuple[str, ...]]:
    """Every table of the database, with its rows when it is ``meta``: what must not change."""
    if db.dialect is SQLITE:
        names = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    else:
        names = db.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
    found = sorted(str(name) for (name,) in names)
    return [tuple(found), *(db.execute("SELECT * FROM meta") if "meta" in found else [])]


def test_an_old_ledger_is_migrated_and_a_newer_one_refused_untouched(new_ledger: NewLedger) -> None:
    empty = new_ledger("empty")  # version 0: a database with nothing in it
    with Ledger(empty) as ledger:
        assert ledger.records() == []
    with _raw(empty) as raw:
        assert raw.execute("SELECT value FROM meta") == [(str(SCHEMA_VERSION),)]
    newer = new_ledger("newer")
    with _raw(newer) as raw:
        raw.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        raw.execute("INSERT INTO meta VALUES ('schema_version', '99')")
        before = _tables(raw)
    with pytest.raises(LedgerError, match="schema version 99, newer than this understudy's"):
        Ledger(newer)
    with _raw(newer) as raw:
        assert _tables(raw) == before == [("meta",), ("schema_version", "99")]
    if not newer.startswith("postgresql://"):
        with sqlite3.connect(newer) as check:  # not even the journal mode changed
            assert check.execute("PRAGMA journal_mode").fetchone() == ("delete",)


@contextmanager
def _raw(location: str) -> Iterator[Database]:
    """A ledger's database opened without the ledger (no migration), closed on leaving."""
    db = open_database(location, timeout=10)
    try:
        yield db
    finally:
        db.close()


def test_the_file_follows_the_umask_and_the_default_location(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = os.umask(0o077)
    try:
        Ledger(tmp_path / "private" / "l.sqlite").close()
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "private" / "l.sqlite").stat().st_mode)
    assert mode & 0o077 == 0 and not mode & stat.S_IWOTH
    with pytest.raises(ConfigError) as refused:
        Ledger("mysql://alice:s3cret@db.example:5432/scores")
    assert "s3cret" not in str(refused.value) and "alice:***@db.example" in str(refused.value)
    monkeypatch.setenv(LEDGER_ENV, str(tmp_path / "env.sqlite"))
    assert default_location() == str(tmp_path / "env.sqlite")
    monkeypatch.delenv(LEDGER_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_location() == str(tmp_path / "data" / "understudy" / "ledger.sqlite")


def test_a_postgresql_password_is_never_printed_nor_kept(
    postgres: Server, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support.cli import run_cli

    url = postgres.database()
    wrong = url.replace(url.split(":")[2].split("@")[0], "wr0ng-pw-x")
    with pytest.raises(LedgerError) as refused:
        Ledger(wrong)
    assert "wr0ng-pw-x" not in str(refused.value) and "understudy:***@127.0.0.1" in str(refused.value)
    ref, system = str(SAMPLE / "newstest2017.ref.en-de.de"), str(SAMPLE / "newstest2017.online-A.0.en-de.de")
    code, out, err = run_cli(capfd, "score", ref, "-i", system, "-b", "--log", "--ledger", url)
    assert code == 0 and "kept record 1 in postgresql://understudy:***@127.0.0.1" in err
    monkeypatch.setenv(LEDGER_ENV, url)  # every subcommand honours it
    code, out, err = run_cli(capfd, "ledger", "list", "-f", "json")
    (record,) = json.loads(out)
    assert "--ledger postgresql://understudy:***@127.0.0.1" in record["command"]
    code, wrong_out, wrong_err = run_cli(capfd, "ledger", "list", "--ledger", wrong)
    assert code == 1 and wrong_err.startswith("understudy: error: ledger postgresql://understudy:***@")
    everything = out + err + wrong_out + wrong_err + str(refused.value)
    for secret in (PASSWORD, url.split(":")[2].split("@")[0], "wr0ng-pw-x"):
        assert secret not in everything


def test_a_postgresql_server_missing_or_lost_is_a_one_line_error(
    postgres: Server, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.support import postgres_server
    from tests.support.cli import run_cli

    nobody = postgres.url().replace(f":{postgres.port}/", f":{postgres_server.free_port()}/")
    with pytest.raises(LedgerError, match=r"Connection refused|connection failed"):
        Ledger(nobody, timeout=5)
    code, out, err = run_cli(capsys, "ledger", "list", "--ledger", nobody)
    assert (
        code == 1
        and out == ""
        and err.startswith("understudy: error: ledger postgresql://")
        and err.count("\n") == 1
    )
    lost = postgres_server.start()  # a server of its own, to be stopped under an open ledger
    try:
        ledger = Ledger(lost.database())
        ledger.append(BLEU().segment_stats(["a b"], [["a b"]]), "s", "toy")
    finally:
        lost.stop()
    with pytest.raises(LedgerError, match=r"ledger postgresql://understudy:\*\*\*@127\.0\.0\.1"):
        ledger.records()
    with pytest.raises(LedgerError):
        ledger.append(BLEU().segment_stats(["a b"], [["a b"]]), "s", "toy")
    ledger.close()
    monkeypatch.setitem(sys.modules, "psycopg", None)  # the 'ledger' extra not installed
    with pytest.raises(MissingExtraError, match=r"pip install 'understudy-mt\[ledger\]'"):
        Ledger(postgres.url())


def test_score_log_then_list_show_and_compare(
    new_ledger: NewLedger, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support.cli import run_cli

    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    systems = [str(SAMPLE / f"newstest2017.{n}.en-de.de") for n in ("uedin-nmt.4722", "online-A.0")]
    ledger = ["--ledger", new_ledger()]
    code, out, err = run_cli(
        capsys,
        "score",
        ref,
        "-i",
        *systems,
        "-m",
        "bleu",
        "chrf",
        "-b",
        "--log",
        *ledger,
        "--tag",
        "demo",
        "--tag",
        "run-1",
        "--note",
        "first",
    )
    assert code == 0 and "kept records 1-4" in err
    printed = [float(x) for x in out.split()]  # per system, BLEU then chrF
    code, out, _ = run_cli(capsys, "ledger", "list", *ledger, "-m", "bleu", "-f", "json")
    records = json.loads(out)
    assert [r["system"] for r in records] == [os.path.basename(s) for s in systems]  # the files' names
    assert [r["score"] for r in records] == [BLEU().corpus_score(*_texts(s, ref)).score for s in systems]
    assert [round(r["score"], 1) for r in records] == printed[::2]
    assert all(
        r["tags"] == ["demo", "run-1"] and r["note"] == "first" and r["segments"] == 3004 for r in records
    )
    assert records[0]["testset"].startswith("sha256:") and records[0]["hypotheses"].startswith("sha256:")
    assert "--log" in records[0]["command"]
    code, out, _ = run_cli(capsys, "ledger", "show", "3", *ledger, "-f", "json")
    assert json.loads(out)["metric"] == "chrf"
    code, out, _ = run_cli(capsys, "ledger", "compare", "1", "2", *ledger, "-f", "json")
    result = json.loads(out)
    assert code == 0 and result["systems"][0]["p_value"] <= 0.05
    code, _, err = run_cli(capsys, "ledger", "compare", "1", "3", *ledger)
    assert code != 0 and "different metrics (bleu, chrf)" in err and err.count("\n") == 1
    code, _, err = run_cli(capsys, "score", ref, "-i", systems[0], "-sl", "--log", *ledger)
    assert code != 0 and "--log keeps corpus results" in err


def test_compare_and_report_log_what_they_scored(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("jinja2")
    from tests.support.cli import run_cli

    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    systems = [str(SAMPLE / f"newstest2017.{n}.en-de.de") for n in ("uedin-nmt.4722", "online-A.0")]
    ledger = ["--ledger", str(tmp_path / "l.sqlite")]
    code, _, err = run_cli(
        capsys, "compare", ref, "-i", *systems, "-m", "bleu", "--log", "--tag", "c", *ledger
    )
    assert code == 0 and "kept records 1-2" in err, err
    page = str(tmp_path / "r.html")
    code, _, err = run_cli(
        capsys,
        "report",
        ref,
        "-i",
        *systems,
        "-m",
        "bleu",
        "chrf",
        "-o",
        page,
        "-n",
        "50",
        "--log",
        "--tag",
        "r",
        *ledger,
    )
    assert code == 0 and "kept records 3-6" in err, err
    with Ledger(ledger[1]) as kept:
        by_tag = {tag: kept.records(tag=tag) for tag in ("c", "r")}
        names = [os.path.basename(s) for s in systems]
        assert [(r.system, r.metric) for r in by_tag["c"]] == [(s, "bleu") for s in names]
        assert [(r.system, r.metric) for r in by_tag["r"]] == [
            (s, m) for m in ("bleu", "chrf") for s in names
        ]
        texts = _texts(systems[0], ref)
        assert kept.get(1).score == kept.get(3).score == BLEU().corpus_score(*texts).score
        assert np.array_equal(kept.stats(1).rows, kept.stats(3).rows)
        assert all(
            r.testset == by_tag["c"][0].testset and r.testset.startswith("sha256:") for r in kept.records()
        )
    code, _, err = run_cli(capsys, "report", "--records", "1", "2", "-o", page, "--log", *ledger)
    assert code != 0 and "--log cannot be given with it" in err
    code, _, err = run_cli(capsys, "compare", "--scores", "A=x", "B=y", "--log", *ledger)
    assert code != 0 and "--log keeps records of a test set" in err


def _texts(system: str, ref: str) -> tuple[list[str], list[list[str]]]:
    from understudy.inputs.files import read_lines

    return read_lines(system), [read_lines(ref)]


def _version_1_ledger(location: str, stats_bytes: bytes) -> None:
    """A ledger as version 1 of the schema wrote it, with one record, made with version 1's SQL."""
    with _raw(location) as raw:
        raw.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        for statement in statements(0, raw.dialect):
            raw.execute(statement)
        raw.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        raw.execute(
            "INSERT INTO records (created, system, metric, signature, testset, hypotheses, score, segments, "
            "stats, command, note, revision) VALUES ('2026-01-01T00:00:00+00:00', 'old', 'bleu', "
            "'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|ngram:4|version:understudy-0.1.0', 'toy', '', "
            "100.0, 1, ?, '', '', '')",
            (stats_bytes,),
        )
        raw.execute("INSERT INTO tags VALUES (1, 'v1')")


def test_a_version_1_ledger_is_migrated_with_its_records(new_ledger: NewLedger) -> None:
    stats = BLEU().segment_stats(["a b c d"], [["a b c d"]])
    path = new_ledger("v1")
    _version_1_ledger(path, stats.to_bytes())
    with Ledger(path) as ledger:
        (old,) = ledger.records()
        assert (old.system, old.tags, old.score) == ("old", ("v1",), 100.0)  # as version 1 wrote them
        assert np.array_equal(ledger.stats(old.id).rows, stats.rows)
        assert len(old.uid) == 32 and int(old.uid, 16) >= 0  # given one by the migration
        ledger.append(stats, "new", "toy")
        assert len({r.uid for r in ledger.records()}) == 2
    with _raw(path) as raw:
        assert raw.execute("SELECT value FROM meta") == [(str(SCHEMA_VERSION),)]


def _import_round(a: Ledger, b: Ledger) -> None:
    hyps, refs = ["the cat sat", "a dog"], [["the cat sat down", "a dog barked"]]
    a.append(BLEU().segment_stats(hyps, refs), "x", "toy", tags=["t1", "t2"], note=AWKWARD[2])
    b.append(BLEU().segment_stats(hyps[::-1], refs), "y", "toy")
    assert b.import_records(a) == (1, 0)
    assert b.import_records(a) == (0, 1)  # idempotent
    a.append(BLEU().segment_stats(hyps, refs), "z", "toy")
    assert b.import_records(a) == (1, 1)
    copied = {r.uid: r for r in b.records()}
    for record in a.records():
        mine = copied[record.uid]
        assert dataclasses.replace(mine, id=record.id) == record
        assert np.array_equal(b.stats(mine.id).rows, a.stats(record.id).rows)


def test_import_adds_each_record_once_and_keeps_everything(new_ledger: NewLedger) -> None:
    with Ledger(new_ledger("a")) as a, Ledger(new_ledger("b")) as b:
        _import_round(a, b)


def test_records_move_between_sqlite_and_postgresql_unchanged(postgres: Server, tmp_path: Path) -> None:
    with Ledger(tmp_path / "a.sqlite") as lite, Ledger(postgres.database()) as team:
        _import_round(lite, team)
        assert lite.import_records(team) == (1, 2)  # and back: team's own record joins the file's two
        assert sorted(lite.records(), key=lambda r: r.uid) == sorted(
            (
                dataclasses.replace(r, id=mine.id)
                for r in team.records()
                for mine in lite.records()
                if mine.uid == r.uid
            ),
            key=lambda r: r.uid,
        )


def test_history_and_export_on_the_command_line(
    new_ledger: NewLedger, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from understudy.significance import bootstrap_ci

    from tests.support.cli import run_cli

    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    ledger = ["--ledger", new_ledger()]
    for name in ("uedin-nmt.4722", "online-A.0"):
        system = str(SAMPLE / f"newstest2017.{name}.en-de.de")
        code, _, err = run_cli(capsys, "score", ref, "-i", system, "-b", "--log", "--tag", "run", *ledger)
        assert code == 0, err
    code, out, _ = run_cli(capsys, "ledger", "history", "tag:run", "-n", "200", "-f", "json", *ledger)
    points = json.loads(out)
    with Ledger(new_ledger()) as kept:
        want = [bootstrap_ci(kept.stats(p["id"]), 200).system for p in points]
    assert [(p["mean"], p["ci"]) for p in points] == [(w.mean, w.ci) for w in want]
    code, _, _ = run_cli(capsys, "ledger", "export", str(tmp_path / "all.jsonl"), *ledger)
    lines = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [line["id"] for line in lines] == [1, 2]
    assert Stats.from_bytes(base64.b64decode(lines[0]["stats"])).score().score == lines[0]["score"]
    code, _, _ = run_cli(capsys, "ledger", "export", str(tmp_path / "all.csv"), *ledger)
    with open(tmp_path / "all.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [row["id"] for row in rows] == ["1", "2"] and [json.loads(row["tags"]) for row in rows] == [
        ["run"]
    ] * 2
    assert [{k: v for k, v in row.items() if k not in ("tags",)} for row in rows] == [
        {k: str(v) for k, v in line.items() if k not in ("tags",)} for line in lines
    ]  # the JSON Lines' values, every one, as CSV text
    code, _, err = run_cli(capsys, "ledger", "import", new_ledger(), "--ledger", new_ledger("m"))
    assert code == 0 and "2 record(s) added, 0 already there" in err
    code, _, err = run_cli(capsys, "ledger", "import", str(tmp_path / "none.sqlite"), *ledger)
    assert code == 1 and "none.sqlite: no such ledger" in err
    assert not (tmp_path / "none.sqlite").exists()


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


def test_a_ledger_of_schema_2_keys_its_given_metrics_by_name_when_migrated(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    stats = GivenScores({"A": [0.5, 0.25]}, "COMET-22").segment_stats("A")
    old_signature = str(stats.signature).replace("|prec:", "|file:a.tsv|sha256:ab12|prec:")
    _old_ledger(path, [("scores", old_signature, stats.to_bytes())])
    with Ledger(path) as ledger:
        (record,) = ledger.records(metric="COMET-22")
        assert record.signature == str(stats.signature)
        assert ledger.stats(record.id).score() == stats.score()


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
    done = run_process("gate", "--baseline", "tag:release", "--candidate", "tag:nightly", "--ledger", main)
    assert done.returncode == 1, done.stdout + done.stderr  # the far-worse nightly, not the older import


def test_references_from_a_pipe_are_hashed_as_read(tmp_path: Path) -> None:
    ledger = str(tmp_path / "l.sqlite")
    for ref in (REF, UEDIN):  # two different "references", each through a pipe
        shell = f'"{sys.executable}" -m understudy score <(cat "{ref}") -i "{ONLINE_A}" -b --log'
        shell += f' --ledger "{ledger}"'
        done = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    with Ledger(ledger) as kept:
        first, second = kept.records()
    digest = hashlib.sha256(hashlib.sha256(REF.read_bytes()).digest()).hexdigest()
    assert first.testset == f"sha256:{digest}" and second.testset != first.testset
    assert (
        first.hypotheses
        == "sha256:" + hashlib.sha256(hashlib.sha256(ONLINE_A.read_bytes()).digest()).hexdigest()
    )


def test_a_fifo_system_is_scored_and_logged_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "hyp.fifo"
    os.mkfifo(fifo)
    data = ONLINE_A.read_bytes()

    def feed() -> None:
        with open(fifo, "wb") as fh:
            fh.write(data)

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done = run_process(
        "score", str(REF), "-i", str(fifo), "-b", "--log", "--ledger", str(tmp_path / "l.sqlite")
    )
    writer.join(timeout=10)
    assert done.returncode == 0, done.stderr
    with Ledger(str(tmp_path / "l.sqlite")) as kept:
        (record,) = kept.records()
    assert record.hypotheses == "sha256:" + hashlib.sha256(hashlib.sha256(data).digest()).hexdigest()


def test_until_takes_in_its_day_in_either_iso_form_and_the_last_day_of_the_calendar() -> None:
    ledger = Ledger(":memory:")
    ledger.append(BLEU().segment_stats(["a b c"], [["a b c"]]), "s", "toy")
    today = ledger.records()[0].created[:10]
    assert len(ledger.records(until=today)) == 1
    assert len(ledger.records(until=today.replace("-", ""))) == 1
    assert len(ledger.records(until="9999-12-31")) == 1


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
        # Unencoded quotes and spaces, bare and as shlex.join quotes them in a kept command line.
        ("ledger postgresql://u:it's@h/db: refused", ["it's", "s@h"]),
        ('postgresql://u:say "hi"@h:5432/db', ["say", "hi"]),
        ("postgresql://u:two words@h/db?x=1", ["two", "words"]),
        (
            shlex.join(["understudy", "--ledger", "postgresql://u:Zit's QQ\"Wx@h/db", "-i", "a"]),
            ["Zit", "QQ", "Wx"],
        ),
    ],
)
def test_every_password_form_libpq_accepts_is_redacted(text: str, secrets: list[str]) -> None:
    shown = redacted(text)
    assert "***" in shown and not any(secret in shown for secret in secrets)


def test_a_password_with_quotes_and_spaces_is_hidden_in_errors_records_and_pages(
    postgres: Server, capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from tests.support.cli import run_cli

    url = postgres.database()
    odd = 'it\'s a "pw" x'
    wrong = url.replace(url.split(":")[2].split("@")[0], odd)
    with pytest.raises(LedgerError) as refused:
        Ledger(wrong)
    code, out, err = run_cli(capfd, "ledger", "list", "--ledger", wrong)
    assert code == 1 and err.startswith("understudy: error: ledger postgresql://understudy:***@")
    # A run kept with the password in its command line (a kept, right URL elsewhere).
    ref, system = str(SAMPLE / "newstest2017.ref.en-de.de"), str(SAMPLE / "newstest2017.online-A.0.en-de.de")
    kept = str(tmp_path / "l.sqlite")
    code, _, logged = run_cli(
        capfd, "score", ref, "-i", system, "-b", "--log", "--ledger", kept, "--note", wrong
    )
    assert code == 0, logged
    code, shown, _ = run_cli(capfd, "ledger", "show", "1", "--ledger", kept)
    assert code == 0 and "postgresql://understudy:***@" in shown
    code, _, _ = run_cli(capfd, "site", "--ledger", kept, "-o", str(tmp_path / "site"))
    pages = "".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    assert code == 0 and "understudy:***@" in pages.replace("&#34;", '"')
    for text in (str(refused.value), out, err, logged, shown, pages):
        for piece in ("it's", "pw", "it&#39;s"):
            assert piece not in text


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
    done = run_process("score", str(REF), "-i", str(ONLINE_A), "-b", "--log", "--ledger", in_query)
    assert done.returncode == 0, done.stderr
    with Ledger(url) as ledger:
        (record,) = ledger.records()
    assert password not in record.command and password not in done.stderr and "password=***" in record.command


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
    done = run_process("ledger", "import", str(source), "--ledger", target)
    assert done.returncode == 0, done.stderr
    assert source.read_bytes() == before and not Path(f"{source}-wal").exists()
    with Ledger(target) as ledger:
        assert [r.metric for r in ledger.records()] == ["COMET-22"]
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as raw:
        raw.execute("CREATE TABLE t (x)")
    before = other.read_bytes()
    refused = run_process("ledger", "import", str(other), "--ledger", target)
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
    done = run_process("gate", "--baseline", "ledger:1", "--candidate", f"ledger:{huge}", "--ledger", ledger)
    assert done.returncode == 2 and f"no record {huge}" in done.stderr and "Traceback" not in done.stderr


def test_a_system_file_whose_name_is_not_utf8_is_kept(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/caf\xe9.de"
    with open(name, "wb") as fh:
        fh.write(ONLINE_A.read_bytes())
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


def test_systems_are_kept_by_their_file_name_or_as_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: the path typed named the system, so the same bytes typed from two folders were two
    # systems; a test set of files was a hash alone, and -l's pair was not kept.
    from tests.support.cli import run_cli
    from tests.support.paths import ONLINE_A, REF, UEDIN

    ledger = ["--ledger", str(tmp_path / "l.sqlite")]
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / ONLINE_A.name).write_bytes(ONLINE_A.read_bytes())
        status, _, err = run_cli(
            capsys, "score", str(REF), "-i", str(tmp_path / folder / ONLINE_A.name), "--log", *ledger
        )
        assert status == 0, err
    twin = tmp_path / "b" / UEDIN.name
    twin.write_bytes(UEDIN.read_bytes())
    status, _, err = run_cli(capsys, "score", str(REF), "-i", str(UEDIN), str(twin), "--log", *ledger)
    assert status == 0, err  # two files named alike in one run: kept under the paths typed
    named = ["--name", "base", "--name", "cand", "--testset-name", "news-dev", "-l", "en-de"]
    status, _, err = run_cli(
        capsys, "score", str(REF), "-i", str(UEDIN), str(ONLINE_A), "--log", *ledger, *named
    )
    assert status == 0, err
    with Ledger(tmp_path / "l.sqlite") as kept:
        records = kept.records()
    assert [r.system for r in records] == [
        ONLINE_A.name,
        ONLINE_A.name,
        str(UEDIN),
        str(twin),
        "base",
        "cand",
    ]
    assert records[0].hypotheses == records[1].hypotheses  # the same bytes: one system, one hash
    (digest,) = {r.testset for r in records[:4]}
    assert digest.startswith("sha256:") and len(digest) == 7 + 64
    assert {r.testset for r in records[4:]} == {"news-dev:en-de"}
    status, _, err = run_cli(
        capsys, "score", str(REF), "-i", str(UEDIN), "--log", *ledger, "--name", "x", "--name", "y"
    )
    assert (
        status == 1
        and "--name names each system once, in -i order: 1 systems, 2" in err
        and err.count("\n") == 1
    )
