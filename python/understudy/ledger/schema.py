"""The ledger's tables, versioned: each migration takes a ledger one version up, in one transaction.

A ledger records its version in ``meta``; opening one applies the migrations it lacks, and a
ledger of a newer version than this package knows is refused, never altered. The migrations are
written once for both databases, with the words their dialects spell differently as ``{names}``.

>>> from understudy.ledger.database import open_database
>>> db = open_database(":memory:", timeout=1.0)
>>> migrate(db)
3
>>> sorted(row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
['meta', 'records', 'sqlite_sequence', 'tags']
"""

from __future__ import annotations

from collections.abc import Callable

from understudy.errors import LedgerError
from understudy.ledger.database import SQLITE, Database, Dialect, open_database

MIGRATIONS: tuple[str | Callable[[Database], None], ...] = (
    # 1: records (one metric's statistics of one system on one test set) and their tags.
    """
    CREATE TABLE records (
        id {key},
        created TEXT NOT NULL,
        system TEXT NOT NULL,
        metric TEXT NOT NULL,
        signature TEXT NOT NULL,
        testset TEXT NOT NULL,
        hypotheses TEXT NOT NULL,
        score {float} NOT NULL,
        segments INTEGER NOT NULL,
        stats {binary} NOT NULL,
        command TEXT NOT NULL,
        note TEXT NOT NULL,
        revision TEXT NOT NULL
    );
    CREATE TABLE tags (
        record INTEGER NOT NULL REFERENCES records (id),
        tag TEXT NOT NULL{tags_key}
    );
    {tags_once};
    CREATE INDEX records_by_system ON records {system_index};
    CREATE INDEX tags_by_tag ON tags {tag_index};
    """,
    # 2: a unique id of each record across ledgers, so that importing one ledger into another
    # twice adds its records once. Records of version 1 get random ones.
    """
    ALTER TABLE records ADD COLUMN uid TEXT;
    UPDATE records SET uid = {random_uid} WHERE uid IS NULL;
    CREATE UNIQUE INDEX records_by_uid ON records (uid);
    """,
    # 3: given metrics keyed by their own names, signatures without data (see current_form).
    lambda db: _given_metrics_by_name(db),
)
"""Migration ``k`` (from 0) takes a ledger from version ``k`` to ``k + 1``: SQL, or a function
for what SQL cannot say in both dialects."""

_DATA_KEYS = ("file", "sha256")
"""Keys that signatures of given scores held before version 3: the data, not the configuration."""


def current_form(metric: str, signature: str) -> tuple[str, str]:
    """A record's metric and signature as this version writes them, from any older version's.

    Before version 3 every given metric was kept as the family ``scores`` and its signature
    held the score file's name and hash, so that no two runs ever compared.

    >>> current_form("scores", "metric:scores|name:COMET-22|dir:higher|range:0..1|file:a.tsv|"
    ...              "sha256:ab|prec:2^-64|version:understudy-0.1.0")
    ('COMET-22', 'metric:scores|name:COMET-22|dir:higher|range:0..1|prec:2^-64|version:understudy-0.1.0')
    >>> current_form("bleu", "nrefs:1|tok:13a")
    ('bleu', 'nrefs:1|tok:13a')
    """
    if metric != "scores":
        return metric, signature
    from understudy.signature import Signature

    kept = "|".join(part for part in signature.split("|") if part.partition(":")[0] not in _DATA_KEYS)
    return Signature.parse(kept).config.key, kept


def _given_metrics_by_name(db: Database) -> None:
    for record, metric, signature in db.execute(
        "SELECT id, metric, signature FROM records WHERE metric = ?", ("scores",)
    ):
        name, kept = current_form(metric, signature)
        db.execute("UPDATE records SET metric = ?, signature = ? WHERE id = ?", (name, kept, record))


SCHEMA_VERSION = len(MIGRATIONS)
"""The version this package writes."""


def statements(migration: int, dialect: Dialect) -> list[str]:
    """Migration ``migration``'s statements in ``dialect`` (none for a function's)."""
    step = MIGRATIONS[migration]
    if callable(step):
        return []
    return [part.strip() for part in step.format(**dialect.words).split(";") if part.strip()]


def version(db: Database) -> int:
    """The ledger's schema version (0: an empty database, nothing created yet)."""
    if not db.execute(db.dialect.table_exists, ("meta",)):
        return 0
    rows = db.execute("SELECT value FROM meta WHERE key = 'schema_version'")
    return int(rows[0][0]) if rows else 0


def migrate(db: Database) -> int:
    """Bring the ledger to :data:`SCHEMA_VERSION`, each step in its own transaction; its version.

    A step re-reads the version once it holds the write lock, so processes opening a new ledger
    at once migrate it once.
    """
    while True:
        current = check_version(db)
        if current == SCHEMA_VERSION:
            return current
        with db.transaction():
            current = check_version(db)
            if current < SCHEMA_VERSION:
                db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                step = MIGRATIONS[current]
                if callable(step):
                    step(db)
                for statement in statements(current, db.dialect):
                    db.execute(statement)
                db.execute("DELETE FROM meta WHERE key = 'schema_version'")
                db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(current + 1),))


def readable(db: Database) -> Database:
    """``db`` opened for reading alone, as this version reads it: itself when of this schema; for
    an older SQLite ledger, a migrated copy in memory (the file is left as it is)."""
    current = check_version(db)
    if current == SCHEMA_VERSION:
        return db
    if current == 0:
        raise LedgerError(f"ledger {db.location}: not a ledger (it has no understudy tables)")
    if db.dialect is not SQLITE:
        raise LedgerError(
            f"ledger {db.location} is of schema version {current}: open it once with a command that "
            f"writes (understudy ledger list --ledger URL migrates it) before reading it read-only"
        )
    copy = open_database(":memory:", 1.0)
    db.backup_to(copy)
    db.close()
    migrate(copy)
    copy.location = db.location
    return copy


def check_version(db: Database) -> int:
    """The ledger's version, read without writing; a :class:`LedgerError` when it is newer than
    this package's (so that nothing, not even the journal mode, is changed in it)."""
    current = version(db)
    if current > SCHEMA_VERSION:
        raise LedgerError(
            f"the ledger is of schema version {current}, newer than this understudy's {SCHEMA_VERSION}: "
            "upgrade understudy to read it (the ledger was left as it is)"
        )
    return current
