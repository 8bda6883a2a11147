"""Confidence intervals, paired tests and the block t-test: sacrebleu's numbers for the same
seed on the 16 WMT17 systems, and the properties a significance test must have."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.significance import PairedTest
from understudy import BLEU, BLEUStats, ConfigError, EmptyInputError
from understudy.inputs.files import read_lines
from understudy.metrics.scores import GivenScores
from understudy.significance import all_pairs, block_ttest, bootstrap_ci, paired_test, student_t_p_value

from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE, read_raw

REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
ONLINE_A = SAMPLE / "newstest2017.online-A.0.en-de.de"
PROMT = SAMPLE / "newstest2017.PROMT-Rule-based.4735.en-de.de"


@pytest.fixture(scope="module")
def wmt17(
    wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> tuple[list[str], list[str], list[list[str]]]:
    # online-B (26.7) as the baseline: several systems are close to it, so p-values vary.
    names = ["online-B", *sorted(set(wmt17_systems) - {"online-B"})]
    return wmt17_ref, names, [wmt17_systems[n] for n in names]


@pytest.mark.parametrize(("test", "n"), [("bs", 300), ("ar", 400)])
def test_paired_tests_equal_sacrebleu_on_wmt17(
    wmt17: tuple[list[str], list[str], list[list[str]]],
    test: Literal["bs", "ar"],
    n: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # sacrebleu live, on six systems; its answers on all 16 with 1000 resamples are recorded
    # (tests/significance/test_metrics.py): asked live, they cost 40 s of every run.
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    ref, names, systems = wmt17[0], wmt17[1][:6], wmt17[2][:6]
    theirs_sig: Any
    theirs: Any
    theirs_sig, theirs = PairedTest(
        list(zip(names, systems, strict=True)),
        {"BLEU": SacreBLEU(references=[ref])},
        None,
        test_type=test,
        n_samples=n,
        n_ar_confidence=0 if test == "ar" else -1,
    )()
    stats = BLEU(references=[ref]).segment_stats_many(systems)
    ours = paired_test(stats, names, test, n, seed=12345, p_values="sacrebleu")
    for their, mine in zip(theirs["BLEU"], [ours.baseline, *ours.systems], strict=True):
        assert (mine.score, mine.mean, mine.ci, mine.p_value) == (
            their.score,
            their.mean,
            their.ci,
            their.p_value,
        )
    assert len({s.p_value for s in ours.systems}) > 3  # not only the minimum p: the comparison has teeth
    keys = dict(kv.split(":") for kv in ours.signature.format().split("|"))
    their_keys = dict(kv.split(":") for kv in theirs_sig["BLEU"].format().split("|"))
    assert {k: keys[k] for k in ("bs", "seed")} == {k: their_keys[k] for k in ("bs", "seed")}
    assert keys.get("ar") == their_keys.get("ar") and keys["pvalue"] == "sacrebleu"


def test_confidence_interval_equals_sacrebleu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    ref, hyp = read_raw(REF), read_raw(ONLINE_A)
    theirs = SacreBLEU().corpus_score(hyp, [ref], n_bootstrap=500)
    ours = bootstrap_ci(BLEU().segment_stats(hyp, [ref]), 500, seed=12345)
    assert (ours.system.score, ours.system.mean, ours.system.ci) == (theirs.score, theirs._mean, theirs._ci)


def _stats(*systems: list[str]) -> list[BLEUStats]:
    return BLEU(references=[read_raw(REF)]).segment_stats_many(list(systems))


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_identical_systems_get_p_one_and_sacrebleu_mode_keeps_its_bug(test: Literal["bs", "ar"]) -> None:
    a = read_raw(UEDIN)
    stats = _stats(a, list(a))
    fixed = paired_test(stats, ["a", "b"], test, n=500)
    assert fixed.systems[0].p_value == 1.0 and not fixed.systems[0].significant()
    buggy = paired_test(stats, ["a", "b"], test, n=500, p_values="sacrebleu")
    assert buggy.systems[0].p_value == 1 / 501


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_a_strictly_better_copy_is_significant(test: Literal["bs", "ar"]) -> None:
    ref, a = read_raw(REF), read_raw(ONLINE_A)
    better = [r if i % 10 == 0 else h for i, (h, r) in enumerate(zip(a, ref, strict=True))]
    result = paired_test(_stats(a, better), ["a", "better"], test, n=1000)
    p_value = result.systems[0].p_value
    assert result.systems[0].score > result.baseline.score and p_value is not None and p_value < 0.01


def test_results_do_not_depend_on_system_order(wmt17: tuple[list[str], list[str], list[list[str]]]) -> None:
    ref, names, systems = wmt17
    bleu = BLEU(references=[ref])
    stats = dict(zip(names, bleu.segment_stats_many(systems[:6]), strict=False))
    order = list(stats)
    shuffled = [order[i] for i in (3, 0, 5, 1, 4, 2)]
    for test in ("bs", "ar"):
        one = all_pairs([stats[n] for n in order], order, test, n=300)
        two = all_pairs([stats[n] for n in shuffled], shuffled, test, n=300)
        assert one.ranking == two.ranking and one.clusters == two.clusters
        assert all(one.p_value(p.a, p.b) == two.p_value(p.a, p.b) for p in one.pairs)
    base = paired_test([stats[n] for n in order], order, "bs", n=300)
    moved = paired_test(
        [stats[n] for n in [order[0], *reversed(order[1:])]], [order[0], *reversed(order[1:])], "bs", n=300
    )
    assert sorted(base.systems, key=lambda s: s.name) == sorted(moved.systems, key=lambda s: s.name)
    # The all-pairs p-value of the baseline and a system is the paired test's.
    assert all(
        one_p == base_p
        for one_p, base_p in (
            (all_pairs([stats[n] for n in order], order, "bs", n=300).p_value(order[0], s.name), s.p_value)
            for s in base.systems
        )
    )


def test_clusters_split_only_at_significant_differences(
    wmt17: tuple[list[str], list[str], list[list[str]]],
) -> None:
    ref, names, systems = wmt17
    result = all_pairs(BLEU(references=[ref]).segment_stats_many(systems), names, "bs", n=1000)
    assert [s.score for s in result.ranking] == sorted((s.score for s in result.ranking), reverse=True)
    assert sum(len(c) for c in result.clusters) == 16 and 1 < len(result.clusters) < 16
    for cluster in result.clusters:
        assert all(result.p_value(cluster[0], other) > 0.05 for other in cluster[1:])
    for above, below in zip(result.clusters, result.clusters[1:], strict=False):
        assert result.p_value(above[0], below[0]) <= 0.05


def test_block_t_statistics_equal_a_direct_computation_from_sacrebleu_block_scores() -> None:
    ref, systems = read_raw(REF), [read_raw(UEDIN), read_raw(ONLINE_A)]
    result = block_ttest(_stats(*systems), ["uedin", "online-A"], blocks=20)
    assert result.block_sizes == (151,) * 4 + (150,) * 16
    assert result.blocks_described == "3004 segments in 20 blocks: 4 of 151 and 16 of 150"
    starts = np.cumsum([0, *result.block_sizes])
    direct = {
        name: [sacrebleu.corpus_bleu(hyps[a:b], [ref[a:b]]).score for a, b in itertools.pairwise(starts)]
        for name, hyps in zip(["uedin", "online-A"], systems, strict=True)
    }
    for system in result.systems:
        assert list(system.block_scores) == direct[system.name]
        assert system.mean == pytest.approx(np.mean(direct[system.name]), abs=1e-12)
        assert system.sd == pytest.approx(np.std(direct[system.name], ddof=1), abs=1e-12)
    d = np.array(direct["uedin"]) - np.array(direct["online-A"])
    (comparison,) = result.comparisons
    assert comparison.better == "uedin"
    assert comparison.t == pytest.approx(d.mean() / (d.std(ddof=1) / math.sqrt(20)), rel=1e-12)
    assert comparison.p_value == pytest.approx(student_t_p_value(comparison.t, 19), rel=1e-12)


def test_student_t_p_values_match_closed_forms() -> None:
    for t in (0.1, 0.5, 1.0, 2.5, 10.0):
        assert student_t_p_value(t, 1) == pytest.approx(1 - 2 * math.atan(t) / math.pi, rel=1e-12)
        assert student_t_p_value(-t, 2) == pytest.approx(1 - t / math.sqrt(2 + t * t), rel=1e-12)
    assert student_t_p_value(2.093, 19) == pytest.approx(0.05, abs=1e-4)  # t table: 19 df, 5%


def test_seed_is_an_argument_and_zero_is_a_seed() -> None:
    stats = _stats(read_raw(UEDIN), read_raw(ONLINE_A))
    zero_a = paired_test(stats, ["a", "b"], "ar", n=300, seed=0)
    zero_b = paired_test(stats, ["a", "b"], "ar", n=300, seed=0)
    other = paired_test(stats, ["a", "b"], "ar", n=300, seed=1)
    assert zero_a == zero_b and zero_a.systems[0].mean != other.systems[0].mean
    assert "seed:0" in zero_a.signature.format()


def test_bad_arguments_are_typed_errors() -> None:
    stats = _stats(read_raw(UEDIN))
    with pytest.raises(ConfigError, match="baseline and at least one other"):
        paired_test(stats, ["a"])
    with pytest.raises(ConfigError, match="blocks must be a whole number of at least 2, got 1"):
        block_ttest(stats, ["a"], blocks=1)
    with pytest.raises(ConfigError, match="p_values must be"):
        paired_test(stats * 2, ["a", "b"], p_values="maybe")  # type: ignore[arg-type]
    # Counts are whole numbers; every numeric argument is checked and named.
    bad = [
        (lambda: block_ttest(stats * 2, ["a", "b"], blocks=2.5), "blocks"),  # type: ignore[arg-type]
        (lambda: block_ttest(stats * 2, ["a", "b"], blocks=True), "blocks"),
        (lambda: paired_test(stats * 2, ["a", "b"], n=10.0), "n \\(resamples"),  # type: ignore[arg-type]
        (lambda: paired_test(stats * 2, ["a", "b"], seed=-1), "seed"),
        (lambda: paired_test(stats * 2, ["a", "b"], "ar", 10, ar_confidence=-1), "ar_confidence"),
        (lambda: bootstrap_ci(stats[0], n=0), "n \\(bootstrap"),
        (lambda: bootstrap_ci(stats[0], seed=-5), "seed"),
        (lambda: all_pairs(stats * 2, ["a", "b"], n=10, alpha=1.5), "alpha"),
        (lambda: all_pairs(stats * 2, ["a", "b"], n=10, seed="1"), "seed"),  # type: ignore[arg-type]
    ]
    for call, name in bad:
        with pytest.raises(ConfigError, match=name):
            call()


def test_empty_statistics_and_identical_blocks() -> None:
    stats = _stats(read_raw(UEDIN))[0]
    with pytest.raises(EmptyInputError):
        bootstrap_ci(stats[:0], 10)
    with pytest.raises(EmptyInputError):
        paired_test([stats[:0], stats[:0]], ["a", "b"], "bs", 10)
    # Identical systems in the block test: no difference (t = 0, p = 1), not NaN.
    (comparison,) = block_ttest([stats, stats], ["a", "b"], blocks=5).comparisons
    assert (comparison.t, comparison.p_value) == (0.0, 1.0)


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_resampling_in_blocks_gives_the_same_numbers(
    test: Literal["bs", "ar"], monkeypatch: pytest.MonkeyPatch
) -> None:
    import understudy.significance as significance

    systems = [read_raw(path)[:500] for path in (UEDIN, ONLINE_A, PROMT)]
    stats = BLEU().segment_stats_many(systems, [read_raw(REF)[:500]])
    names = ["u", "o", "p"]
    whole = paired_test(stats, names, test, 300, ar_confidence=100)
    pairs = all_pairs(stats, names, test, 300)
    ci = bootstrap_ci(stats[1], 300)
    # 64 rows of 500 segments a block, and one system per group side by side.
    monkeypatch.setattr(significance, "BLOCK_CELLS", 64 * 500)
    assert paired_test(stats, names, test, 300, ar_confidence=100) == whole
    assert all_pairs(stats, names, test, 300) == pairs
    assert bootstrap_ci(stats[1], 300) == ci


def cli_lines(path: object) -> list[str]:
    """Lines as the command line reads them (a leading BOM dropped, unlike read_raw)."""
    return [line.rstrip() for line in read_lines(str(path))]


def test_cli_paired_bs_confidence_and_compare(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "score", str(REF), "-i", str(ONLINE_A), str(UEDIN), "--paired-bs", "-pbsn", "200"
    )
    record = json.loads(out)
    expected = paired_test(
        _stats(cli_lines(ONLINE_A), cli_lines(UEDIN)), [str(ONLINE_A), str(UEDIN)], "bs", 200
    )
    assert status == 0 and record == json.loads(expected.to_json())
    status, out, _ = run(
        capsys, "score", str(REF), "-i", str(UEDIN), "--confidence", "-cin", "200", "-f", "text"
    )
    ci = bootstrap_ci(_stats(cli_lines(UEDIN))[0], 200)
    assert (
        status == 0
        and f"(μ = {ci.system.mean:.1f} ± {ci.system.ci:.1f})" in out
        and "bs:200|seed:12345" in out
    )
    status, out, _ = run(
        capsys, "compare", str(REF), "-i", str(ONLINE_A), str(UEDIN), "-n", "200", "-f", "json"
    )
    assert status == 0 and json.loads(out)["clusters"] == [[str(UEDIN)], [str(ONLINE_A)]]
    status, out, _ = run(capsys, "compare", str(REF), "-i", str(ONLINE_A), str(UEDIN), "--blocks", "20")
    assert status == 0 and "3004 segments in 20 blocks: 4 of 151 and 16 of 150" in out
    status, _, err = run(capsys, "score", str(REF), "-i", str(UEDIN), "--paired-ar")
    assert (
        status == 1
        and err == "understudy: error: paired tests need at least two systems (the first is the baseline)\n"
    )


@pytest.mark.parametrize("case", range(30))
def test_randomization_on_decimal_scores_equals_the_exact_count(case: int) -> None:
    """Decimal scores (1 to 3 places, as judges and MQM give them) make trials that tie the
    observed difference exactly; float means counted about a third of these cases wrong."""
    from understudy.significance import _mask_sums

    rng = np.random.default_rng(case)
    size, places = int(rng.integers(5, 40)), int(rng.integers(1, 4))
    a = np.round(rng.random(size) * 2 - 0.5, places)
    b = a.copy()
    b[: size // 2] = np.round(rng.random(size // 2) * 2 - 0.5, places)
    given = GivenScores({"A": a, "B": b}, "COMET")
    result = paired_test(given.segment_stats_many(), ["A", "B"], test="ar", n=300, seed=case)
    # The definition, in exact rationals: a trial swaps the segments its mask sets, which turns
    # the sign of their differences.
    masks = _mask_sums(np.random.default_rng(case), 300, np.eye(size, dtype=np.int64)).astype(bool)
    diffs = [Fraction(float(x)) - Fraction(float(y)) for x, y in zip(a, b, strict=True)]
    observed = abs(sum(diffs, Fraction(0)))
    count = sum(
        abs(sum((-d if swap else d for d, swap in zip(diffs, mask, strict=True)), Fraction(0))) >= observed
        for mask in masks
    )
    assert result.systems[0].p_value == (count + 1) / 301
