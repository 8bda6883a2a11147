"""The command line run in process, as the shell runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


def run_process(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m understudy ARGV`` in a process of its own: its status, stdout and stderr."""
    return subprocess.run(
        [sys.executable, "-m", "understudy", *argv],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=300,
    )


def write_scores(path: Path, values: list[float]) -> str:
    """``values`` written to ``path``, one score a line (as repr writes them); the path as text."""
    path.write_text("".join(f"{v!r}\n" for v in values), encoding="utf-8")
    return str(path)


def write_texts(folder: Path, texts: dict[str, list[str]]) -> dict[str, str]:
    """Each named list of lines written to ``folder/NAME.txt``, one a line; the paths by name."""
    paths = {}
    for name, lines in texts.items():
        path = folder / f"{name}.txt"
        path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        paths[name] = str(path)
    return paths


def keep_given(tmp_path: Path, ledger: str, tag: str, comet: list[float], metricx: list[float]) -> None:
    """Keep COMET-22 and MetricX-24 scores of one system under ``tag`` (no text: the files' own)."""
    argv = ["score", "--scores", f"COMET-22={write_scores(tmp_path / f'{tag}.comet', comet)}"]
    argv += [f"MetricX-24={write_scores(tmp_path / f'{tag}.metricx', metricx)}", "--log", "--tag", tag]
    done = run_process(*argv, "--ledger", ledger)
    assert done.returncode == 0, done.stderr
