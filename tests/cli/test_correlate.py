"""The correlate command: human scores matched to systems and segments."""

from __future__ import annotations

import json
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


def test_each_file_is_read_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Segment level with a WMT24 statistic: the text metrics, the given scores and the
    meta-evaluation's matrices all come from one reading of REF and -i."""
    import understudy.cli.correlate as command
    from understudy.inputs.parallel import read_parallel as real

    ref, hyp_a, hyp_b = (tmp_path / n for n in ("ref.txt", "A.txt", "B.txt"))
    ref.write_text("a b c d\ne f g h\ni j k l\nm n o p\n", encoding="utf-8")
    hyp_a.write_text("a b c d\ne f x h\ni y z l\nm n o q\n", encoding="utf-8")
    hyp_b.write_text("a b x d\ne f g h\ni j k q\nx y z p\n", encoding="utf-8")
    human = tmp_path / "human.tsv"
    judged = {"A": [4, 2, 1, 3], "B": [3, 4, 2, 1]}
    human.write_text("".join(f"{s}\t{g}\t{judged[s][g - 1]}\n" for s in "AB" for g in range(1, 5)))
    reads: list[list[str]] = []

    def counted(refs: list[str], inputs: list[str], *rest: object) -> tuple[list[list[str]], list[list[str]]]:
        reads.append([*refs, *inputs])
        return real(refs, inputs, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(command, "read_parallel", counted)
    argv = ["correlate", str(ref), "-i", str(hyp_a), str(hyp_b), "--human", str(human), "--level", "segment"]
    status, out, err = run_cli(capsys, *argv, "-m", "chrf", "--statistics", "acc-eq", "-f", "json")
    assert status == 0, err
    assert reads == [[str(ref), str(hyp_a), str(hyp_b)]]
    # The number itself: tie-calibrated accuracy over the 28 pairs of the 8 judged segments, by
    # its definition (the best threshold under which metric differences count as ties), on
    # sacrebleu's sentence chrF.
    from sacrebleu.metrics import CHRF

    refs = ref.read_text(encoding="utf-8").splitlines()
    metric, people = [], []
    for name, path in (("A", hyp_a), ("B", hyp_b)):
        for k, hyp in enumerate(path.read_text(encoding="utf-8").splitlines()):
            metric.append(CHRF().sentence_score(hyp, [refs[k]]).score)
            people.append(judged[name][k])
    pairs = [(i, j) for i in range(8) for j in range(i + 1, 8)]

    def accuracy(eps: float) -> float:
        def agrees(i: int, j: int) -> bool:
            dm, dh = metric[i] - metric[j], people[i] - people[j]
            return (abs(dm) <= eps) == (dh == 0) and (dh == 0 or (dm > 0) == (dh > 0))

        return sum(agrees(i, j) for i, j in pairs) / len(pairs)

    best = max(accuracy(abs(metric[i] - metric[j])) for i, j in [*pairs, (0, 0)])
    (found,) = json.loads(out)["correlations"]
    assert found["statistic"] == "acc-eq" and found["value"] == pytest.approx(best, abs=1e-12)
