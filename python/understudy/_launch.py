"""The ``understudy`` command's entry point: it checks that the process can load NumPy and the
Rust core before anything loads them.

Under an address space capped below what loading them takes (``ulimit -v``), OpenBLAS gives up
with its own message, or Python prints a traceback, before the command line could say that
memory is short; here the command says so in one line and exits with status 1.

>>> START_BYTES // 2**20
192
"""

from __future__ import annotations

import sys

from understudy._memory import address_space_limit, watch_progress

START_BYTES = 192 * 2**20
"""The address space the command needs to start (NumPy, OpenBLAS, the core: 160 MB measured)."""


def main() -> int:
    """Run the command line, unless the address space is too small for it to start."""
    limit = address_space_limit()
    if limit is not None and limit < START_BYTES:
        sys.stderr.write(
            f"understudy: error: out of memory: the address space is capped at {limit // 2**20} MB"
            f" (ulimit -v); understudy needs {START_BYTES // 2**20} MB to start\n"
        )
        return 1
    watch_progress()  # a capped process that stops making progress ends, saying so
    from understudy.cli import main as run

    return run()
