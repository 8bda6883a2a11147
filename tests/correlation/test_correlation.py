"""understudy.correlation: statistics against SciPy and hand computation, human-score readers,
MQM weighting, bootstrap and permutation, and `understudy correlate` on the WMT21 TED MQM data."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sp
from understudy import BLEU, CHRF
from understudy.correlation import compare, correlate, outliers, read_human, read_mqm
from understudy.correlation.statistics import (
    STATISTICS,
    accuracy,
    kendall_b,
    kendall_c,
    kendall_wmt,
    pearson,
    spearman,
)
from understudy.errors import (
    ConfigError,
    InputError,
    InputFileError,
    UnderstudyError,
)

from tests.support.cli import run_cli as run
from tests.support.paths import REPO

TED = Path(os.environ.get("UNDERSTUDY_SHARED", REPO.parent / "shared")) / "data" / "wmt21-ted-zh-en-mqm"
SYSTEMS = ["Borderline", "DIDI-NLP", "Facebook-AI", "IIE-MT", "MiSS", "NiuTrans", "Online-W", "SMU",
           *(f"metricsystem{k}" for k in range(1, 6))]  # fmt: skip


def test_hand_computed_cases_tell_the_variants_apart() -> None:
    # x has a tie (items 1, 2), y another (items 2, 3): 3 concordant pairs, 1 discordant.
    x, y = [1, 2, 2, 3], [1, 3, 2, 2]
    assert pearson(x, y) == pytest.approx(0.5)  # covariance 1 over variances 2 and 2
    assert spearman(x, y) == pytest.approx(0.5)  # ranks [1, 2.5, 2.5, 4] and [1, 4, 2.5, 2.5]
    assert kendall_b(x, y) == pytest.approx(2 / math.sqrt(5 * 5))  # (C - D) / sqrt((6 - 1)(6 - 1))
    assert kendall_c(x, y) == pytest.approx(0.375)  # 2 (C - D) / (n^2 (m - 1) / m), m = 3
    assert kendall_wmt(x, y) == pytest.approx(0.2)  # human tie dropped; metric tie discordant: 3 vs 2
    assert accuracy(x, y) == pytest.approx(0.5)  # 3 of 6 pairs with equal signs


def test_statistics_are_scipys_on_random_data() -> None:
    rng = np.random.default_rng(1)
    for _ in range(20):
        x, y = rng.normal(size=15), rng.integers(0, 5, size=15).astype(float)
        assert pearson(x, y) == sp.pearsonr(x, y).statistic
        assert spearman(x, y) == sp.spearmanr(x, y).statistic
        assert kendall_b(x, y) == sp.kendalltau(x, y, variant="b").statistic
        assert kendall_c(x, y) == sp.kendalltau(x, y, variant="c").statistic
    with pytest.raises(InputError, match="at least 2 items"):
        pearson([1.0], [2.0])


def test_bootstrap_is_seeded_and_orientation_follows_the_metric() -> None:
    rng = np.random.default_rng(2)
    human = rng.normal(size=12)
    bleu = human * 3 + rng.normal(size=12)
    ter = -bleu
    names = [f"s{k}" for k in range(12)]
    a = correlate({"BLEU": bleu, "TER": ter}, human, names, higher_is_better={"TER": False}, n_bootstrap=300)
    b = correlate({"BLEU": bleu, "TER": ter}, human, names, higher_is_better={"TER": False}, n_bootstrap=300)
    c = correlate({"BLEU": bleu}, human, names, n_bootstrap=300, seed=7)
    assert a == b and a.get("BLEU", "pearson") == a.get("TER", "pearson").__class__("BLEU", "pearson",
        a.get("TER", "pearson").value, a.get("TER", "pearson").low, a.get("TER", "pearson").high)  # fmt: skip
    assert a.get("BLEU", "pearson").low != c.get("BLEU", "pearson").low
    low, high = a.get("BLEU", "pearson").low, a.get("BLEU", "pearson").high
    assert low is not None and high is not None and low < a.get("BLEU", "pearson").value < high
    with pytest.raises(ConfigError, match="unknown statistic 'tau'"):
        correlate({"BLEU": bleu}, human, names, statistics=["tau"])


def test_outliers_are_named_and_left_out_once() -> None:
    human = [-2.4, -1.7, -2.6, -2.0, -2.0, -2.5, -2.9, -2.2, -1.9, -1.8, -3.0, -2.0, -2.2, -5.5]
    names = [f"s{k}" for k in range(13)] + ["ref-A"]
    assert outliers(human, names) == ("ref-A",)
    metric = [30 + 5 * h for h in human[:-1]] + [45.0]
    result = correlate({"BLEU": metric}, human, names, n_bootstrap=50)
    assert result.outliers == ("ref-A",)
    without = next(c for c in result.without_outliers if c.statistic == "pearson")
    assert without.value == pytest.approx(1.0) and result.get("BLEU", "pearson").value < 0


def test_paired_permutation_compares_two_metrics() -> None:
    # Swapping single items between a near-perfect and a random metric moves both correlations a
    # lot: with 15 items the test cannot tell them apart (p ~ 0.1); with 60 it can.
    rng = np.random.default_rng(3)
    human = rng.normal(size=60)
    good, bad = human + 0.1 * rng.normal(size=60), rng.normal(size=60)
    result = compare(("good", good), ("bad", bad), human, n=500)
    assert result.difference > 0.9 and result.p_value == 1 / 501
    again = compare(("good", good), ("bad", bad), human, n=500)
    assert again == result and result.signature.startswith("stat:pearson|items:60|perm:500|seed:12345|")
    assert compare(("a", good), ("b", good), human, n=200).p_value == 1.0


def test_readers_of_every_format(tmp_path: Path) -> None:
    tsv = tmp_path / "h.tsv"
    tsv.write_text("system\tscore\nA\t1.5\nB\t-0.5\n", encoding="utf-8")
    assert read_human(tsv).system == {"A": 1.5, "B": -0.5}
    csv_file = tmp_path / "h.csv"
    csv_file.write_text('A,1.5\n"B, the second",2\n', encoding="utf-8")
    assert read_human(csv_file).system == {"A": 1.5, "B, the second": 2.0}
    segments = tmp_path / "seg.tsv"
    segments.write_text("A\t1\t-1\nA\t3\t-3\nB\t2\t0\n", encoding="utf-8")
    human = read_human(segments)
    assert human.segments == {"A": {1: -1.0, 3: -3.0}, "B": {2: 0.0}} and human.system == {
        "A": -2.0,
        "B": 0.0,
    }
    for data in ({"A": 1.5}, {"A": {"1": -1, "3": -3}}, [{"system": "A", "segment": 1, "score": -1}]):
        (tmp_path / "h.json").write_text(json.dumps(data), encoding="utf-8")
        assert "A" in read_human(tmp_path / "h.json").system
    for text, message in [
        ("A\t1\nB\tlots\n", r"h\.tsv:2: 'lots' is not a number"),
        ("A\t1\nA\t2\n", r"h\.tsv:2: system 'A' has a score already"),
        ("A\t0\t1\n", r"h\.tsv:1: segment '0' is not a segment number \(a whole number from 1\)"),
        ("A\t1\t2\nB\t1\n", r"h\.tsv:2: expected 3 fields, found 2"),
    ]:
        tsv.write_text(text, encoding="utf-8")
        with pytest.raises(InputFileError, match=message):
            read_human(tsv)


def test_mqm_weighting_by_hand(tmp_path: Path) -> None:
    header = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    rows = [
        # sys1, segment 1: rater1 major + minor = 6; rater2 minor punctuation = 0.1 -> mean 3.05
        "sys1\td\t1\t1\trater1\ts\tt\tAccuracy/Mistranslation\tMajor",
        "sys1\td\t1\t1\trater1\ts\tt\tFluency/Grammar\tMinor",
        "sys1\td\t1\t1\trater2\ts\tt\tFluency/Punctuation\tMinor",
        # sys1, segment 2: rater1 no error = 0 -> 0
        "sys1\td\t1\t2\trater1\ts\tt\tNo-error\tNo-error",
        # sys2, segment 1: a non-translation weighs 25 whatever its severity; neutral 0
        "sys2\td\t1\t1\trater1\ts\tt\tNon-translation!\tMinor",
        "sys2\td\t1\t1\trater1\ts\tt\tOther\tNeutral",
    ]
    path = tmp_path / "mqm.tsv"
    path.write_text(header + "\n".join(rows) + "\n", encoding="utf-8")
    human = read_mqm(path)
    assert human.segments == {"sys1": {1: -3.05, 2: -0.0}, "sys2": {1: -25.0}}
    assert human.system == {"sys1": pytest.approx(-1.525), "sys2": -25.0}
    assert read_human(path) == human  # told apart by its header
    path.write_text("system\tseg_id\trater\tcategory\n", encoding="utf-8")
    with pytest.raises(InputFileError, match=r"needs the columns .* missing severity"):
        read_mqm(path)


@pytest.fixture(scope="module")
def ted() -> Path:
    if not (TED / "mqm_system_scores.tsv").exists():
        pytest.skip(f"WMT21 TED data not found at {TED}")
    return TED


def test_correlate_on_the_ted_mqm_data(ted: Path, capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    inputs = [str(ted / f"{s}.txt") for s in SYSTEMS]
    human_file = ["--human", str(ted / "mqm_system_scores.tsv")]
    argv = ["correlate", str(ted / "ref-B.txt"), *human_file, "-i", *inputs]
    status, out, err = run(capfd, *argv, "-m", "bleu", "chrf", "ter", "-f", "json", "-n", "200")
    assert status == 0, err
    record = json.loads(out)
    table = (ted / "mqm_system_scores.tsv").read_text().splitlines()[1:]
    human = [float(line.split("\t")[1]) for line in table if line.split("\t")[0] in SYSTEMS]
    refs = [(ted / "ref-B.txt").read_text(encoding="utf-8").splitlines()]
    bleu = [BLEU().corpus_score((ted / f"{s}.txt").read_text(encoding="utf-8").splitlines(), refs).score
            for s in sorted(SYSTEMS, key=lambda s: record["items"].index(s))]  # fmt: skip
    assert record["scores"]["BLEU"] == bleu
    ordered_human = [record["human"][record["items"].index(s)] for s in record["items"]]
    got = next(c for c in record["correlations"] if (c["metric"], c["statistic"]) == ("BLEU", "pearson"))
    assert got["value"] == sp.pearsonr(bleu, ordered_human).statistic and sorted(human) == sorted(
        record["human"]
    )
    ter = next(c for c in record["correlations"] if (c["metric"], c["statistic"]) == ("TER", "spearman"))
    assert ter["value"] == -sp.spearmanr(record["scores"]["TER"], record["human"]).statistic
    assert record["unscored_in_human_file"] == {
        "ref-A": pytest.approx(-5.515, abs=1e-3),
        "ref-B": pytest.approx(-0.415, abs=1e-3),
    }

    # ref-A scored as a system against ref-B: it is named as an outlier, with correlations without it.
    status, text, _ = run(
        capfd, *argv, str(ted / "ref-A.txt"), "-n", "100", "--plot", str(tmp_path / "r.svg")
    )
    assert status == 0 and "Far from the other human scores: ref-A; without it:" in text
    assert (tmp_path / "r.svg").read_text().lstrip().startswith("<?xml")
    status, text, _ = run(capfd, *argv, "-n", "100")
    assert "Judged worse than every scored system: ref-A" in text

    status, printed, _ = run(
        capfd, *argv, "-m", "bleu", "chrf", "-f", "csv", "-n", "50", "--statistics", "pearson"
    )
    rows = list(csv.reader(io.StringIO(printed)))
    assert rows[0] == ["metric", "pearson", "pearson_low", "pearson_high", "signature"]
    assert [r[0] for r in rows[1:]] == ["BLEU", "chrF2"] and rows[1][4].startswith("nrefs:1|case:mixed|")


def test_segment_level_from_a_constructed_file(
    ted: Path, capfd: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    refs = [(ted / "ref-B.txt").read_text(encoding="utf-8").splitlines()]
    chosen = SYSTEMS[:3]
    rng = np.random.default_rng(4)
    lines, pairs = [], []
    for s in chosen:
        sentence = CHRF().sentence_scores((ted / f"{s}.txt").read_text(encoding="utf-8").splitlines(), refs)
        for seg in sorted(rng.choice(len(refs[0]), 40, replace=False) + 1):
            score = float(sentence[seg - 1] / 10 + rng.normal())
            lines.append(f"{s}\t{seg}\t{score!r}")
            pairs.append((float(sentence[seg - 1]), score))
    human = tmp_path / "segments.tsv"
    human.write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = ["correlate", str(ted / "ref-B.txt"), "-i", *(str(ted / f"{s}.txt") for s in chosen)]
    options = ["--level", "segment", "-m", "chrf", "-f", "json", "-n", "100", "--statistics", *STATISTICS]
    status, out, err = run(capfd, *argv, "--human", str(human), *options)
    assert status == 0, err
    record = json.loads(out)
    metric, truth = zip(*pairs, strict=True)
    assert record["scores"]["chrF2"] == list(metric) and len(record["items"]) == 120
    for c in record["correlations"]:
        assert c["value"] == STATISTICS[c["statistic"]](metric, truth)
    status, _, err = run(capfd, *argv, "--human", str(ted / "mqm_system_scores.tsv"), "--level", "segment")
    assert status == 1 and "has system scores only" in err
    # The same file at system level, with the paper's figures: the adjacent differences need segments.
    plot = tmp_path / "fig.svg"
    status, out, err = run(capfd, *argv, "--human", str(human), "-n", "20", "--paper", "--plot", str(plot))
    assert status == 0, err
    assert "over" in out and "on 40 segments" not in out  # the systems share only some judged segments
    for name in ("fig.svg", "fig.normalized.svg", "fig.adjacent.svg"):
        assert (tmp_path / name).read_text().lstrip().startswith("<?xml"), name
    status, _, err = run(capfd, *argv, "--human", str(human), "--plot", str(tmp_path / "fig.pdf"))
    assert status == 1 and "a plot is written as .png or .svg, not '.pdf'" in err


def test_the_papers_analyses_by_hand() -> None:
    from understudy.correlation.paper import (
        adjacent_differences,
        range_normalized,
        reference_subsets,
        regression,
    )
    from understudy.inputs.human import HumanScores

    human = HumanScores(
        {"A": -1.5, "B": -0.5, "C": 0.0},
        {"A": {1: -1, 2: -2, 3: -1, 4: -2}, "B": {1: 0, 2: -1, 3: -1, 4: 0}, "C": {1: 0, 2: 0, 3: 0, 4: 0}},
    )
    first, second = adjacent_differences(human, ["C", "A", "B"])
    # B - A per segment: 1, 1, 0, 2: mean 1, sd sqrt(2/3), t(0.975, 3) from SciPy.
    half = sp.t.ppf(0.975, 3) * math.sqrt(2 / 3) / 2
    assert (first.lower, first.higher, first.segments, first.mean) == ("A", "B", 4, 1.0)
    assert (first.low, first.high) == pytest.approx((1 - half, 1 + half))
    assert not first.significant and (second.lower, second.higher, second.mean) == ("B", "C", 0.5)
    x, y = [1.0, 2.0, 4.0, 5.0], [2.0, 2.5, 5.0, 4.5]
    fit = regression(x, y)
    slope, intercept = np.polyfit(x, y, 1)
    assert (fit.slope, fit.intercept) == pytest.approx((slope, intercept))
    assert sum(fit.residuals) == pytest.approx(0.0, abs=1e-12) and fit.r == pytest.approx(
        sp.pearsonr(x, y).statistic
    )
    assert range_normalized([3.0, 1.0, 2.0]) == [1.0, 0.0, 0.5] and range_normalized([2.0, 2.0]) == [0.0, 0.0]
    table = {(0,): [1.0, 2.0, 3.0], (1,): [3.0, 2.0, 1.0], (0, 1): [1.0, 3.0, 2.0]}
    found = reference_subsets(lambda subset: table[tuple(subset)], 2, [1.0, 2.0, 3.0])
    assert [c.references for c in found[1]] == [(1,), (2,)]
    assert [c.value for c in found[1]] == pytest.approx([1.0, -1.0])
    assert found[2][0].value == pytest.approx(0.5)


def test_correlate_paper_analyses_on_two_references(ted: Path, capfd: pytest.CaptureFixture[str]) -> None:
    inputs = [str(ted / f"{s}.txt") for s in SYSTEMS]
    human = ["--human", str(ted / "mqm_system_scores.tsv"), "-n", "20", "-f", "json"]
    status, out, err = run(
        capfd, "correlate", str(ted / "ref-B.txt"), str(ted / "ref-A.txt"), *human, "--paper", "-i", *inputs
    )
    assert status == 0, err
    paper = json.loads(out)["paper"]
    subsets = paper["reference_subsets"]["metrics"]["BLEU"]
    alone = json.loads(run(capfd, "correlate", str(ted / "ref-B.txt"), *human, "-i", *inputs)[1])
    with_b = next(
        c["value"] for c in alone["correlations"] if (c["metric"], c["statistic"]) == ("BLEU", "pearson")
    )
    assert subsets["1"][0] == {"references": [1], "value": with_b}
    assert subsets["1"][1]["value"] < 0  # scored against ref-A alone, BLEU disagrees with MQM
    assert set(paper["regression"]["BLEU"]) == {"slope", "intercept", "r", "residuals"}
    assert min(paper["range_normalized"]["human"]) == 0.0 and max(paper["range_normalized"]["BLEU"]) == 1.0


def test_segment_resampling_rescores_every_system(ted: Path) -> None:
    from understudy.correlation import segment_resampler
    from understudy.inputs.human import HumanScores

    refs = [(ted / "ref-B.txt").read_text(encoding="utf-8").splitlines()[:50]]
    systems = [(ted / f"{s}.txt").read_text(encoding="utf-8").splitlines()[:50] for s in SYSTEMS[:4]]
    bleu = BLEU().segment_stats_many(systems, refs)
    judged = {s: {seg: -float(k) - seg / 100 for seg in range(1, 51, 2)} for k, s in enumerate(SYSTEMS[:4])}
    human = HumanScores({s: -float(k) for k, s in enumerate(SYSTEMS[:4])}, judged)

    class Every:  # a "random" draw of every segment once
        def integers(self, low: int, high: int, size: int) -> np.ndarray:
            return np.arange(size)

    class FirstTwice:  # segment 1 twice, segment 2 once, segment 50 for the rest
        def integers(self, low: int, high: int, size: int) -> np.ndarray:
            return np.array([0, 0, 1] + [49] * (size - 3))

    drawn, h = segment_resampler({"BLEU": bleu}, human, SYSTEMS[:4])(Every())  # type: ignore[arg-type]
    np.testing.assert_array_equal(drawn["BLEU"], [s.score().score for s in bleu])
    np.testing.assert_allclose(h, [np.mean(list(human.segments[s].values())) for s in SYSTEMS[:4]])
    drawn, h = segment_resampler({"BLEU": bleu}, human, SYSTEMS[:4])(FirstTwice())  # type: ignore[arg-type]
    picked = [0, 0, 1] + [49] * 47
    np.testing.assert_array_equal(drawn["BLEU"], [s[picked].score().score for s in bleu])
    # Judged segments drawn: segment 1 twice (segments 2 and 50 are not judged).
    np.testing.assert_allclose(h, [human.segments[s][1] for s in SYSTEMS[:4]])


MQM_HEADER = "system\tdoc\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


@pytest.mark.parametrize(
    ("a", "human", "why"),
    [
        ([3.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0], "scores of 'a' are all equal"),
        ([1.0, 2.0, 4.0, 3.0], [5.0, 5.0, 5.0, 5.0], "human scores are all equal"),
        ([1.0, math.nan, 4.0, 3.0], [1.0, 2.0, 3.0, 4.0], "score of 'a' is not a number"),
    ],
)
def test_an_undefined_correlation_has_no_p_value(a: list[float], human: list[float], why: str) -> None:
    # Before: the difference was NaN, no permutation reached it, and p was 1/(n+1), "significant".
    with pytest.raises(InputError, match=why):
        compare(("a", a), ("b", [1.0, 2.0, 3.0, 5.0]), human, n=99)


def test_a_defined_comparison_still_has_its_p_value() -> None:
    # Identical metrics: every permutation's difference is 0, at least the observed 0, so p = 1.
    same = compare(("a", [1.0, 2.0, 4.0, 3.0]), ("b", [1.0, 2.0, 4.0, 3.0]), [1.0, 2.0, 3.0, 4.0], n=99)
    assert same.difference == 0.0 and same.p_value == 1.0


def test_segment_numbers_reused_by_two_documents_are_refused(tmp_path: Path) -> None:
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
def test_json_readers_refuse_duplicates_depth_and_huge_numbers(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "human.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputFileError, match=message):
        read_human(path)


def test_json_and_tsv_read_the_same_scores(tmp_path: Path) -> None:
    (tmp_path / "h.json").write_text(json.dumps({"A": {"1": -1, "2": -3}, "B": {"1": 0.5}}))
    (tmp_path / "h.tsv").write_text("A\t1\t-1\nA\t2\t-3\nB\t1\t0.5\n")
    from_json, from_tsv = read_human(tmp_path / "h.json"), read_human(tmp_path / "h.tsv")
    assert from_json.segments == from_tsv.segments == {"A": {1: -1.0, 2: -3.0}, "B": {1: 0.5}}
    assert from_json.system == from_tsv.system == {"A": -2.0, "B": 0.5}
    assert isinstance(InputFileError("x"), UnderstudyError) and np.isfinite(from_json.system["A"])


def test_reference_subsets_are_bounded() -> None:
    pytest.importorskip("scipy")
    from understudy.correlation.paper import reference_subsets

    calls: list[tuple[int, ...]] = []

    def scores(subset: Sequence[int]) -> list[float]:
        calls.append(tuple(subset))
        return [1.0 + len(subset), 2.0 + sum(subset), 3.5]

    human = [1.0, 2.0, 3.0]
    assert sum(len(v) for v in reference_subsets(scores, 6, human).values()) == len(calls) == 2**6 - 1
    calls.clear()
    found = reference_subsets(scores, 18, human)
    # Before: all 262,143 subsets of 18 references (more than 90 s); now each alone, each left out, all.
    assert sorted(found) == [1, 17, 18] and len(calls) == 18 + 18 + 1
    assert found[17][0].references == tuple(range(1, 18))


def test_human_score_tables_say_one_line_for_any_content(tmp_path: Path) -> None:
    from understudy.errors import InputFileError
    from understudy.inputs.human import read_human

    path = tmp_path / "human.tsv"
    for content, said in [
        ("A\t²\t0.5\n", "segment '²' is not a segment number"),
        ("A\t1\t0.5\nB\t1\t" + "x" * 140_000 + "\n", ":2: not a table row"),
    ]:
        path.write_text(content, encoding="utf-8")
        with pytest.raises(InputFileError, match=re.escape(said)):
            read_human(path)
