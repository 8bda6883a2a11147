"""Shared fixtures: the WMT17 data beside the repository and a reader as sacrebleu's CLI reads."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support import postgres_server
from tests.support.paths import SHARED, read_raw


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


@pytest.fixture(scope="session")
def postgres() -> Iterator[postgres_server.Server]:
    """A real PostgreSQL server on 127.0.0.1 for this test process (tests/support/postgres_server.py)."""
    try:
        server = postgres_server.start()
    except (OSError, KeyError, RuntimeError) as err:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL server for the ledger's tests: {err}")
        pytest.skip(f"no PostgreSQL server for the ledger's tests: {err}")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def new_ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[str], str]:
    """Where a new, empty ledger is, by name, on each backend: the ledger's tests run on both.
    The same name gives the same ledger."""
    made: dict[str, str] = {}

    def location(name: str = "l") -> str:
        if name not in made:
            if request.param == "sqlite":
                made[name] = str(tmp_path / f"{name}.sqlite")
            else:
                made[name] = request.getfixturevalue("postgres").database()
        return made[name]

    return location


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
