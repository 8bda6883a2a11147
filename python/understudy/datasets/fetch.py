"""Fetching one file: retries with backoff, MD5 checked, written to a temporary file and renamed.

Nothing is left half-written: the body goes to ``<dest>.part-*`` beside the
destination, and only a complete body whose MD5 is the registry's is renamed into
place. Errors are typed: :class:`~understudy.errors.DownloadError` after the last
retry, :class:`~understudy.errors.ChecksumError` at once for a wrong checksum (a
server that sends the wrong bytes sends them again).

>>> import tempfile, pathlib, hashlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "src.txt").write_bytes(b"Hallo Welt\\n")
11
>>> url = (folder / "src.txt").as_uri()
>>> dest = folder / "copy.txt"
>>> fetch(url, hashlib.md5(b"Hallo Welt\\n").hexdigest(), dest).read_bytes()
b'Hallo Welt\\n'
"""

from __future__ import annotations

import hashlib
import http.client
import math
import os
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from understudy._version import __version__
from understudy.errors import ChecksumError, ConfigError, DownloadError

ProgressFn = Callable[[int, int | None], None]
"""Called as ``progress(bytes_done, bytes_total_or_None)`` while a body arrives."""

CHUNK_BYTES = 1 << 16
_RETRIED_HTTP = frozenset({408, 425, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class FetchPolicy:
    """How hard to try: ``retries`` after the first attempt, waiting ``backoff`` seconds
    before the first retry and twice as long before each next one; ``timeout`` seconds
    of silence from the server count as a stalled attempt, and a server that stalls
    twice is given up on; no attempt starts after ``deadline`` seconds in all.
    """

    retries: int = 3
    backoff: float = 1.0
    timeout: float = 30.0
    deadline: float = 300.0

    def __post_init__(self) -> None:
        if isinstance(self.retries, bool) or not isinstance(self.retries, int) or self.retries < 0:
            raise ConfigError(f"retries must be a whole number of at least 0, got {self.retries!r}")
        for name in ("backoff", "timeout", "deadline"):
            value = getattr(self, name)
            positive = name != "backoff"
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value < 0
                or (positive and value == 0)
            ):
                bound = "above 0" if positive else "of at least 0"
                raise ConfigError(f"{name} must be a finite number of seconds {bound}, got {value!r}")


class _RetryableError(Exception):
    """A failure worth another attempt."""


class _StalledError(_RetryableError):
    """The server sent nothing for the whole timeout."""


def md5_of(path: Path) -> str:
    """The hex MD5 of a file, read a block at a time."""
    digest = hashlib.md5(usedforsecurity=False)
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _copy_body(
    response: IO[bytes], out: IO[bytes], total: int | None, progress: ProgressFn | None, timeout: float
) -> int:
    done = 0
    read = getattr(response, "read1", response.read)  # what has arrived, for a live progress bar
    while True:
        try:
            block = read(CHUNK_BYTES)
        except TimeoutError as err:
            raise _StalledError(f"stalled: no data for {timeout:g} s after {done} bytes") from err
        except (OSError, http.client.HTTPException) as err:
            raise _RetryableError(
                f"connection lost after {done} bytes ({err or type(err).__name__})"
            ) from err
        if not block:
            return done
        out.write(block)
        done += len(block)
        if progress is not None:
            progress(done, total)


def _attempt(
    url: str, part: IO[bytes], policy: FetchPolicy, progress: ProgressFn | None, timeout: float
) -> int | None:
    """One download into ``part``; returns the announced length (``None`` when the server
    announces none, so that a body cut short cannot be told from a whole one)."""
    request = urllib.request.Request(url, headers={"User-Agent": f"understudy/{__version__}"})
    try:
        response = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as err:
        if err.code in _RETRIED_HTTP:
            raise _RetryableError(f"HTTP {err.code} {err.reason}") from err
        raise DownloadError(f"{url}: HTTP {err.code} {err.reason}") from None
    except TimeoutError as err:
        raise _StalledError(f"stalled: no answer for {timeout:g} s") from err
    except (urllib.error.URLError, OSError, http.client.HTTPException) as err:
        reason = getattr(err, "reason", None) or err
        if isinstance(reason, TimeoutError):
            raise _StalledError(f"stalled: no answer for {timeout:g} s") from err
        raise _RetryableError(f"cannot connect: {reason}") from err
    with response:
        length = response.headers.get("Content-Length")
        total = int(length) if length is not None and length.isdigit() else None
        part.seek(0)
        part.truncate()
        done = _copy_body(response, part, total, progress, timeout)
    if total is not None and done != total:
        raise _RetryableError(f"truncated: got {done} of {total} bytes")
    return total


def fetch(
    url: str,
    md5: str | None,
    dest: Path,
    policy: FetchPolicy | None = None,
    progress: ProgressFn | None = None,
) -> Path:
    """Download ``url`` to ``dest`` if its MD5 is ``md5``; returns ``dest``.

    Connection failures, truncated bodies (also those a server without Content-Length
    cuts short, seen as a wrong MD5) and HTTP 408/429/5xx are retried; other HTTP errors
    (404) and a wrong MD5 of a whole announced body are not; a server that stalls twice is
    given up on, and no attempt starts after ``policy.deadline`` seconds. The error names
    the URL. ``dest`` is replaced only by a verified file. ``md5=None`` (a file whose
    checksum nobody publishes) accepts any whole body.
    """
    policy = policy or FetchPolicy()
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, part_name = tempfile.mkstemp(prefix=f"{dest.name}.part-", dir=dest.parent)
    part_path = Path(part_name)
    try:
        with os.fdopen(fd, "w+b") as part:
            _fetch_into(url, md5, part, part_path, policy, progress)
        os.replace(part_path, dest)
    finally:
        part_path.unlink(missing_ok=True)
    return dest


def _fetch_into(
    url: str,
    md5: str | None,
    part: IO[bytes],
    part_path: Path,
    policy: FetchPolicy,
    progress: ProgressFn | None,
) -> None:
    """Attempts until ``part`` holds a body with the right MD5, or the typed error that ends them."""
    start = time.monotonic()
    failures: list[str] = []
    stalls = 0
    wrong_bytes = False
    for attempt in range(policy.retries + 1):
        if attempt:
            wait = policy.backoff * 2 ** (attempt - 1)
            if time.monotonic() - start + wait > policy.deadline:
                failures.append(f"{failures.pop()}; gave up after {policy.deadline:g} s in all")
                break
            time.sleep(wait)
        remaining = policy.deadline - (time.monotonic() - start)
        try:
            total = _attempt(url, part, policy, progress, max(0.1, min(policy.timeout, remaining)))
        except _StalledError as err:
            failures.append(str(err))
            stalls += 1
            if stalls == 2:  # a stalled server stalls again: no point waiting on it longer
                break
            continue
        except _RetryableError as err:
            failures.append(str(err))
            continue
        part.flush()
        got = md5_of(part_path)
        if md5 is None or got == md5:
            return
        if total is not None:  # the whole announced body, but not the registry's bytes
            raise ChecksumError(f"{url}: MD5 is {got}, the registry expects {md5}; nothing was kept")
        # Without a length, a body cut short looks whole: try again.
        wrong_bytes = True
        failures.append(
            f"MD5 is {got}, the registry expects {md5} (the server sends no length: "
            "the body may have been cut short)"
        )
    tries = f"{len(failures)} attempt{'s' if len(failures) > 1 else ''}"
    error = ChecksumError if wrong_bytes and failures[-1].startswith("MD5") else DownloadError
    raise error(f"{url}: {failures[-1]} ({tries}); nothing was kept")
