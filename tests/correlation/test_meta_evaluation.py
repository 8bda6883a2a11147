"""WMT24's meta-evaluation statistics against mt-metrics-eval's own numbers on the WMT21 TED zh-en
MQM data (tests/fixtures/mtme_ted.json, made by scripts/mtme_fixtures.py with mt-metrics-eval,
which CI cannot install), and against exact counts computed here."""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from understudy import BLEU, CHRF
from understudy.correlation import spa
from understudy.correlation.grouped import grouped_statistic
from understudy.correlation.perm_both import EarlyStopping, PermBoth, clusters, pairs_perm_both, perm_both
from understudy.correlation.spa import (
    PermutationSigns,
    corpus_p_values,
    fixed_point,
    one_minus_pce,
    soft_pairwise_accuracy,
    spa_corpus,
)
from understudy.correlation.ties import tie_calibrated_accuracy
from understudy.errors import ConfigError, InputError
from understudy.metric import Metric

from tests.correlation.test_correlation import SYSTEMS, TED
from tests.support.cli import run_cli as run
from tests.support.paths import REPO

FIXTURE = json.loads((REPO / "tests" / "fixtures" / "mtme_ted.json").read_text(encoding="utf-8"))


def lines(name: str) -> list[str]:
    return (TED / f"{name}.txt").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def human() -> dict[str, np.ndarray]:
    if not (TED / "mqm_segment_scores.tsv").exists():
        pytest.skip(f"WMT21 TED data not found at {TED}")
    full = np.full((len(SYSTEMS), 529), np.nan)
    for row in (TED / "mqm_segment_scores.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        system, segment, score = row.split("\t")
        if system in SYSTEMS:
            full[SYSTEMS.index(system), int(segment) - 1] = float(score)
    out = {"full": full}
    for name, cells in FIXTURE["gaps"].items():
        out[name] = full.copy()
        out[name][tuple(np.array(cells).T)] = np.nan
    return out


def synthetic_comet(ref: list[str]) -> np.ndarray:
    """scripts/synthetic_comet.py's numbers, as the fixture script took them (4 decimals)."""
    chrf = CHRF(references=[ref])
    rng = np.random.default_rng(2017)
    rows = []
    for system in SYSTEMS:
        quality = chrf.sentence_scores(lines(system)) / 100
        noisy = 0.5 + 0.45 * np.tanh(2.5 * (quality - 0.45)) + rng.normal(0, 0.04, len(quality))
        rows.append([float(f"{v:.4f}") for v in np.clip(noisy, 0, 1)])
    return np.array(rows)


@pytest.fixture(scope="module")
def metrics(human: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Sentence BLEU, chrF, chrF++ against ref-B, and the COMET-style scores: the fixture's inputs,
    checked by their SHA-256 against those the oracle (sacrebleu) computed."""
    ref = lines("ref-B")
    scorers: dict[str, Metric[Any, Any]] = {
        "BLEU": BLEU(effective_order=True),
        "chrF": CHRF(),
        "chrF++": CHRF(word_order=2),
    }
    out = {
        name: np.array([m.sentence_scores(lines(s), [ref]) for s in SYSTEMS]) for name, m in scorers.items()
    }
    out["COMET-style"] = synthetic_comet(ref)
    for name, matrix in out.items():
        assert hashlib.sha256(matrix.tobytes()).hexdigest() == FIXTURE["metric_sha256"][name], name
    return out


def exact_ties(
    scores: np.ndarray, permutations: int, seed: int, decimal: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Per pair i < j: how often the permuted difference is at least the observed one, and how often
    exactly equal, in whole numbers: each score as the shortest decimal that reads back as it
    (``decimal``) or as the binary fraction it is, over their common denominator."""
    draws = np.random.default_rng(seed).random((permutations, scores.shape[1]), dtype=np.float32)
    exact = [[Fraction(repr(float(v))) if decimal else Fraction(float(v)) for v in row] for row in scores]
    denominator = math.lcm(*(f.denominator for row in exact for f in row))
    whole = np.array([[int(f * denominator) for f in row] for row in exact], dtype=object)
    sums = (draws <= 0.5).astype(object) @ whole.T
    i, j = np.triu_indices(len(scores), 1)
    difference = sums[:, i] - sums[:, j]
    return np.sum(difference <= 0, axis=0).astype(int), np.sum(difference == 0, axis=0).astype(int)


def upper(matrix: Any) -> np.ndarray:
    m = np.array(matrix, dtype=np.float64)
    return m[np.triu_indices(len(m), 1)]


@pytest.mark.parametrize("case", FIXTURE["spa"], ids=lambda c: f"{c['human']}-{c['metric']}-{c['seed']}")
def test_spa_is_mt_metrics_evals_with_its_ties_settled_exactly(
    case: dict[str, Any], human: dict[str, np.ndarray], metrics: dict[str, np.ndarray]
) -> None:
    h, n, seed = human[case["human"]], case["permutations"], case["seed"]
    got = soft_pairwise_accuracy(metrics[case["metric"]], h, n, seed)
    # The metric's p-values are mt-metrics-eval's, every one.
    assert np.array_equal(upper(got.metric_p), upper(case["metric_p"]))
    # The human's (MQM, discrete) differ only where a permuted difference ties the observed one:
    # mt-metrics-eval's float32 sums count some ties and miss others; here each tie counts.
    kept = ~np.isnan(h).any(axis=0)
    at_least, ties = exact_ties(h[:, kept], n, seed)
    theirs = np.round(upper(case["human_p"]) * n).astype(int)
    assert np.array_equal(upper(got.human_p), at_least / n)
    assert np.all((theirs <= at_least) & (at_least - theirs <= ties))
    assert ties.sum() > 0 and (theirs != at_least).any()  # the data has such ties
    # With mt-metrics-eval's human p-values, SPA is its number to the bit.
    assert one_minus_pce(np.array(case["human_p"], dtype=np.float64), got.metric_p) == case["spa"]
    assert got.value == one_minus_pce(got.human_p, got.metric_p)


def test_spa_ties_on_the_ted_data_are_13_of_78000(human: dict[str, np.ndarray]) -> None:
    _, ties = exact_ties(human["full"], 1000, 4)
    assert ties.sum() == 13


@pytest.mark.parametrize(
    "case", FIXTURE["acc_eq"], ids=lambda c: f"{c['human']}-{c['metric']}-{c['average_by']}"
)
def test_acc_eq_is_mt_metrics_evals_to_the_bit(
    case: dict[str, Any], human: dict[str, np.ndarray], metrics: dict[str, np.ndarray]
) -> None:
    rows, cols = case["systems"], case["segments"]
    by = {"sys": "system"}.get(case["average_by"], case["average_by"])
    got = tie_calibrated_accuracy(
        metrics[case["metric"]][:rows, :cols], human[case["human"]][:rows, :cols], by
    )
    assert (got.value, got.threshold) == (case["acc_eq"], case["threshold"])


def brute_acc_eq(metric: np.ndarray, human: np.ndarray, threshold: float) -> float:
    """The mean over the groups (rows) of the share of pairs right at ``threshold``, in Fractions."""
    shares = []
    for m, h in zip(metric, human, strict=True):
        pairs = [(i, j) for i, j in itertools.combinations(range(len(h)), 2) if not np.isnan(h[i] + h[j])]
        if not pairs:
            continue
        right = 0
        for i, j in pairs:
            tied = abs(m[i] - m[j]) <= threshold
            right += (h[i] == h[j]) if tied else (h[i] != h[j] and (h[i] > h[j]) == (m[i] > m[j]))
        shares.append(Fraction(right, len(pairs)))
    return float(sum(shares) / len(shares))


def test_acc_eq_is_the_best_accuracy_over_every_threshold() -> None:
    rng = np.random.default_rng(5)
    for _ in range(30):
        systems, segments = rng.integers(2, 6), rng.integers(1, 9)
        human = rng.integers(-3, 1, (systems, segments)).astype(float)
        human[rng.random(human.shape) < 0.15] = np.nan
        metric = np.round(rng.random((systems, segments)), int(rng.integers(1, 3)))
        for by, grouped in (("system", (metric, human)), ("item", (metric.T, human.T))):
            m, h = grouped
            if not any((~np.isnan(row)).sum() >= 2 for row in h):
                with pytest.raises(InputError, match="no pair"):
                    tie_calibrated_accuracy(metric, human, by)
                continue
            got = tie_calibrated_accuracy(metric, human, by)
            candidates = {0.0} | {abs(a - b) for row in m for a, b in itertools.combinations(row, 2)}
            best = max(brute_acc_eq(m, h, t) for t in candidates)
            assert math.isclose(got.value, best, rel_tol=1e-12)
            assert math.isclose(brute_acc_eq(m, h, got.threshold), best, rel_tol=1e-12)


def test_spa_counts_agree_with_exact_fractions_on_binary_floats() -> None:
    # Scores that are no short decimals go the float64 way, with exact sums where rounding could
    # decide: built so that many permuted differences tie the observed one exactly.
    rng = np.random.default_rng(9)
    base = rng.random(40) / 3
    scores = np.vstack([base, base + 0.0, base[::-1].copy(), rng.random(40) / 7])
    scores[1, :20] = scores[0, :20]
    assert fixed_point(scores, 40) is None
    signs = PermutationSigns(40, permutations=300, seed=11)
    want, ties = exact_ties(scores, 300, 11, decimal=False)
    assert ties.sum() > 0
    assert np.array_equal(upper(signs.p_values(scores)), want / 300)


def test_spa_counts_are_the_same_a_block_of_permutations_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # Many permutations are handed to the core in blocks (Ctrl-C is heard between them): the
    # counts are the exact fractions' whether the permutations come in one block or in seven.
    rng = np.random.default_rng(9)
    base = rng.random(40) / 3
    scores = np.vstack([base, base + 0.0, base[::-1].copy(), rng.random(40) / 7])
    scores[1, :20] = scores[0, :20]
    want, _ = exact_ties(scores, 300, 11, decimal=False)
    monkeypatch.setattr(spa, "PERMUTATION_BLOCK", 45 * 40)
    signs = PermutationSigns(40, permutations=300, seed=11)
    assert len(signs.mixtures(scores, scores).blocks) == 7
    assert np.array_equal(upper(signs.p_values(scores)), want / 300)


def test_spa_counts_are_exact_for_scores_of_any_magnitude() -> None:
    # Sums of scores near the largest double overflow float64, and tiny ones vanish beside them:
    # the counts are still those of exact sums (Python's integers as the oracle).
    rng = np.random.default_rng(12)
    magnitudes = np.array([1.7e308, 3.1e307, 1.0, 5e-324, 2.2e-300])
    scores = magnitudes[rng.integers(0, 5, (4, 30))] * rng.choice([-1.0, 1.0], (4, 30))
    scores[1, :15] = scores[0, :15]
    signs = PermutationSigns(30, permutations=200, seed=3)
    want, _ = exact_ties(scores, 200, 3, decimal=False)
    assert np.array_equal(upper(signs.p_values(scores)), want / 200)


def test_bad_input_is_refused_by_name() -> None:
    with pytest.raises(InputError, match="system 2, segment 3 is not a finite number"):
        soft_pairwise_accuracy([[1.0, 2.0, 3.0], [1.0, 2.0, np.nan]], [[1, 2, 3], [1, 2, 3]])
    with pytest.raises(InputError, match="shape"):
        tie_calibrated_accuracy([[1, 2], [3, 4]], [[1, 2, 3], [1, 2, 3]])
    with pytest.raises(ConfigError, match="permutations"):
        soft_pairwise_accuracy([[1, 2], [3, 4]], [[1, 2], [3, 4]], permutations=0)
    with pytest.raises(ConfigError, match="average_by"):
        tie_calibrated_accuracy([[1, 2], [3, 4]], [[1, 2], [3, 4]], "segment")
    with pytest.raises(InputError, match="every system"):
        soft_pairwise_accuracy([[1, 2], [3, 4]], [[np.nan, 2], [3, np.nan]])


@pytest.mark.parametrize(
    "case",
    FIXTURE.get("perm_both", []),
    ids=lambda c: f"{'-'.join(c['metrics'])}-{c['statistic']}-{c['average_by']}-{c['block_size']}",
)
def test_perm_both_is_mt_metrics_evals(
    case: dict[str, Any], human: dict[str, np.ndarray], metrics: dict[str, np.ndarray]
) -> None:
    better, worse = (metrics[m] for m in case["metrics"])
    by = {"sys": "system"}.get(case["average_by"], case["average_by"])
    stopping = EarlyStopping(case["block_size"], case["early_min"], case["early_max"])
    h = human[case["human"]]
    if case["statistic"] == "acc-eq-pairs":
        got = pairs_perm_both(better, worse, h, by, case["k"], case["seed"], stopping)
    else:
        got = perm_both(case["statistic"], better, worse, h, by, case["k"], case["seed"], stopping)
    assert (got.p_value, got.resamples) == (case["p_value"], case["resamples"])
    assert got.delta == pytest.approx(case["delta"], rel=1e-9, abs=1e-12)


def test_perm_both_spa_of_many_resamples_is_one_minus_pce_of_each() -> None:
    from understudy.correlation.batched import BatchedSpa

    rng = np.random.default_rng(5)
    human = rng.normal(size=(13, 30))
    signs = PermutationSigns(30, permutations=1000, seed=4)
    spa = BatchedSpa(human, signs, rng.normal(size=13 * 30), rng.normal(size=13 * 30))
    counts = rng.integers(0, 1001, size=(50, 78))
    i, j = np.triu_indices(13, 1)
    expected = []
    for row in counts:
        metric_p = np.full((13, 13), np.nan)
        metric_p[i, j] = row / 1000
        expected.append(one_minus_pce(spa.human_p, metric_p))
    assert spa._spa(counts).tolist() == expected


def test_a_perm_both_that_fails_leaves_the_shared_stream_where_it_was() -> None:
    # The first coins are drawn while the statistic is prepared; a statistic that fails to
    # prepare must not have moved the stream the next pair of a clustering draws from.
    rng, fresh = np.random.RandomState(7), np.random.RandomState(7)
    h = np.arange(12.0).reshape(3, 4)
    with pytest.raises(ConfigError, match="unknown statistic"):
        perm_both("no-such-statistic", h, h[::-1], h, "none", 50, rng=rng)
    assert rng.randint(10**9) == fresh.randint(10**9)


@pytest.mark.parametrize(
    "case", FIXTURE.get("clusters", []), ids=lambda c: f"{c['statistic']}-{c['average_by']}"
)
def test_clusters_are_mt_metrics_evals(
    case: dict[str, Any], human: dict[str, np.ndarray], metrics: dict[str, np.ndarray]
) -> None:
    h, by = human["full"], case["average_by"]
    stopping = EarlyStopping(case["block_size"])
    if case["statistic"] == "spa":
        values = {m: soft_pairwise_accuracy(s, h).value for m, s in metrics.items()}
    elif case["statistic"] == "acc-eq":
        values = {m: tie_calibrated_accuracy(s, h, by).value for m, s in metrics.items()}
    else:
        values = {m: grouped_statistic(case["statistic"], s, h, by) for m, s in metrics.items()}

    def test(better: str, worse: str, rng: np.random.RandomState) -> PermBoth:
        a, b = metrics[better], metrics[worse]
        if case["perm_test"] == "pairs":
            return pairs_perm_both(a, b, h, by, case["k"], stopping=stopping, rng=rng)
        return perm_both(case["statistic"], a, b, h, by, case["k"], stopping=stopping, rng=rng)

    got = clusters(values, test, case["statistic"], by, case["alpha"], case["seed"])
    assert list(got.metrics) == case["order"]
    # SPA's own value settles MQM ties exactly (above), so it may differ by a few in 78,000.
    close = (
        pytest.approx(case["values"], abs=2e-4)
        if case["statistic"] == "spa"
        else pytest.approx(case["values"], rel=1e-12)
    )
    assert list(got.values) == close
    assert list(got.ranks) == case["ranks"]
    assert np.array_equal(np.array(got.p_values), np.array(case["p_values"]))


@pytest.mark.parametrize("family", ["BLEU", "CHRF", "TER"])
def test_spa_corpus_recomputes_the_corpus_metric_on_every_permutation(family: str) -> None:
    import understudy

    ref = lines("ref-B")[:40]
    metric = getattr(understudy, family)()
    stats = [metric.segment_stats(lines(s)[:40], [ref]) for s in SYSTEMS[:4]]
    signs = PermutationSigns(40, permutations=60, seed=3)
    got = corpus_p_values(signs, stats)
    sign = 1 if metric.config.higher_is_better else -1
    for i, j in itertools.combinations(range(4), 2):
        observed = sign * (stats[i].score().score - stats[j].score().score)
        count = 0
        for row in signs.swapped:
            keep, swap = np.nonzero(row == 0)[0], np.nonzero(row > 0)[0]
            a = stats[i][keep].merge(stats[j][swap]).score().score
            b = stats[j][keep].merge(stats[i][swap]).score().score
            count += sign * (a - b) >= observed
        assert got[i, j] == count / 60
    assert np.isnan(got[np.tril_indices(4)]).all()


def test_spa_corpus_on_ted(human: dict[str, np.ndarray]) -> None:
    ref = lines("ref-B")
    stats = [BLEU().segment_stats(lines(s), [ref]) for s in SYSTEMS]
    result = spa_corpus(stats, human["gaps-segments"])
    assert result.segments == 529 - 40
    assert np.array_equal(
        result.human_p,
        soft_pairwise_accuracy(np.ones((13, 529)), human["gaps-segments"]).human_p,
        equal_nan=True,
    )
    assert result.value == one_minus_pce(result.human_p, result.metric_p)


def test_correlate_prints_wmt24s_statistics_and_clusters(
    human: dict[str, np.ndarray],
    metrics: dict[str, np.ndarray],
    capfd: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    comet = tmp_path / "comet.seg.score"  # mt-metrics-eval's format: SYSTEM<TAB>score, segments in order
    comet.write_text(
        "".join(
            f"{s}\t{float(v)!r}\n"
            for s, row in zip(SYSTEMS, metrics["COMET-style"], strict=True)
            for v in row
        )
    )
    argv = [
        "correlate",
        str(TED / "ref-B.txt"),
        "--human",
        str(TED / "mqm_segment_scores.tsv"),
        "-m",
        "bleu",
        "chrf",
    ]
    argv += ["--scores", f"COMET={comet}", "-i", *(str(TED / f"{s}.txt") for s in SYSTEMS), "-n", "40"]
    argv += ["--statistics", "pearson", "spa", "spa-corpus", "acc-eq", "--average-by", "item"]
    status, out, err = run(capfd, *argv, "-f", "json")
    assert status == 0, err
    record = json.loads(out)
    got = {(c["metric"], c["statistic"]): c for c in record["correlations"]}
    for name, matrix in (
        ("BLEU", metrics["BLEU"]),
        ("chrF2", metrics["chrF"]),
        ("COMET", metrics["COMET-style"]),
    ):
        spa = soft_pairwise_accuracy(matrix, human["full"])
        assert got[(name, "spa")]["value"] == spa.value and got[(name, "spa")]["seed"] == 4
        assert got[(name, "spa")]["p_values"] == spa.to_dict()["metric_p"]
        tied = tie_calibrated_accuracy(matrix, human["full"], "item")
        assert (got[(name, "acc-eq")]["value"], got[(name, "acc-eq")]["threshold"]) == (
            tied.value,
            tied.threshold,
        )
        assert got[(name, "pearson")]["low"] is not None  # system level, with its interval, as before
    ref = [lines("ref-B")]
    bleu = spa_corpus([BLEU().segment_stats(lines(s), ref) for s in SYSTEMS], human["full"])
    assert got[("BLEU", "spa-corpus")]["value"] == bleu.value
    status, out, err = run(
        capfd, *argv[:-7], "--statistics", "spa", "--compare", "--compare-test", "wmt24", "-f", "json"
    )
    assert status == 0, err
    (spa_clusters,) = json.loads(out)["clusters"]
    assert spa_clusters["statistic"] == "spa"
    values = {m: got[(m, "spa")]["value"] for m in ("BLEU", "chrF2", "COMET")}
    assert spa_clusters["metrics"] == sorted(values, key=lambda m: -values[m])
    assert spa_clusters["ranks"][0] == 1 and len(spa_clusters["p_values"]) == 3
    assert spa_clusters["test"] == "perm-both"
    ranked = dict(zip(spa_clusters["metrics"], spa_clusters["ranks"], strict=True))
    wmt24 = [*argv[:-7], "--statistics", "spa", "--compare", "--compare-test", "wmt24"]
    status, out, err = run(capfd, *wmt24, "-f", "csv")
    assert status == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {r["metric"]: int(r["spa_rank"]) for r in rows} == ranked  # the ranks in the CSV, the values too
    assert {r["metric"]: float(r["spa"]) for r in rows} == values
    status, out, err = run(capfd, *wmt24, "-f", "latex")
    assert status == 0 and "spa rank" in out, err
    for metric, rank in ranked.items():
        assert re.search(rf"{re.escape(metric)} & [^&]+ & {rank} \\\\", out), (metric, rank, out)
    status, out, err = run(
        capfd,
        *argv[:-7],
        "--statistics",
        "acc-eq",
        "--average-by",
        "item",
        "--compare",
        "--compare-test",
        "perm-pairs",
    )
    assert status == 0, err
    assert (
        "Significance clusters by acc-eq (average by item; pairs test" in out and "clusters by spa" not in out
    )
    assert "tie-calibrated pairwise accuracy by item" in out and "thresholds: BLEU 93.3" in out


def test_correlate_refuses_what_the_statistics_cannot_use(capfd: pytest.CaptureFixture[str]) -> None:
    if not (TED / "mqm_system_scores.tsv").exists():
        pytest.skip(f"WMT21 TED data not found at {TED}")
    argv = ["correlate", str(TED / "ref-B.txt"), "-i", *(str(TED / f"{s}.txt") for s in SYSTEMS[:3])]
    status, _, err = run(capfd, *argv, "--human", str(TED / "mqm_system_scores.tsv"), "--statistics", "spa")
    assert status == 1 and "has system scores only" in err and "Traceback" not in err
    status, _, err = run(
        capfd,
        *argv,
        "--human",
        str(TED / "mqm_segment_scores.tsv"),
        "--compare",
        "--compare-test",
        "perm-both",
        "--statistics",
        "spa",
    )
    assert status == 1 and "--compare needs at least two metrics" in err


def evalset(root: Path, human: np.ndarray, comet: np.ndarray) -> Path:
    """The TED data in mt-metrics-eval's EvalSet layout, pair zh-en: both references (ref-A also
    as a human output), the systems, MQM segment scores with None where unrated, COMET-style scores."""
    folder = root / "wmt21.tedtalks"
    files = {
        "sources/zh-en.txt": "\n".join(["source"] * 529) + "\n",
        "documents/zh-en.docs": "\n".join(["ted doc"] * 529) + "\n",
        "references/zh-en.refA.txt": (TED / "ref-A.txt").read_text(encoding="utf-8"),
        "references/zh-en.refB.txt": (TED / "ref-B.txt").read_text(encoding="utf-8"),
        "system-outputs/zh-en/refA.txt": (TED / "ref-A.txt").read_text(encoding="utf-8"),
    }
    for s in SYSTEMS:
        files[f"system-outputs/zh-en/{s}.txt"] = (TED / f"{s}.txt").read_text(encoding="utf-8")
    rows = [
        f"{s}\t{'None' if np.isnan(v) else repr(float(v))}"
        for s, row in zip(SYSTEMS, human, strict=True)
        for v in row
    ]
    files["human-scores/zh-en.mqm.seg.score"] = "\n".join(rows) + "\n"
    rows = [f"{s}\t{float(v)!r}" for s, row in zip(SYSTEMS, comet, strict=True) for v in row]
    files["metric-scores/zh-en/COMET-refB.seg.score"] = "\n".join(rows) + "\n"
    files["metric-scores/zh-en/COMET-refA.seg.score"] = "\n".join(rows) + "\n"
    for path, text in files.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text, encoding="utf-8")
    return folder


def test_correlate_reads_an_evalset_folder(
    human: dict[str, np.ndarray],
    metrics: dict[str, np.ndarray],
    capfd: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    folder = evalset(tmp_path, human["gaps-cells"], metrics["COMET-style"])
    argv = ["correlate", "--evalset", str(folder), "--lp", "zh-en", "--evalset-ref", "refB", "-m", "bleu"]
    status, out, err = run(
        capfd, *argv, "--statistics", "spa", "acc-eq", "--average-by", "item", "-f", "json"
    )
    assert status == 0, err
    got = {(c["metric"], c["statistic"]): c["value"] for c in json.loads(out)["correlations"]}
    h = human["gaps-cells"]
    assert got[("COMET", "spa")] == soft_pairwise_accuracy(metrics["COMET-style"], h).value
    assert got[("BLEU", "acc-eq")] == tie_calibrated_accuracy(metrics["BLEU"], h, "item").value
    assert json.loads(out)["items"] == SYSTEMS  # refA, a human output, is left out
    status, out, err = run(capfd, *argv[:-4], "--statistics", "spa", "-f", "json")  # refA, the default
    _, explicit, _ = run(capfd, *argv[:-4], "--statistics", "spa", "-f", "json", "--evalset-ref", "refA")
    assert status == 0 and json.loads(out) == json.loads(explicit)
    status, _, err = run(capfd, *argv[:-4], "--evalset-ref", "refC", "--statistics", "spa")
    assert status == 1 and "no reference 'refC'; there are refA, refB" in err
    status, _, err = run(capfd, "correlate", "--evalset", str(folder), "--statistics", "spa")
    assert status == 1 and "--evalset needs --lp" in err
    status, _, err = run(capfd, "correlate", "-i", "x.txt", "--statistics", "spa")
    assert status == 1 and "correlate needs REF, --human (or --evalset DIR --lp PAIR)" in err


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    skip=st.integers(0, 1300),
    rows=st.integers(0, 5),
    cols=st.integers(0, 3000),
)
def test_the_cores_coins_are_numpys(seed: int, skip: int, rows: int, cols: int) -> None:
    """``coins`` draws what ``RandomState.random_sample(...) > 0.5`` draws, from any point of a
    stream (``skip`` doubles in, across the key's 624-word boundaries), and the stream goes on alike."""
    from understudy.correlation.perm_both import coins

    ours, numpys = np.random.RandomState(seed), np.random.RandomState(seed)
    ours.random_sample(skip), numpys.random_sample(skip)
    assert np.array_equal(coins(ours, (rows, cols)), numpys.random_sample((rows, cols)) > 0.5)
    assert np.array_equal(ours.random_sample(700), numpys.random_sample(700))
    assert ours.binomial(1, 0.5) == numpys.binomial(1, 0.5)


@pytest.mark.parametrize("segments", [1, 7, 529])
def test_permutations_drawn_in_blocks_are_the_one_draws(
    segments: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from understudy.correlation import spa

    # mt-metrics-eval's draw, whole: what the blocks must give back, even across odd block sizes.
    whole = np.random.default_rng(4).random(size=(300, segments), dtype=np.float32) <= 0.5
    for block in (segments * 7 + 1, 3, 1):  # uneven blocks; one row a block
        monkeypatch.setattr(spa, "DRAW_BLOCK", block)
        signs = spa.PermutationSigns(segments, permutations=300, seed=4)
        assert np.array_equal(signs._taken, whole)
        assert np.array_equal(signs.swapped, whole.astype(np.float64))
