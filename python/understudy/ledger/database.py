"""The ledger's two databases behind one small interface: SQLite (the standard library's
``sqlite3``) for a file, PostgreSQL (psycopg, the ``ledger`` extra) for a ``postgresql://`` URL.

The ledger's SQL is written once, with ``?`` for parameters and the few words the two dialects
spell differently left as ``{names}`` in the schema (:class:`Dialect`). A :class:`Database`
fetches whole results, wraps every driver error in a :class:`LedgerError` that names the ledger
without its password, and runs writes in transactions that take the write lock first.

>>> db = open_database(":memory:", timeout=1.0)
>>> db.dialect.name, db.location
('sqlite', ':memory:')
>>> db.execute("SELECT ? + 1", (41,))
[(42,)]
>>> redacted("postgresql://alice:s3cret@db.example:5432/scores")
'postgresql://alice:***@db.example:5432/scores'
>>> redacted("understudy score --ledger=postgres://bob:pw@h/db -i x")
'understudy score --ledger=postgres://bob:***@h/db -i x'
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from understudy.errors import ConfigError, LedgerError, MissingExtraError

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")
"""How a PostgreSQL ledger's URL begins."""

_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s'\"]*", re.IGNORECASE)
# libpq's keyword/value form: password=secret, password = 'quoted \' secret'.
_KEYWORD = re.compile(r"(\bpassword\s*=\s*)('(?:[^'\\]|\\.)*'?|[^\s&]*)", re.IGNORECASE)


def redacted(text: str) -> str:
    """``text`` with every password in it replaced by ``***``: a URL's (``user:PASSWORD@``, even
    with an unencoded ``@`` in it, and ``?password=``, its name percent-encoded or not) and
    libpq's ``password=`` keyword.

    >>> redacted("postgresql://u:p@ss@h/db ?x")
    'postgresql://u:***@h/db ?x'
    >>> redacted("postgres://u@h/db?sslmode=require&pass%77ord=SECRET")
    'postgres://u@h/db?sslmode=require&pass%77ord=***'
    >>> redacted("host=h password='a b' user=u")
    'host=h password=*** user=u'
    """
    return _KEYWORD.sub(r"\1***", _URL.sub(lambda m: _redacted_url(m.group(0)), text))


def _redacted_url(url: str) -> str:
    scheme, _, rest = url.partition("://")
    base, question, query = rest.partition("?")
    at = base.rfind("@")  # the last: a password may hold an unencoded "@"
    if at >= 0:
        user, colon, _ = base[:at].partition(":")
        if colon:
            base = f"{user}:***@{base[at + 1 :]}"
    items = []
    for item in query.split("&") if question else []:
        key, equals, _ = item.partition("=")
        items.append(f"{key}=***" if equals and unquote(key).strip().lower() == "password" else item)
    return f"{scheme}://{base}{question}{'&'.join(items)}"


def _passwords(url: str) -> list[str]:
    """The password texts a URL holds (raw and decoded, and the parts around an unencoded "@"):
    what a driver's error may echo back outside any URL."""
    _, _, rest = url.partition("://")
    base, _, query = rest.partition("?")
    found = []
    if "@" in base:
        found.append(base[: base.rfind("@")].partition(":")[2])
    for item in query.split("&"):
        key, _, value = item.partition("=")
        if unquote(key).strip().lower() == "password":
            found.append(value)
    pieces = {
        piece for secret in found for text in (secret, unquote(secret)) for piece in (text, *text.split("@"))
    }
    return sorted((p for p in pieces if len(p) >= 3), key=len, reverse=True)


def _connection_error(url: str, err: Exception) -> str:
    """A driver's connection error, redacted and with any password text the URL holds removed."""
    message = redacted(str(err).strip())
    for secret in _passwords(url):
        message = message.replace(secret, "***")
    return message


@dataclass(frozen=True)
class Dialect:
    """What differs between the two databases' SQL."""

    name: str
    words: Mapping[str, str]
    """The schema's ``{names}``: the auto-numbered key, binary, 64-bit float, a random id, and
    how names and tags are indexed."""
    table_exists: str
    """A query of one row when the table named by its parameter exists."""
    begin_write: tuple[str, ...]
    """What begins a transaction that holds the ledger's write lock until it ends."""


SQLITE = Dialect(
    "sqlite",
    {
        "key": "INTEGER PRIMARY KEY AUTOINCREMENT",
        "binary": "BLOB",
        "float": "REAL",
        "random_uid": "lower(hex(randomblob(16)))",
        "tags_key": ",\n        PRIMARY KEY (record, tag)",
        "tags_once": "",
        "system_index": "(system, created)",
        "tag_index": "(tag)",
    },
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
    ("BEGIN IMMEDIATE",),
)

POSTGRESQL = Dialect(
    "postgresql",
    {
        "key": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
        "binary": "BYTEA",
        "float": "DOUBLE PRECISION",
        "random_uid": "replace(gen_random_uuid()::text, '-', '')",
        # A B-tree entry holds at most 8 kB: names and tags of any length are indexed by hash.
        "tags_key": "",
        "tags_once": "CREATE UNIQUE INDEX tags_once ON tags (record, md5(tag))",
        "system_index": "USING hash (system)",
        "tag_index": "USING hash (tag)",
    },
    "SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
    # Appends need no lock of their own; migrations do (any key will do, as long as it is one).
    ("BEGIN", "SELECT pg_advisory_xact_lock(7301911)"),
)


class Database:
    """One connection to a ledger's database, in autocommit mode between transactions."""

    def __init__(
        self,
        connection: Any,
        dialect: Dialect,
        location: str,
        errors: type[Exception],
        reconnect: Callable[[], Any] | None = None,
    ) -> None:
        self._connection = connection
        self.dialect = dialect
        self.location = redacted(location)
        """Where the ledger is, printable: a URL's password is never shown."""
        self._errors = errors
        self._reconnect = reconnect
        self._in_transaction = False

    def execute(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` for each parameter); every row it returns. A server's
        connection lost between transactions (a restart) is made again once; one lost inside a
        transaction is an error (the server rolled it back)."""
        if self.dialect is POSTGRESQL:
            sql = sql.replace("?", "%s")
        try:
            return self._run(sql, args)
        except self._errors as err:
            if not self._lost() or self._in_transaction or self._reconnect is None:
                raise LedgerError(f"ledger {self.location}: {redacted(str(err).strip())}") from err
        self._connection = self._reconnect()
        try:
            return self._run(sql, args)
        except self._errors as err:
            raise LedgerError(f"ledger {self.location}: {redacted(str(err).strip())}") from err

    def _run(self, sql: str, args: Sequence[object]) -> list[tuple[Any, ...]]:
        # psycopg reads ``%`` in a statement only when it is given parameters.
        cursor = self._connection.execute(sql, *([tuple(args)] if args else []))
        return [tuple(row) for row in cursor.fetchall()] if cursor.description else []

    def _lost(self) -> bool:
        """Whether the connection is gone (psycopg marks it broken or closed)."""
        return bool(getattr(self._connection, "broken", False) or getattr(self._connection, "closed", False))

    @contextmanager
    def transaction(self) -> Iterator[Database]:
        """A transaction holding the write lock: all of it is kept, or none of it."""
        self.execute(self.dialect.begin_write[0])
        self._in_transaction = True
        try:
            for statement in self.dialect.begin_write[1:]:
                self.execute(statement)
            yield self
            self.execute("COMMIT")
        except BaseException:
            # On a lost connection the server rolls the transaction back itself.
            with suppress(self._errors):
                self._connection.execute("ROLLBACK")
            raise
        finally:
            self._in_transaction = False

    def backup_to(self, other: Database) -> None:
        """Copy this SQLite database, whole and consistent, into ``other`` (SQLite too)."""
        try:
            self._connection.backup(other._connection)
        except sqlite3.Error as err:
            raise LedgerError(f"ledger {self.location}: cannot be read ({err})") from err

    def close(self) -> None:
        """Close the connection."""
        self._connection.close()


def write_ahead(db: Database, timeout: float) -> None:
    """Put a SQLite database in WAL mode (readers never wait for a writer; a killed writer's
    partial transaction is rolled back).

    The switch needs the file to itself, and SQLite answers "locked" at once, without waiting,
    while another process opening the same new ledger holds it: so try again until ``timeout``.
    """
    deadline = time.monotonic() + timeout
    while True:
        try:
            if db.execute("PRAGMA journal_mode")[0][0] != "wal":
                db.execute("PRAGMA journal_mode = WAL")
            return
        except LedgerError as err:
            busy = isinstance(err.__cause__, sqlite3.OperationalError) and "locked" in str(err.__cause__)
            if not busy or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def open_database(where: str, timeout: float, read_only: bool = False) -> Database:
    """The database at ``where``: a ``postgresql://`` URL, ``:memory:``, or a SQLite file
    (created with its folder when missing, unless ``read_only``: then it must exist, and
    nothing is written to it)."""
    if where.startswith(POSTGRESQL_SCHEMES):
        return _postgresql(where, timeout, read_only)
    if "://" in where:
        raise ConfigError(
            f"ledger {redacted(where)}: a ledger is a SQLite file or a postgresql:// URL, not this scheme"
        )
    if read_only and where != ":memory:":
        return _sqlite_read_only(where, timeout)
    return _sqlite(where, timeout)


def _sqlite(where: str, timeout: float) -> Database:
    try:
        if where != ":memory:":
            Path(where).parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(where, timeout=timeout, isolation_level=None)
    except (sqlite3.Error, OSError) as err:
        raise LedgerError(f"ledger {where}: {err}") from err
    db = Database(connection, SQLITE, where, sqlite3.Error)
    db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    return db


def _sqlite_read_only(where: str, timeout: float) -> Database:
    """A SQLite file opened for reading alone. A ledger in WAL mode on read-only media cannot
    make its shared-memory file: it is then read as immutable (no other writer can be there)."""
    if not Path(where).is_file():
        raise LedgerError(f"ledger {where}: no such ledger (a read-only command creates none)")
    uri = Path(where).resolve().as_uri()
    last: sqlite3.Error | None = None
    for mode in ("mode=ro", "mode=ro&immutable=1"):
        try:
            connection = sqlite3.connect(f"{uri}?{mode}", timeout=timeout, isolation_level=None, uri=True)
            connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
        except sqlite3.Error as err:
            last = err
            continue
        db = Database(connection, SQLITE, where, sqlite3.Error)
        db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
        return db
    raise LedgerError(f"ledger {where}: cannot be read ({last})")


def _postgresql(url: str, timeout: float, read_only: bool = False) -> Database:
    try:
        import psycopg
    except ImportError as err:
        raise MissingExtraError(
            f"ledger {redacted(url)}: a PostgreSQL ledger needs the 'ledger' extra: "
            "pip install 'understudy-mt[ledger]'"
        ) from err

    def connect() -> Any:
        try:
            connection = psycopg.connect(url, autocommit=True, connect_timeout=max(1, round(timeout)))
            if read_only:
                connection.execute("SET default_transaction_read_only = on")
        except psycopg.Error as err:
            raise LedgerError(f"ledger {redacted(url)}: {_connection_error(url, err)}") from None
        return connection

    return Database(connect(), POSTGRESQL, url, psycopg.Error, reconnect=connect)


__all__ = [
    "POSTGRESQL",
    "POSTGRESQL_SCHEMES",
    "SQLITE",
    "Database",
    "Dialect",
    "open_database",
    "redacted",
    "write_ahead",
]
