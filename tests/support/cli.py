"""The command line run in process, as the shell runs it."""

from __future__ import annotations

import sys

import pytest
from understudy.cli import main


def run_cli(capture: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The command line run in process: its exit status, stdout and stderr (capsys or capfd).

    argparse's errors (status 2) exit through ``SystemExit``, as they do for the shell.
    """
    try:
        status = main(list(argv))
    except SystemExit as exit:
        status = exit.code if isinstance(exit.code, int) else 1
    sys.stdout.flush()
    out, err = capture.readouterr()
    return status, out, err
