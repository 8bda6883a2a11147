"""Shared fixtures: the WMT17 data beside the repository and a reader as sacrebleu's CLI reads."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from understudy.cli import main

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "data" / "wmt17-en-de"
SHARED = Path(os.environ.get("UNDERSTUDY_SHARED", REPO.parent / "shared")) / "data" / "wmt17-en-de"


def read_raw(path: Path) -> list[str]:
    """Lines as sacrebleu's API users read them: UTF-8, BOM kept, split on \\n, rstripped."""
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip() for line in fh]


@pytest.fixture(scope="session")
def wmt17_dir() -> Path:
    """The 16 WMT17 systems; CI has ../shared beside the clone, so missing data is an error there."""
    if not (SHARED / "newstest2017.ref.en-de.de").exists():
        if os.environ.get("CI"):
            pytest.fail(f"WMT17 data not found at {SHARED}")
        pytest.skip(f"WMT17 data not found at {SHARED}")
    return SHARED


@pytest.fixture(scope="session")
def wmt17_ref(wmt17_dir: Path) -> list[str]:
    return read_raw(wmt17_dir / "newstest2017.ref.en-de.de")


@pytest.fixture(scope="session")
def wmt17_systems(wmt17_dir: Path) -> dict[str, list[str]]:
    paths = sorted(p for p in wmt17_dir.glob("newstest2017.*.de") if ".ref." not in p.name)
    assert len(paths) == 16
    return {p.name.split(".")[1]: read_raw(p) for p in paths}


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


@pytest.fixture
def quiet_sacrebleu() -> Iterator[None]:
    """sacrebleu's logger held to errors: its advice on every sentence score without effective
    order, captured thousands of times, costs more than the scoring."""
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)
