"""The ledger's tables, versioned: each migration takes a ledger one version up, in one transaction.

A ledger records its version in ``meta``; opening one applies the migrations it lacks, and a
ledger of a newer version than this package knows is refused, never altered.

>>> import sqlite3
>>> connection = sqlite3.connect(":memory:")
>>> migrate(connection)
2
>>> sorted(row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
['meta', 'records', 'sqlite_sequence', 'tags']
"""

from __future__ import annotations

import sqlite3

from understudy.errors import LedgerError

MIGRATIONS: tuple[str, ...] = (
    # 1: records (one metric's statistics of one system on one test set) and their tags.
    """
    CREATE TABLE records (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created TEXT NOT NULL,
        system TEXT NOT NULL,
        metric TEXT NOT NULL,
        signature TEXT NOT NULL,
        testset TEXT NOT NULL,
        hypotheses TEXT NOT NULL,
        score REAL NOT NULL,
        segments INTEGER NOT NULL,
        stats BLOB NOT NULL,
        command TEXT NOT NULL,
        note TEXT NOT NULL,
        revision TEXT NOT NULL
    );
    CREATE TABLE tags (
        record INTEGER NOT NULL REFERENCES records (id),
        tag TEXT NOT NULL,
        PRIMARY KEY (record, tag)
    );
    CREATE INDEX records_by_system ON records (system, created);
    CREATE INDEX tags_by_tag ON tags (tag);
    """,
    # 2: a unique id of each record across ledgers, so that importing one ledger into another
    # twice adds its records once. Records of version 1 get random ones.
    """
    ALTER TABLE records ADD COLUMN uid TEXT;
    UPDATE records SET uid = lower(hex(randomblob(16))) WHERE uid IS NULL;
    CREATE UNIQUE INDEX records_by_uid ON records (uid);
    """,
)
"""Migration ``k`` (from 0) takes a ledger from version ``k`` to ``k + 1``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The version this package writes."""


def version(connection: sqlite3.Connection) -> int:
    """The ledger's schema version (0: an empty file, nothing created yet)."""
    found = connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    if found is None:
        return 0
    row = connection.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return 0 if row is None else int(row[0])


def migrate(connection: sqlite3.Connection) -> int:
    """Bring the ledger to :data:`SCHEMA_VERSION`, each step in its own transaction; its version.

    The connection manages its own transactions (``isolation_level=None``). A step re-reads the
    version once it holds the write lock, so processes opening a new ledger at once migrate it once.
    """
    connection.isolation_level = None
    while True:
        current = _check(version(connection))
        if current == SCHEMA_VERSION:
            return current
        connection.execute("BEGIN IMMEDIATE")
        try:
            current = _check(version(connection))
            if current < SCHEMA_VERSION:
                connection.execute(
                    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
                )
                for statement in MIGRATIONS[current].split(";"):
                    if statement.strip():
                        connection.execute(statement)
                connection.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(current + 1),)
                )
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise


def check_version(connection: sqlite3.Connection) -> int:
    """The ledger's version, read without writing; a :class:`LedgerError` when it is newer than
    this package's (so that nothing, not even the journal mode, is changed in it)."""
    return _check(version(connection))


def _check(current: int) -> int:
    if current > SCHEMA_VERSION:
        raise LedgerError(
            f"the ledger is of schema version {current}, newer than this understudy's {SCHEMA_VERSION}: "
            "upgrade understudy to read it (the ledger was left as it is)"
        )
    return current
