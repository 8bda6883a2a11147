"""The suite's Ctrl-C tests reach their children when the suite itself ignores SIGINT (started
with ``nohup`` or as a background job)."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.support.signals import DEADLINE, interruptible

SHOW = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"


@pytest.fixture
def sigint_ignored() -> Iterator[None]:
    """This process ignores SIGINT, as under ``nohup``, for the test's length."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_plain_child_inherits_the_ignoring(sigint_ignored: None) -> None:
    # What hung the suite: this child would never see Ctrl-C.
    out = subprocess.run([sys.executable, "-c", SHOW], capture_output=True, text=True, timeout=DEADLINE)
    assert out.stdout == "False\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_an_interruptible_child_catches_sigint(sigint_ignored: None) -> None:
    child = interruptible([sys.executable, "-c", SHOW], stdout=subprocess.PIPE, text=True)
    out, _ = child.communicate(timeout=DEADLINE)
    assert out == "True\n" and child.returncode == 0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_an_interruptible_child_is_interrupted(sigint_ignored: None) -> None:
    code = "import sys, time\ntry:\n    print('ready', flush=True)\n    time.sleep(600)\n"
    code += "except KeyboardInterrupt:\n    sys.exit(3)"
    child = interruptible([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    child.send_signal(signal.SIGINT)
    assert child.wait(timeout=DEADLINE) == 3
