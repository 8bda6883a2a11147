"""The compare command: how it names systems."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def test_pairs_follow_the_ranking_as_a_list_or_a_matrix(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from tests.support.cli import run_cli

    # Given worst first: the pairs still follow the ranking, the better system first.
    argv = ["compare", str(REF), "-m", "bleu", "-n", "200", "-i", str(PROMT), str(ONLINE_A), str(UEDIN)]
    status, out, _ = run_cli(capsys, *argv, "-f", "json")
    record = json.loads(out)
    ranked = [s["name"] for s in record["ranking"]]
    p_of = {frozenset((p["a"], p["b"])): p["p_value"] for p in record["pairs"]}
    assert status == 0 and ranked == [str(UEDIN), str(ONLINE_A), str(PROMT)]
    short = [Path(n).name.removeprefix("newstest2017.").removesuffix(".en-de.de") for n in ranked]

    def cell(a: int, b: int) -> str:
        value = p_of[frozenset((ranked[a], ranked[b]))]
        return f"{value:.4f}" + ("*" if value <= 0.05 else "")

    status, out, _ = run_cli(capsys, *argv, "-f", "text")
    listed = out.split("Pair", 1)[1].splitlines()[2:5]
    pairs = [(0, 1), (0, 2), (1, 2)]
    assert [line.split() for line in listed] == [[short[a], "vs", short[b], cell(a, b)] for a, b in pairs]
    status, out, _ = run_cli(capsys, *argv, "-f", "text", "--pairs", "matrix")
    rows = out.split("Rank. System", 1)[1].splitlines()[2:5]
    assert status == 0 and out.split("Rank. System", 1)[1].splitlines()[0].split() == ["1", "2", "3"]
    for a, line in enumerate(rows):
        assert line.split() == [f"{a + 1}.", short[a], *("-" if a == b else cell(a, b) for b in range(3))]
