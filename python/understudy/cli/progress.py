"""A progress bar on standard error, shown only when it is a terminal.

>>> bar = Progress("scoring", total=100, enabled=False)
>>> bar.update(50); bar.close()  # draws nothing when disabled
"""

from __future__ import annotations

import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

REFRESH_SECONDS = 0.2
WIDTH = 30


def _size(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    raise AssertionError("unreachable")


_quiet = [False]


@contextmanager
def quiet(on: bool) -> Iterator[None]:
    """While inside, with ``on``: no progress bars and no warnings (sacrebleu's ``-q``)."""
    if not on:
        yield
        return
    _quiet[0] = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        _quiet[0] = False


class Progress:
    """``label  45% |#############                 | 67.5 MB/150.0 MB  12.3 MB/s  0:05 left``.

    ``total`` is in ``unit``s (bytes by default); without it only the amount done and
    the rate are shown. ``enabled=None`` means "when standard error is a terminal".
    """

    def __init__(
        self, label: str, total: int | None = None, unit: str = "bytes", enabled: bool | None = None
    ) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.enabled = (sys.stderr.isatty() and not _quiet[0]) if enabled is None else enabled
        self._start = time.monotonic()
        self._last = 0.0
        self._drawn = False

    def _amount(self, n: float) -> str:
        return _size(n) if self.unit == "bytes" else f"{n:,.0f} {self.unit}"

    def update(self, done: int) -> None:
        """Redraw with ``done`` units done (at most every 0.2 seconds)."""
        now = time.monotonic()
        if not self.enabled or now - self._last < REFRESH_SECONDS:
            return
        self._last = now
        elapsed = max(now - self._start, 1e-9)
        rate = done / elapsed
        parts = [self.label]
        if self.total:
            fraction = min(done / self.total, 1.0)
            filled = int(fraction * WIDTH)
            parts.append(f"{fraction:4.0%} |{'#' * filled}{' ' * (WIDTH - filled)}|")
            parts.append(f"{self._amount(done)}/{self._amount(self.total)}")
            if rate > 0:
                left = int((self.total - done) / rate)
                parts.append(f"{left // 60}:{left % 60:02d} left")
        else:
            parts.append(self._amount(done))
        parts.append(f"{self._amount(rate)}/s")
        sys.stderr.write("\r" + "  ".join(parts) + "\x1b[K")
        sys.stderr.flush()
        self._drawn = True

    def close(self) -> None:
        """Erase the bar."""
        if self._drawn:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self._drawn = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
