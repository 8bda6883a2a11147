"""The correlate command: human scores matched to systems and segments."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run_cli
from tests.support.paths import ONLINE_A, REF


def test_a_judged_segment_missing_from_metric_scores_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp_a, hyp_b = (tmp_path / n for n in ("ref.txt", "A.txt", "B.txt"))
    ref.write_text("a b c d\ne f g h\ni j k l\nm n o p\n", encoding="utf-8")
    hyp_a.write_text("a b c d\ne f x h\ni y z l\nm n o q\n", encoding="utf-8")
    hyp_b.write_text("a b x d\ne f g h\ni j k q\nx y z p\n", encoding="utf-8")
    human, other = tmp_path / "human.tsv", tmp_path / "comet.tsv"
    judged = [1, 3, 2, 4]
    human.write_text("".join(f"{s}\t{g}\t{judged[g - 1]}\n" for s in "AB" for g in range(1, 5)))
    other.write_text("".join(f"{s}\t{g}\t0.{g}\n" for s in "AB" for g in range(1, 5) if (s, g) != ("B", 3)))
    argv = ["correlate", str(ref), "-i", str(hyp_a), str(hyp_b), "--human", str(human), "--level", "segment"]
    status, out, err = run_cli(capsys, *argv, "--metric-scores", str(other), "-n", "100")
    assert status == 1 and out == ""
    missing = f"{other} has no score for segment 3 of 'B', which the human scores judge"
    missing += " (1 judged segment missing)"
    assert err == f"understudy: error: {missing}\n"
    human.write_text(human.read_text() + "A\t5\t1\n")
    status, out, err = run_cli(capsys, *argv, "-n", "100")
    assert status == 1 and "scores segment 5 of 'A', but the references have 4 lines" in err


def test_human_scores_match_systems_by_the_same_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    systems = []
    for run in ("run1", "run2", "run3"):
        (tmp_path / run).mkdir()
        systems.append(tmp_path / run / "out.de")
        systems[-1].write_bytes(ONLINE_A.read_bytes())
    human = tmp_path / "human.tsv"
    human.write_text("out.de\t1.0\n", encoding="utf-8")
    code, _, err = run_cli(capsys, "correlate", str(REF), "-i", *map(str, systems), "--human", str(human))
    assert code == 1 and "would serve both" in err
