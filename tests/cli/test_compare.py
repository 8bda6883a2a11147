"""The compare command: how it names systems."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import run_process
from tests.support.paths import ONLINE_A, PROMT, REF, SAMPLE, UEDIN


def test_compare_names_systems_as_the_report_does(tmp_path: Path) -> None:
    done = run_process("compare", str(REF), "-i", str(UEDIN), str(ONLINE_A), str(PROMT), "-n", "50")
    assert done.returncode == 0, done.stderr
    assert "uedin-nmt.4722" in done.stdout and str(SAMPLE) not in done.stdout
    assert max(map(len, done.stdout.splitlines()[:8])) < 80
    whole = run_process(
        "compare", str(REF), "-i", str(UEDIN), str(ONLINE_A), str(PROMT), "-n", "50", "-f", "json"
    )
    assert str(UEDIN) in whole.stdout
