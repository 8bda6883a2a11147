"""The :class:`Ledger`: records kept with their signatures and statistics, appended, queried,
compared and gated (``understudy.ledger`` exports it; see its docstring for an example)."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from os import PathLike
from typing import TYPE_CHECKING, Any

from understudy.config import check_number
from understudy.errors import IncomparableError, InputTypeError, LedgerError
from understudy.ledger.database import SQLITE, Database, open_database, write_ahead
from understudy.ledger.location import default_location
from understudy.ledger.schema import check_version, current_form, migrate, readable
from understudy.ledger.secrets import redacted
from understudy.seeding import DEFAULT_SEED
from understudy.signature import Signature
from understudy.significance import PairedResult, Test, paired_test
from understudy.stats import Stats

if TYPE_CHECKING:
    from understudy.gate import GateResult


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
    with its folder when missing, or in a PostgreSQL database (a ``postgresql://`` URL, with the
    ``ledger`` extra); migrated to this package's schema on open.

    ``read_only`` opens an existing ledger for reading alone: nothing is created, migrated or
    written (a ledger on read-only media, or another team's ledger being imported from); one
    of an older schema is read through a migrated copy in memory.
    """

    def __init__(
        self, location: str | PathLike[str] | None = None, timeout: float = 60.0, *, read_only: bool = False
    ) -> None:
        where = str(default_location() if location is None else location)
        timeout = check_number(timeout, "the ledger's timeout")
        self._db = open_database(where, timeout, read_only=read_only)
        self.read_only = read_only
        """Whether the ledger was opened for reading alone."""
        try:
            if read_only:
                self._db = readable(self._db)
            else:
                check_version(self._db)
                if self._db.dialect is SQLITE and where != ":memory:":
                    write_ahead(self._db, timeout)
                migrate(self._db)
        except LedgerError:
            self._db.close()
            raise
        self.location = self._db.location
        """Where the ledger is, printable (a URL without its password)."""

    def close(self) -> None:
        """Close the ledger's connection."""
        self._db.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def append(
        self,
        stats: Stats[Any, Any],
        system: str,
        testset: str,
        *,
        hypotheses: str = "",
        tags: Iterable[str] | str = (),
        note: str = "",
        command: str = "",
        revision: str = "",
        extras: Sequence[tuple[str, str]] = (),
    ) -> int:
        """Keep ``stats`` (one system's statistics) as a new record; its id. All or nothing: a
        record is either whole in the ledger or absent. ``tags``: texts (one text is one tag);
        ``extras``: signature keys of what was done to the inputs (``gran``, ``reseg``)."""
        fields = {"tags": tags, "note": note, "command": command, "revision": revision, "extras": extras}
        return self.append_many([(stats, system, testset, hypotheses)], **fields)[0]

    @staticmethod
    def _row(
        stats: Stats[Any, Any],
        system: str,
        testset: str,
        hypotheses: str,
        *,
        tags: Iterable[str] | str = (),
        note: str = "",
        command: str = "",
        revision: str = "",
        extras: Sequence[tuple[str, str]] = (),
    ) -> dict[str, object]:
        """A record's row, every value checked before anything is written. Its signature holds
        ``extras`` (``gran:document``), so records of inputs reshaped otherwise never compare."""
        if not isinstance(stats, Stats) or len(stats) == 0:
            raise InputTypeError("the ledger keeps the statistics of at least one segment (a Stats)")
        # Free text a user typed may hold a ledger's URL: no password is ever kept.
        given = {"system": system, "testset": testset, "hypotheses": hypotheses, "command": redacted(command)}
        given |= {"note": redacted(note), "revision": revision}
        row: dict[str, object] = {name: _text(name, value) for name, value in given.items()}
        return row | {
            "created": datetime.now(UTC).isoformat(timespec="microseconds"),
            "metric": stats.config.key,
            "signature": str(stats.signature.with_extras(list(extras))),
            "score": float(stats.score().score),
            "segments": len(stats),
            "stats": stats.to_bytes(),
            "uid": uuid.uuid4().hex,
        }

    def append_many(
        self, entries: Iterable[tuple[Stats[Any, Any], str, str, str]], **fields: Any
    ) -> list[int]:
        """Keep several records in one transaction, all or none (a run's records): ``entries``
        are ``(stats, system, testset, hypotheses)``; ``fields`` (``tags``, ``note``, ``command``,
        ``revision``, ``extras``) are every record's. Their ids, in order.

        >>> from understudy import BLEU
        >>> ledger = Ledger(":memory:")
        >>> stats = BLEU().segment_stats(["a b c"], [["a b d"]])
        >>> ledger.append_many([(stats, "A", "toy", ""), (stats, "B", "toy", "")], tags="run-7")
        [1, 2]
        >>> ledger.get(2).tags
        ('run-7',)
        """
        if self.read_only:
            raise LedgerError(f"the ledger {self.location} was opened for reading alone")
        rows = [self._row(*entry, **fields) for entry in entries]
        named = _tags(fields.get("tags", ()))
        with self._db.transaction() as db:
            ids = [_insert(db, row, named) for row in rows]
        return [record for record in ids if record is not None]

    def import_records(self, source: Ledger) -> tuple[int, int]:
        """Copy every record of ``source`` this ledger lacks (told by :attr:`Record.uid`), with
        its time, tags and statistics, in one transaction; ``(added, already here)``."""
        if self.read_only:
            raise LedgerError(f"the ledger {self.location} was opened for reading alone")
        fields = [f for f in _COLUMNS.split(", ") if f != "id"]
        added = present = 0
        with self._db.transaction() as db:
            known = {uid for (uid,) in db.execute("SELECT uid FROM records")}
            for record in source.records():
                row: dict[str, object] = {f: getattr(record, f) for f in fields}
                row["metric"], row["signature"] = current_form(record.metric, record.signature)
                row["stats"] = source.stats_bytes(record.id)
                if record.uid in known or _insert(db, row, list(record.tags)) is None:
                    present += 1  # here before, or put here meanwhile by another import
                    continue
                known.add(record.uid)
                added += 1
        return added, present

    def records(
        self,
        system: str | None = None,
        tag: str | None = None,
        metric: str | None = None,
        testset: str | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> list[Record]:
        """The records matching every filter given, oldest first. ``since`` and ``until`` are ISO
        dates or times (UTC unless they say otherwise); a date alone as ``until`` takes in its day."""
        where, args = [], []
        for column, value in (("system", system), ("metric", metric), ("testset", testset)):
            if value is not None:
                # A metric is named in any case (bleu, BLEU; COMET-22, comet-22).
                where.append(f"lower({column}) = lower(?)" if column == "metric" else f"{column} = ?")
                args.append(_text(column, value))
        if tag is not None:
            where.append("id IN (SELECT record FROM tags WHERE tag = ?)")
            args.append(_text("tag", tag))
        for bound, value, test in (("since", since, ">="), ("until", until, "<")):
            instant = None if value is None else _instant(bound, value)
            if instant is not None:
                where.append(f"created {test} ?")
                args.append(instant)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM records{clause} ORDER BY created, id", args)
        tags: dict[int, list[str]] = {}
        # Only the matched records' tags: a query for one tag among 10,000 records reads its own.
        for record, name in self._db.execute(
            f"SELECT record, tag FROM tags WHERE record IN (SELECT id FROM records{clause})", args
        ):
            tags.setdefault(record, []).append(name)
        # Sorted here, by code point: the databases' collations differ.
        return [replace(Record(*row), tags=tuple(sorted(tags.get(row[0], ())))) for row in rows]

    query = records

    def get(self, record: int) -> Record:
        """The record ``record``, or a :class:`LedgerError` saying there is none."""
        record = _record_id(self.location, record)
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM records WHERE id = ?", (record,))
        if not rows:
            raise LedgerError(f"the ledger {self.location} has no record {record}")
        tags = sorted(t for (t,) in self._db.execute("SELECT tag FROM tags WHERE record = ?", (record,)))
        return replace(Record(*rows[0]), tags=tuple(tags))

    def stats(self, record: int) -> Stats[Any, Any]:
        """The statistics record ``record`` keeps, exactly as appended."""
        return Stats.from_bytes(self.stats_bytes(record), f"ledger record {record}")

    def stats_bytes(self, record: int) -> bytes:
        """The statistics record ``record`` keeps, as kept (:meth:`Stats.from_bytes` reads them):
        what another process is handed to read them."""
        record = _record_id(self.location, record)
        rows = self._db.execute("SELECT stats FROM records WHERE id = ?", (record,))
        if not rows:
            raise LedgerError(f"the ledger {self.location} has no record {record}")
        return bytes(rows[0][0])

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

    def history_of(self, which: str, metric: str | None = None, n: int = 1000) -> list[HistoryPoint]:
        """:meth:`history` of ``which``: a system's name, or ``tag:NAME`` for a tag's records."""
        if which.startswith("tag:"):
            return self.history(tag=which[4:], metric=metric, n=n)
        return self.history(system=which, metric=metric, n=n)

    def compare(
        self, baseline: int, *others: int, test: Test = "bs", n: int | None = None, seed: int = DEFAULT_SEED
    ) -> PairedResult:
        """Paired tests of records ``others`` against ``baseline`` from their kept rows, once each is
        comparable with it (``test``: ``bs`` bootstrap, ``ar`` randomization)."""
        for other in others:
            self.check_comparable(baseline, other)
        ids = (baseline, *others)
        names = [f"{record}: {self.get(record).system}" for record in ids]
        return paired_test([self.stats(record) for record in ids], names, test, n, seed)

    def gate(self, baseline: int, candidate: int, **options: Any) -> GateResult:
        """The gate's verdict on record ``candidate`` against record ``baseline`` (``options`` as
        :func:`understudy.gate.gate` takes them: ``alpha``, ``max_drop``, ``min_score``, ``test``...)."""
        from understudy.gate import gate

        self.check_comparable(baseline, candidate)
        return gate(self.stats(baseline), self.stats(candidate), **options)

    def check_comparable(self, first: int, second: int) -> None:
        """Refuse to compare two records whose signatures, test sets or segment counts differ,
        saying which parameter differs, both values, and how to get comparable results."""
        a, b = self.get(first), self.get(second)
        if a.metric != b.metric:
            metrics = f"({a.metric}, {b.metric})"
            raise IncomparableError(f"records {a.id} and {b.id} are of different metrics {metrics}")
        # The signature first: segments joined into documents (gran) also change the count.
        left, right = dict(Signature.parse(a.signature).items()), dict(Signature.parse(b.signature).items())
        for key in dict.fromkeys([*left, *right]):
            if left.get(key) != right.get(key):
                raise IncomparableError(
                    f"records {a.id} and {b.id} differ in the signature's {key}: {left.get(key, '(none)')} "
                    f"against {right.get(key, '(none)')}; score both with the same options to compare them"
                )
        if a.testset != b.testset or a.segments != b.segments:
            raise IncomparableError(
                f"records {a.id} and {b.id} are of different test sets ({a.testset}, {a.segments} "
                f"segments; {b.testset}, {b.segments} segments): score both systems on one test set"
            )


def _insert(db: Database, row: dict[str, object], tags: list[str]) -> int | None:
    """Insert a record and its tags; its id, or None when a record of its uid is there."""
    columns = ", ".join(row)
    inserted = db.execute(
        f"INSERT INTO records ({columns}) VALUES ({', '.join('?' * len(row))}) "
        "ON CONFLICT (uid) DO NOTHING RETURNING id",
        list(row.values()),
    )
    if not inserted:
        return None
    record = int(inserted[0][0])
    for tag in dict.fromkeys(tags):
        db.execute("INSERT INTO tags VALUES (?, ?)", (record, tag))
    return record


def _instant(name: str, value: str) -> str | None:
    """``value`` (an ISO date or time) as a record's ``created`` is written, to compare with it;
    ``None`` for an ``until`` past the last representable day (no bound)."""
    try:
        when = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise InputTypeError(
            f"the ledger's {name} is an ISO date or time (2026-11-24T09:00), not {value!r}"
        ) from None
    if name == "until" and _is_date(value):
        try:
            when += timedelta(days=1)  # the whole of that day
        except OverflowError:
            return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def _is_date(value: str) -> bool:
    """Whether ``value`` is a date alone, in the extended (2026-11-26) or basic (20261126) form."""
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _record_id(location: str, record: object) -> int:
    """A record's number, checked: a whole number the database can hold."""
    if isinstance(record, bool) or not isinstance(record, int):
        raise InputTypeError(f"a record's id is a whole number, not {type(record).__name__}")
    if not 0 < record < 2**63:
        raise LedgerError(f"the ledger {location} has no record {record}")
    return record


def _tags(tags: Iterable[str] | str) -> list[str]:
    """Tags as a list of checked texts; one string is one tag (not its characters)."""
    if isinstance(tags, str):
        tags = [tags]
    elif not isinstance(tags, Iterable):
        raise InputTypeError(f"tags are a list of texts, not {type(tags).__name__}")
    return [_text("tag", tag) for tag in tags]


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InputTypeError(f"the ledger's {name} is text, not {type(value).__name__}")
    if "\x00" in value:
        # PostgreSQL cannot keep it, and a record must move between the two databases unchanged.
        raise InputTypeError(f"the ledger's {name} contains a NUL character, which no ledger keeps")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InputTypeError(f"the ledger's {name} is not valid Unicode text ({err.reason})") from err
    return value


__all__ = ["HistoryPoint", "Ledger", "Record"]
