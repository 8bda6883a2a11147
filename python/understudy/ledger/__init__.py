"""The score ledger: results kept with their signatures and statistics, in SQLite.

Each record is one metric's per-segment statistics of one system on one test set, with the
signature, the score, the time and what the user adds (tags, a note, a revision). The rows
rebuild the score and any significance test later, without the text; two records are compared
only when their signatures, test sets and segment counts agree, and the refusal says what differs.

>>> from understudy import BLEU
>>> ledger = Ledger(":memory:")
>>> refs = [["the cat sat on the mat", "a dog barked"]]
>>> bleu = BLEU(references=refs)
>>> base = ["the cat sat on a mat", "a dog barked"]
>>> first = ledger.append(bleu.segment_stats(base), "base", "toy")
>>> new = ["the cat sat on the mat", "a dog"]
>>> second = ledger.append(bleu.segment_stats(new), "new", "toy", tags=["ckpt-2"])
>>> [(r.id, r.system, r.tags) for r in ledger.records()]
[(1, 'base', ()), (2, 'new', ('ckpt-2',))]
>>> ledger.get(first).score == bleu.corpus_score(base).score
True
>>> intl = ledger.append(BLEU(tokenize="intl").segment_stats(base, refs), "base", "toy")
>>> ledger.check_comparable(first, intl)
Traceback (most recent call last):
...
understudy.errors.IncomparableError: records 1 and 3 differ in the signature's tok: 13a against intl; ...
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import Any

from understudy.errors import ConfigError, IncomparableError, InputTypeError, LedgerError
from understudy.ledger.schema import check_version, migrate
from understudy.signature import Signature
from understudy.stats import Stats

LEDGER_ENV = "UNDERSTUDY_LEDGER"
"""The environment variable naming the ledger every command uses unless told another."""


def default_location() -> str:
    """``$UNDERSTUDY_LEDGER``, else ``ledger.sqlite`` in understudy's folder of the user's data
    directory (``$XDG_DATA_HOME``, else ``~/.local/share``)."""
    named = os.environ.get(LEDGER_ENV)
    if named:
        return named
    data = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return str(data / "understudy" / "ledger.sqlite")


@dataclass(frozen=True)
class Record:
    """One ledger record, without its statistics (:meth:`Ledger.stats` reads those)."""

    id: int
    created: str
    """When it was appended (UTC, ISO 8601)."""
    system: str
    metric: str
    signature: str
    testset: str
    """The test set's name (``wmt17:en-de``) or ``sha256:`` of the reference files."""
    hypotheses: str
    """``sha256:`` of the system's output (empty when not given)."""
    score: float
    segments: int
    command: str
    note: str
    revision: str
    uid: str = ""
    """The record's id across ledgers (importing a ledger twice adds its records once)."""
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class HistoryPoint:
    """A record of :meth:`Ledger.history`, with its resampled mean and 95% interval (±)."""

    record: Record
    mean: float
    ci: float


_FIELDS = ("id", "created", "system", "metric", "signature", "testset", "hypotheses", "score", "segments")
_COLUMNS = ", ".join((*_FIELDS, "command", "note", "revision", "uid"))


class Ledger:
    """A ledger in a SQLite file (``location``; ``:memory:`` for one held in memory), created
    with its folder when missing and migrated to this package's schema on open."""

    def __init__(self, location: str | PathLike[str] | None = None, timeout: float = 60.0) -> None:
        where = str(default_location() if location is None else location)
        if "://" in where:
            raise ConfigError(f"ledger {_redacted(where)}: only SQLite files are supported so far")
        try:
            if where != ":memory:":
                Path(where).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(where, timeout=timeout, isolation_level=None)
        except (sqlite3.Error, OSError) as err:
            raise LedgerError(f"ledger {where}: {err}") from err
        try:
            self._db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            check_version(self._db)
            if where != ":memory:":
                # Readers never wait for a writer; a killed writer's partial transaction is rolled back.
                self._db.execute("PRAGMA journal_mode = WAL")
            migrate(self._db)
        except (sqlite3.Error, LedgerError) as err:
            self._db.close()
            if isinstance(err, LedgerError):
                raise
            raise LedgerError(f"ledger {where}: {err}") from err
        self.location = where

    def close(self) -> None:
        """Close the ledger's connection."""
        self._db.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def append(
        self,
        stats: Stats[Any, Any],
        system: str,
        testset: str,
        *,
        hypotheses: str = "",
        tags: Iterable[str] = (),
        note: str = "",
        command: str = "",
        revision: str = "",
    ) -> int:
        """Keep ``stats`` (one system's statistics) as a new record; its id. All or nothing: a
        record is either whole in the ledger or absent."""
        if not isinstance(stats, Stats) or len(stats) == 0:
            raise InputTypeError("the ledger keeps the statistics of at least one segment (a Stats)")
        given = {"system": system, "testset": testset, "hypotheses": hypotheses, "command": command}
        given |= {"note": note, "revision": revision}
        row: dict[str, object] = {name: _text(name, value) for name, value in given.items()}
        row |= {
            "created": datetime.now(UTC).isoformat(timespec="microseconds"),
            "metric": stats.metric,
            "signature": str(stats.signature),
            "score": float(stats.score().score),
            "segments": len(stats),
            "stats": stats.to_bytes(),
        }
        row["uid"] = uuid.uuid4().hex
        with self._transaction() as db:
            return self._insert(db, row, [_text("tag", tag) for tag in tags])

    @staticmethod
    def _insert(db: sqlite3.Connection, row: dict[str, object], tags: list[str]) -> int:
        columns = ", ".join(row)
        cursor = db.execute(
            f"INSERT INTO records ({columns}) VALUES ({', '.join('?' * len(row))})", list(row.values())
        )
        record = cursor.lastrowid
        assert record is not None
        db.executemany("INSERT OR IGNORE INTO tags VALUES (?, ?)", [(record, tag) for tag in tags])
        return record

    def import_records(self, source: Ledger) -> tuple[int, int]:
        """Copy every record of ``source`` this ledger lacks (told by :attr:`Record.uid`), with
        its time, tags and statistics, in one transaction; ``(added, already here)``."""
        fields = [f for f in _COLUMNS.split(", ") if f != "id"]
        added = present = 0
        with self._transaction() as db:
            known = {uid for (uid,) in db.execute("SELECT uid FROM records")}
            for record in source.records():
                if record.uid in known:
                    present += 1
                    continue
                row: dict[str, object] = {f: getattr(record, f) for f in fields}
                (row["stats"],) = source._db.execute(
                    "SELECT stats FROM records WHERE id = ?", (record.id,)
                ).fetchone()
                self._insert(db, row, list(record.tags))
                known.add(record.uid)
                added += 1
        return added, present

    def records(
        self,
        system: str | None = None,
        tag: str | None = None,
        metric: str | None = None,
        testset: str | None = None,
    ) -> list[Record]:
        """The records matching every filter given, oldest first."""
        where, args = [], []
        for column, value in (("system", system), ("metric", metric), ("testset", testset)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(_text(column, value))
        if tag is not None:
            where.append("id IN (SELECT record FROM tags WHERE tag = ?)")
            args.append(_text("tag", tag))
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM records{clause} ORDER BY id", args).fetchall()
        tags: dict[int, list[str]] = {}
        for record, name in self._db.execute("SELECT record, tag FROM tags ORDER BY tag"):
            tags.setdefault(record, []).append(name)
        return [replace(Record(*row), tags=tuple(tags.get(row[0], ()))) for row in rows]

    def get(self, record: int) -> Record:
        """The record ``record``, or a :class:`LedgerError` saying there is none."""
        row = self._db.execute(f"SELECT {_COLUMNS} FROM records WHERE id = ?", (record,)).fetchone()
        if row is None:
            raise LedgerError(f"the ledger {self.location} has no record {record}")
        tags = [
            t for (t,) in self._db.execute("SELECT tag FROM tags WHERE record = ? ORDER BY tag", (record,))
        ]
        return replace(Record(*row), tags=tuple(tags))

    def stats(self, record: int) -> Stats[Any, Any]:
        """The statistics record ``record`` keeps, exactly as appended."""
        self.get(record)
        (data,) = self._db.execute("SELECT stats FROM records WHERE id = ?", (record,)).fetchone()
        return Stats.from_bytes(data, f"ledger record {record}")

    def history(
        self, system: str | None = None, tag: str | None = None, metric: str | None = None, n: int = 1000
    ) -> list[HistoryPoint]:
        """The records of a system or a tag (and a metric), oldest first, each with the mean and
        95% interval of ``n`` bootstrap resamples of its rows (sacrebleu's ``--confidence``)."""
        from understudy.significance import bootstrap_ci

        points = []
        for record in self.records(system=system, tag=tag, metric=metric):
            found = bootstrap_ci(self.stats(record.id), n).system
            assert found.mean is not None and found.ci is not None
            points.append(HistoryPoint(record, found.mean, found.ci))
        return points

    def check_comparable(self, first: int, second: int) -> None:
        """Refuse to compare two records whose signatures, test sets or segment counts differ,
        saying which parameter differs, both values, and how to get comparable results."""
        a, b = self.get(first), self.get(second)
        if a.metric != b.metric:
            metrics = f"({a.metric}, {b.metric})"
            raise IncomparableError(f"records {a.id} and {b.id} are of different metrics {metrics}")
        if a.testset != b.testset or a.segments != b.segments:
            raise IncomparableError(
                f"records {a.id} and {b.id} are of different test sets ({a.testset}, {a.segments} "
                f"segments; {b.testset}, {b.segments} segments): score both systems on one test set"
            )
        left, right = dict(Signature.parse(a.signature).items()), dict(Signature.parse(b.signature).items())
        for key in dict.fromkeys([*left, *right]):
            if left.get(key) != right.get(key):
                raise IncomparableError(
                    f"records {a.id} and {b.id} differ in the signature's {key}: {left.get(key, '(none)')} "
                    f"against {right.get(key, '(none)')}; score both with the same options to compare them"
                )


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InputTypeError(f"the ledger's {name} is text, not {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputTypeError(f"the ledger's {name} is not valid Unicode text ({err.reason})") from err
    return value


def _redacted(url: str) -> str:
    """A database URL without its password."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not at:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}{sep}{user}:***@{host}"


__all__ = ["LEDGER_ENV", "HistoryPoint", "Ledger", "Record", "default_location"]
