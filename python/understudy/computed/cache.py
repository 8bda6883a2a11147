"""A persistent cache of computed segment scores (neural metrics, LLM judges), keyed by what
computed them and the texts.

One SQLite file (``neural/scores.sqlite`` under ``$UNDERSTUDY_CACHE``, else the user cache
folder), shared by every process: WAL mode, a busy timeout, each batch of scores written in one
transaction, so a process killed mid-run leaves every score it wrote whole and a re-run computes
only the rest. A key is the SHA-256 of the metric's configuration (checkpoint, revision,
precision, kind) and the segment's texts, each length-prefixed: no two inputs share a key.

>>> import tempfile, pathlib
>>> cache = ScoreCache(pathlib.Path(tempfile.mkdtemp()) / "s.sqlite")
>>> key = segment_key("COMET|m|r|fp32", ["src", "mt", "ref"])
>>> cache.put_many({key: 0.5}); cache.get_many([key])[key]
0.5
>>> cache.stats().entries
1
"""

from __future__ import annotations

import hashlib
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from understudy.errors import CacheError
from understudy.files.cache_folder import default_cache_dir

TIMEOUT_SECONDS = 60.0
_LOOKUP = 500  # keys per SELECT: under SQLite's bound on parameters


def default_path() -> Path:
    """``neural/scores.sqlite`` in understudy's cache folder."""
    return default_cache_dir() / "neural" / "scores.sqlite"


def segment_key(configuration: str, texts: Sequence[str]) -> bytes:
    """The key of one segment's score: the configuration and the texts, length-prefixed."""
    digest = hashlib.sha256()
    for part in (configuration, *texts):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.digest()


@dataclass(frozen=True)
class CacheStats:
    """How many scores the cache holds and the size of its file."""

    entries: int
    bytes: int


class ScoreCache:
    """Segment scores by key in one SQLite file (created on first use)."""

    def __init__(self, path: str | PathLike[str] | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=TIMEOUT_SECONDS, isolation_level=None)
                db.execute(f"PRAGMA busy_timeout = {int(TIMEOUT_SECONDS * 1000)}")
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    db.execute("PRAGMA journal_mode = WAL")
                db.execute(
                    "CREATE TABLE IF NOT EXISTS scores (key BLOB PRIMARY KEY, score REAL NOT NULL,"
                    " created REAL NOT NULL) WITHOUT ROWID"
                )
                db.execute(
                    "CREATE TABLE IF NOT EXISTS details (key BLOB PRIMARY KEY, detail TEXT NOT NULL)"
                    " WITHOUT ROWID"
                )
            except (OSError, sqlite3.Error) as err:
                raise self._error("opened", err) from None
            self._db = db
        return self._db

    def get_many(self, keys: Iterable[bytes]) -> dict[bytes, float]:
        """The scores of those ``keys`` the cache holds."""
        return self._select("SELECT key, score FROM scores", keys)

    def get_details(self, keys: Iterable[bytes]) -> dict[bytes, str]:
        """The details (a metric's JSON, such as xCOMET's error spans) of those ``keys`` the
        cache holds."""
        return self._select("SELECT key, detail FROM details", keys)

    def _select(self, query: str, keys: Iterable[bytes]) -> dict[bytes, Any]:
        wanted = list(dict.fromkeys(keys))
        found: dict[bytes, Any] = {}
        db = self._connection()
        try:
            for start in range(0, len(wanted), _LOOKUP):
                part = wanted[start : start + _LOOKUP]
                marks = ",".join("?" * len(part))
                found.update(db.execute(f"{query} WHERE key IN ({marks})", part))
        except sqlite3.Error as err:
            raise self._error("read", err) from None
        return found

    def put_many(self, scores: Mapping[bytes, float], details: Mapping[bytes, str] | None = None) -> None:
        """Keep ``scores`` and their ``details``, all or none (one transaction); a key already
        kept stays as it was."""
        if not scores:
            return
        db = self._connection()
        now = time.time()
        try:
            db.execute("BEGIN IMMEDIATE")
            db.executemany(
                "INSERT OR IGNORE INTO scores (key, score, created) VALUES (?, ?, ?)",
                [(key, float(score), now) for key, score in scores.items()],
            )
            db.executemany(
                "INSERT OR IGNORE INTO details (key, detail) VALUES (?, ?)", list((details or {}).items())
            )
            db.execute("COMMIT")
        except sqlite3.Error as err:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise self._error("written", err) from None

    def _error(self, done: str, err: Exception) -> CacheError:
        """What to say of a failed use: a damaged file (not a database, or a malformed one) is
        named with the way to replace it; anything else (a lock, a full disk) as it is."""
        if type(err) is sqlite3.DatabaseError:  # exactly: locks and full disks are subclasses
            return CacheError(
                f"{self.path}: the score cache is damaged ({err}): 'understudy cache --keep 0' replaces it"
                " with an empty one (its scores are computed again when next needed), or delete the file"
            )
        return CacheError(f"{self.path}: the score cache cannot be {done} ({err})")

    def clear(self) -> None:
        """Replace the cache with an empty one, whatever its file holds (a damaged one too): the
        file and its write-ahead log are removed, and made anew on next use."""
        self.close()
        for path in (self.path, Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
            try:
                path.unlink(missing_ok=True)
            except OSError as err:
                raise CacheError(f"{path}: the score cache cannot be removed ({err})") from None

    def stats(self) -> CacheStats:
        """The number of scores kept and the file's size (with its write-ahead log)."""
        if not self.path.exists():
            return CacheStats(0, 0)
        try:
            (count,) = self._connection().execute("SELECT count(*) FROM scores").fetchone()
        except sqlite3.Error as err:
            raise self._error("read", err) from None
        size = sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal")) if p.exists())
        return CacheStats(int(count), size)

    def prune(self, keep: int) -> int:
        """Drop all but the ``keep`` most recent scores; how many were dropped."""
        if keep < 0:
            raise CacheError(f"keep must be 0 or more, got {keep}")
        db = self._connection()
        try:
            db.execute("BEGIN IMMEDIATE")
            cursor = db.execute(
                "DELETE FROM scores WHERE key NOT IN (SELECT key FROM scores ORDER BY created DESC LIMIT ?)",
                (keep,),
            )
            db.execute("DELETE FROM details WHERE key NOT IN (SELECT key FROM scores)")
            db.execute("COMMIT")
            db.execute("VACUUM")
        except sqlite3.Error as err:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise self._error("pruned", err) from None
        return int(cursor.rowcount)

    def close(self) -> None:
        """Close the file (it is reopened on next use)."""
        if self._db is not None:
            self._db.close()
            self._db = None
