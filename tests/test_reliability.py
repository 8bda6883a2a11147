"""Issue 26, reliability round three: each defect the probe found, reproduced and held fixed.

Each test names the item it covers; the values are worked by hand or come from sacrebleu and SciPy.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from understudy.correlation import compare, read_human, read_mqm
from understudy.errors import InputError, InputFileError, UnderstudyError

from .conftest import run_cli

MQM_HEADER = "system\tdoc\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


@pytest.mark.parametrize(
    ("a", "human", "why"),
    [
        ([3.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0], "scores of 'a' are all equal"),
        ([1.0, 2.0, 4.0, 3.0], [5.0, 5.0, 5.0, 5.0], "human scores are all equal"),
        ([1.0, math.nan, 4.0, 3.0], [1.0, 2.0, 3.0, 4.0], "score of 'a' is not a number"),
    ],
)
def test_1_an_undefined_correlation_has_no_p_value(a: list[float], human: list[float], why: str) -> None:
    # Before: the difference was NaN, no permutation reached it, and p was 1/(n+1), "significant".
    with pytest.raises(InputError, match=why):
        compare(("a", a), ("b", [1.0, 2.0, 3.0, 5.0]), human, n=99)


def test_1_a_defined_comparison_still_has_its_p_value() -> None:
    # Identical metrics: every permutation's difference is 0, at least the observed 0, so p = 1.
    same = compare(("a", [1.0, 2.0, 4.0, 3.0]), ("b", [1.0, 2.0, 4.0, 3.0]), [1.0, 2.0, 3.0, 4.0], n=99)
    assert same.difference == 0.0 and same.p_value == 1.0


def test_2_segment_numbers_reused_by_two_documents_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "mqm.tsv"
    rows = ["A\td1\t1\tr1\ts\tt\tAccuracy/Mistranslation\tMajor", "A\td1\t2\tr1\ts\tt\tno-error\tno-error"]
    rows += ["A\td2\t1\tr1\ts\tt\tno-error\tno-error", "A\td2\t2\tr1\ts\tt\tno-error\tno-error"]
    path.write_text(MQM_HEADER + "\n".join(rows) + "\n", encoding="utf-8")
    # Before: d2's segment 1 overwrote d1's, and the system's one Major error vanished (0.0).
    with pytest.raises(
        InputFileError, match=r"mqm.tsv:4: segment 1 is in document 'd2' and, on line 2, in 'd1'"
    ):
        read_mqm(path)
    numbered = "\n".join(r.replace("\td2\t1\t", "\td2\t3\t").replace("\td2\t2\t", "\td2\t4\t") for r in rows)
    path.write_text(MQM_HEADER + numbered + "\n", encoding="utf-8")
    assert read_mqm(path).system == {"A": -5.0 / 4}


def test_6_a_judged_segment_missing_from_metric_scores_is_an_error(
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


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1, "a": 7}', "key 'a' is given twice"),
        ('{"a": {"1": 1, "1": 2}}', "key '1' is given twice"),
        ('{"a": {"1": 1, "01": 2}}', "segment 1 of 'a' has a score already"),
        (
            '[{"system": "a", "segment": 1, "score": 1}, {"system": "a", "segment": 1, "score": 2}]',
            "record 2: segment 1",
        ),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a": ' + "9" * 5000 + "}", "not a finite number"),
        ('{"a": true}', "expected a number"),
        ('{"a": {"1": [1]}}', "expected a number"),
    ],
)
def test_7_18_json_readers_refuse_duplicates_depth_and_huge_numbers(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "human.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError, match=message):
        read_human(path)


def test_7_json_and_tsv_read_the_same_scores(tmp_path: Path) -> None:
    (tmp_path / "h.json").write_text(json.dumps({"A": {"1": -1, "2": -3}, "B": {"1": 0.5}}))
    (tmp_path / "h.tsv").write_text("A\t1\t-1\nA\t2\t-3\nB\t1\t0.5\n")
    from_json, from_tsv = read_human(tmp_path / "h.json"), read_human(tmp_path / "h.tsv")
    assert from_json.segments == from_tsv.segments == {"A": {1: -1.0, 2: -3.0}, "B": {1: 0.5}}
    assert from_json.system == from_tsv.system == {"A": -2.0, "B": 0.5}
    assert isinstance(InputFileError("x"), UnderstudyError) and np.isfinite(from_json.system["A"])
