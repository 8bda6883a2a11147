"""Children that Ctrl-C tests interrupt, started so that SIGINT reaches them.

A process started with SIGINT ignored (a shell's background job, ``nohup``, some CI runners)
passes the ignoring on to its children, and Python started so keeps ignoring it: it installs
its ``KeyboardInterrupt`` handler only where SIGINT has its default action. A test that sends
SIGINT to such a child would wait for an end that never comes. :func:`interruptible` starts the
child through a short trampoline that restores SIGINT's default action before ``exec``: no
``preexec_fn``, which is unsafe where the test runs threads (its servers).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from typing import Any

DEADLINE = 300.0
"""The longest a test waits for an interrupted child, in seconds (a bound, not a timing)."""

_TRAMPOLINE = (
    "import os, signal, sys\n"
    "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
    "os.execv(sys.argv[1], sys.argv[1:])"
)


def interruptible(argv: Sequence[str], **popen: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(argv, **popen)`` with SIGINT at its default action in the child,
    whatever this process does with it; ``argv[0]`` is a path to an executable."""
    return subprocess.Popen([sys.executable, "-c", _TRAMPOLINE, *argv], **popen)
