"""Progress bars on standard error (tqdm), shown only when it is a terminal.

tqdm is imported only when a bar is drawn: importing it costs about 75 ms, which a
command run in a pipe or a script should not pay.

>>> bar = Progress("scoring", total=100, enabled=False)
>>> bar.update(50); bar.close()  # draws nothing when disabled
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType
from typing import Any

REFRESH_SECONDS = 0.2

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
    """A tqdm bar: ``label  45%|████▌     | 67.5M/150M [00:05<00:06, 12.3MB/s]``.

    ``total`` is in ``unit``s (bytes by default, shown in kB, MB, ...); without it only the
    amount done and the rate are shown. ``enabled=None`` means "when standard error is a
    terminal and ``-q`` was not given". The bar erases itself when closed.
    """

    def __init__(
        self, label: str, total: int | None = None, unit: str = "bytes", enabled: bool | None = None
    ) -> None:
        self.enabled = (sys.stderr.isatty() and not _quiet[0]) if enabled is None else enabled
        self._bar: Any = None
        if self.enabled:
            tqdm = importlib.import_module("tqdm").tqdm
            in_bytes = unit == "bytes"
            self._bar = tqdm(
                total=total,
                desc=label,
                unit="B" if in_bytes else f" {unit}",
                unit_scale=in_bytes,
                unit_divisor=1000,
                leave=False,
                file=sys.stderr,
                mininterval=REFRESH_SECONDS,
                dynamic_ncols=True,
            )

    def update(self, done: int, total: int | None = None) -> None:
        """Show ``done`` units done in all, of ``total`` when it becomes known (a download's
        length arrives with its first response); tqdm redraws at most every 0.2 seconds."""
        if self._bar is None:
            return
        if total is not None and total != self._bar.total:
            self._bar.total = total
        self._bar.update(done - self._bar.n)

    def note(self, text: str) -> None:
        """Show ``text`` after the rate (``12.0 req/s, 1 failed``), from the next redraw."""
        if self._bar is not None and text:
            self._bar.set_postfix_str(text, refresh=False)

    def close(self) -> None:
        """Erase the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
