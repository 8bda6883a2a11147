"""The download cache: where test sets live, who may write them, and checks on every read.

Layout under the cache folder (``$UNDERSTUDY_CACHE``, else the platform's user cache)::

    downloads/<md5>-<name>    each download as fetched, named by its checksum
    downloads/unpinned-<name> a file upstream publishes no checksum for (a tokenizer
                              model), with <name>.md5 beside it: the MD5 of the first
                              complete download, which every later read must match
    unpacked/<md5>-<name>/    an archive's files, with a manifest of their SHA-256
    locks/<md5>-<name>.lock   one lock per download, shared by every process

Sets that share a download (wmt21, wmt21/B, ...) share its files. A download is
fetched and unpacked under its lock, so parallel jobs fetch it once; every file read
from the cache is checked against the registry's MD5 or the manifest's SHA-256, and a
damaged one is rebuilt (or, offline, reported: offline mode never changes the cache).

>>> import tempfile
>>> Cache(tempfile.mkdtemp(), offline=True).offline
True
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from understudy.datasets.archive import read_manifest, unpack
from understudy.datasets.fetch import FetchPolicy, ProgressFn, fetch, md5_of
from understudy.datasets.registry import Dataset, Download
from understudy.errors import (
    CacheError,
    ChecksumError,
    DatasetError,
    DatasetFormatError,
    DownloadError,
    OfflineError,
)
from understudy.files.atomic import atomic_write
from understudy.files.cache_folder import default_cache_dir

OFFLINE_ENV = "UNDERSTUDY_OFFLINE"
"""Set to 1 to use the cache only, never the network."""

LOCK_POLL_SECONDS = 0.05

ProgressFactory = Callable[[Download], ProgressFn | None]
"""Gives the progress callback for one download (``None`` for none)."""


def offline_from_env() -> bool:
    """Whether ``$UNDERSTUDY_OFFLINE`` asks for offline mode (1, true, yes)."""
    return os.environ.get(OFFLINE_ENV, "").strip().lower() in ("1", "true", "yes")


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@contextmanager
def file_lock(path: Path, timeout: float) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` across processes; released on exit or death."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout
        while not _try_lock(fd):
            if time.monotonic() > deadline:
                raise CacheError(f"{path}: another process has held this lock for over {timeout:g} s")
            time.sleep(LOCK_POLL_SECONDS)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


class Cache:
    """The cache folder and how to fill it.

    ``offline`` (default: ``$UNDERSTUDY_OFFLINE``) never touches the network and names
    the missing file instead. ``progress`` gives a callback per download.
    """

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        offline: bool | None = None,
        policy: FetchPolicy | None = None,
        lock_timeout: float = 600.0,
        progress: ProgressFactory | None = None,
    ) -> None:
        self.root = Path(root) if root is not None else default_cache_dir()
        self.offline = offline_from_env() if offline is None else offline
        self.policy = policy or FetchPolicy()
        self.lock_timeout = lock_timeout
        self.progress = progress

    def download_path(self, download: Download) -> Path:
        """Where ``download`` is kept as fetched."""
        return self.root / "downloads" / _key(download)

    def unpacked_path(self, download: Download) -> Path:
        """Where an archive's files are unpacked."""
        return self.root / "unpacked" / _key(download)

    def _pin_path(self, download: Download) -> Path:
        path = self.download_path(download)
        return path.with_name(f"{path.name}.md5")

    def expected_md5(self, download: Download) -> str | None:
        """The MD5 a cached ``download`` must have: the registry's, else the one pinned at
        its first download (``None``: not pinned yet)."""
        if download.md5 is not None:
            return download.md5
        pinned = _read(self._pin_path(download))
        text = pinned.decode("ascii", "replace").strip() if pinned is not None else ""
        return text if len(text) == 32 and all(c in "0123456789abcdef" for c in text) else None

    def _ready(self, download: Download) -> bool:
        if download.is_archive:
            return read_manifest(self.unpacked_path(download)) is not None
        return self.download_path(download).is_file() and self.expected_md5(download) is not None

    def _mkdirs(self) -> None:
        for sub in ("downloads", "unpacked", "locks"):
            try:
                (self.root / sub).mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise CacheError(
                    f"cannot create the cache folder {self.root / sub}: {err.strerror}"
                ) from None

    def _fill(self, download: Download, who: str) -> None:
        """Fetch (if its file is missing or damaged) and unpack ``download``; under its lock."""
        path = self.download_path(download)
        target = self.unpacked_path(download)
        # Leftovers of a process killed mid-download or mid-unpack (the lock is ours now).
        for stale in [*path.parent.glob(f"{path.name}.part-*"), *target.parent.glob(f".{target.name}.tmp-*")]:
            shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
        expected = self.expected_md5(download)
        if path.is_file() and (expected is None or md5_of(path) != expected):
            path.unlink()
        if not path.is_file():
            progress = self.progress(download) if self.progress else None
            # A pinned file must come back with the same bytes: upstream may not change them.
            fetch(download.url, expected, path, self.policy, progress)
            if expected is None:
                with atomic_write(self._pin_path(download)) as pin:
                    pin.write(md5_of(path).encode("ascii") + b"\n")
        if download.is_archive:
            shutil.rmtree(target, ignore_errors=True)
            unpack(path, target)

    def _offline_refusal(self, download: Download, who: str) -> OfflineError:
        """What offline mode says instead of fetching or repairing: it never changes the cache."""
        path = self.download_path(download)
        if not path.is_file():
            return OfflineError(
                f"offline: {who} needs {download.basename} ({download.url}), "
                f"which is not in the cache (expected at {path})"
            )
        if md5_of(path) != self.expected_md5(download):
            return OfflineError(
                f"offline: {path} is damaged (its MD5 is not the registry's); the cache is left as it "
                "is: run without --offline to fetch it again"
            )
        return OfflineError(
            f"offline: the unpacked files of {download.basename} at {self.unpacked_path(download)} are "
            "missing or damaged; the cache is left as it is: run without --offline to unpack them again"
        )

    def _locked_fill(self, download: Download, who: str, rebuild: bool) -> None:
        """Fill ``download`` under its lock: when not ready, or always when ``rebuild``."""
        if self.offline:
            raise self._offline_refusal(download, who)
        self._mkdirs()
        lock = self.root / "locks" / f"{_key(download)}.lock"
        try:
            with file_lock(lock, self.lock_timeout):
                if rebuild or not self._ready(download):
                    self._fill(download, who)
        except DownloadError as err:
            raise type(err)(
                f"{err} (without a network, a cache filled elsewhere is used with --offline)"
            ) from None
        except OSError as err:
            if isinstance(err, DatasetError):
                raise
            raise CacheError(f"cache {self.root}: {err}") from None

    def ensure(self, download: Download, who: str = "this test set") -> Path:
        """The cached file (or unpacked folder) of ``download``, fetching it if needed.

        ``who`` names the set in an offline error.
        """
        if not self._ready(download):
            self._locked_fill(download, who, rebuild=False)
        return self.unpacked_path(download) if download.is_archive else self.download_path(download)

    def _read_verified(self, download: Download, relpath: str, who: str) -> bytes | None:
        """The bytes of ``relpath`` from ``download`` if it holds it, checked; else ``None``."""
        for attempt in range(2):
            where = self.ensure(download, who)
            if download.is_archive:
                manifest = read_manifest(where) or {}
                if relpath not in manifest:
                    return None
                path, expected = where / relpath, manifest[relpath]
                data = _read(path)
                ok = data is not None and hashlib.sha256(data).hexdigest() == expected
            else:
                if relpath != download.basename:
                    return None
                path = where
                data = _read(path)
                md5 = hashlib.md5(data, usedforsecurity=False).hexdigest() if data is not None else None
                ok = md5 is not None and md5 == self.expected_md5(download)
            if ok:
                assert data is not None
                return data
            if attempt == 0:
                self._locked_fill(download, who, rebuild=True)
        raise ChecksumError(f"{path}: damaged in the cache and still damaged after rebuilding it")

    def read_download(self, download: Download, who: str) -> bytes:
        """The verified bytes of a download that is not an archive (a model file)."""
        data = self._read_verified(download, download.basename, who)
        assert data is not None  # a plain download always holds its own basename
        return data

    def read(self, dataset: Dataset, relpath: str) -> bytes:
        """The bytes of a registry file path of ``dataset``, from the first download holding it."""
        for download in dataset.downloads:
            data = self._read_verified(download, relpath, dataset.name)
            if data is not None:
                return data
        names = ", ".join(d.basename for d in dataset.downloads)
        raise DatasetFormatError(f"test set {dataset.name}: {relpath} is in none of its downloads ({names})")


def _key(download: Download) -> str:
    return f"{download.md5 or 'unpinned'}-{download.basename}"


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None
