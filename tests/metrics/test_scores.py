"""Given segment scores (COMET, MetricX, ...) as a family: exact means, the signature, and the
significance tests against a float64 NumPy reference of sacrebleu's algorithm on the mean.

The reference below is written from sacrebleu 2.6.0's ``_paired_bs_test``, ``_paired_ar_test``
and ``estimate_ci`` with "the score of a resample" taken as the mean of its segment scores.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from understudy import Signature
from understudy.errors import ConfigError, InputError, LengthMismatchError
from understudy.metrics.scores import GivenScores, ScoresConfig, ScoresStats, fixed_point_rows
from understudy.significance import all_pairs, block_ttest, bootstrap_ci, paired_test
from understudy.stats import Stats, Totals

# -- exactness ---------------------------------------------------------------------------------

KEPT = st.one_of(
    st.just(0.0),
    st.floats(min_value=2**-11, max_value=2**31, exclude_max=True),
    st.floats(min_value=-(2**31), max_value=-(2**-11), exclude_min=True),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(KEPT, min_size=1, max_size=50))
def test_scores_of_magnitude_2_pow_minus_11_or_more_are_kept_exactly(scores: list[float]) -> None:
    stats = GivenScores({"A": scores}, "judge", lower_is_better=False).segment_stats("A")
    assert stats.sentence_scores().tolist() == scores
    # The mean is the exact mean, rounded once.
    assert stats.score().score == float(sum(map(_fraction, scores), Fraction(0)) / len(scores))


def _fraction(x: float) -> Fraction:
    return Fraction(x)


def test_smaller_scores_are_kept_to_2_pow_minus_64() -> None:
    tiny = [1e-30, -1e-30, 3 * 2**-70, 2**-64, -(2**-63)]
    kept = GivenScores({"A": tiny}, "judge", lower_is_better=False).sentence_scores("A")
    assert [abs(k - t) <= 2**-65 for k, t in zip(kept, tiny, strict=True)] == [True] * 5
    assert kept.tolist()[3:] == [2**-64, -(2**-63)]


def test_mean_of_a_million_scores_is_fsum_within_one_ulp_whatever_the_chunking() -> None:
    rng = np.random.default_rng(21)
    scores = rng.random(1_000_000) * 1.3 - 0.2
    comet = GivenScores({"A": scores}, "COMET-22")
    stats = comet.segment_stats("A")
    want = math.fsum(scores) / len(scores)
    assert abs(stats.score().score - want) <= math.ulp(want)
    # Chunks of random sizes, summed in a shuffled order, and statistics merged backwards.
    cuts = np.sort(rng.choice(np.arange(1, len(scores)), size=40, replace=False))
    parts = [stats[a:b] for a, b in zip([0, *cuts], [*cuts, len(scores)], strict=True)]
    order = rng.permutation(len(parts))
    total = Totals.empty(comet.config)
    for k in order:
        total = total + parts[k]
    assert total.score().score == stats.score().score
    assert parts[-1].merge(*parts[-2::-1]).score().score == stats.score().score
    back = Totals.from_state(comet.config, np.sum([p.totals().state for p in parts], axis=0))
    assert back.score().score == stats.score().score and back.n_segments == len(scores)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), 2.0**31, -(2.0**31), 1e300])
def test_scores_that_cannot_be_kept_are_refused(bad: float) -> None:
    with pytest.raises(InputError, match=r"system 'B': score 2 is .*finite number between -2\*\*31"):
        GivenScores({"A": [0.5, 0.5], "B": [0.5, bad]}, "COMET")


def test_systems_must_have_the_same_number_of_scores() -> None:
    with pytest.raises(LengthMismatchError, match="'A' has 2 scores but 'B' has 1"):
        GivenScores({"A": [0.5, 0.5], "B": [0.5]}, "COMET")
    with pytest.raises(InputError, match="no systems"):
        GivenScores({}, "COMET")


# -- declarations and signature ----------------------------------------------------------------


def test_presets_declare_direction_and_range() -> None:
    comet = GivenScores({"A": [0.5]}, "comet-22").config
    metricx = GivenScores({"A": [3.0]}, "MetricX-24").config
    # A regression head is unbounded: real COMET-22 scores leave 0..1 on odd input.
    assert (comet.name, comet.higher_is_better, comet.score_range) == ("COMET-22", True, (None, None))
    assert (metricx.name, metricx.higher_is_better, metricx.score_range) == ("MetricX-24", False, (0.0, 25.0))
    assert GivenScores({"A": [3.0]}, "MetricX-24").segment_stats("A").higher_is_better is False
    with pytest.raises(ConfigError, match="'my-judge' has no preset: say whether lower is better"):
        GivenScores({"A": [3.0]}, "my-judge")
    judge = GivenScores({"A": [3.0]}, "my-judge", lower_is_better=True, score_range=(1, 5)).config
    assert (judge.higher_is_better, judge.score_range, judge.decimals(1)) == (False, (1, 5), 3)


@pytest.mark.parametrize("short", [False, True])
def test_a_metrics_own_settings_are_signed_after_its_model(short: bool) -> None:
    pinned = {"model": "m", "settings": "L9+idf|x", "revision": "abc", "dtype": "fp32", "reference": "yes"}
    scores = GivenScores({"a": [0.5, 0.25]}, "BERTScore", lower_is_better=False, computed_by=pinned)
    signature = scores.corpus_score("a").signature
    text = signature.format(short)
    # Escaped where a signature splits ("|"), and absent when unset, as before.
    assert ("|md:m|st:L9+idf%7Cx|rv:abc|" if short else "|model:m|set:L9+idf%7Cx|rev:abc|") in text
    assert Signature.parse(text) == signature and Signature.parse(text).config == scores.config
    assert scores.config.settings == "L9+idf|x"
    plain = GivenScores({"a": [0.5, 0.25]}, "BERTScore", lower_is_better=False, computed_by={"model": "m"})
    assert "set:" not in str(plain.corpus_score("a").signature)
    with pytest.raises(ConfigError, match="computed_by takes model, settings, revision"):
        GivenScores({"a": [0.5]}, "x", lower_is_better=False, computed_by={"layer": "9"})


@pytest.mark.parametrize("source", ["comet.out", "a|b c%d.tsv", "çà.jsonl", ""])
@pytest.mark.parametrize("short", [False, True])
def test_signature_names_the_scores_and_parses_back(source: str, short: bool) -> None:
    scores = {"sys A": [0.25, 0.5], "sys|B": [0.75, 1.0]}
    comet = GivenScores(scores, "xCOMET", source=source)
    signature = comet.corpus_score("sys A").signature
    text = signature.format(short)
    assert text.startswith("m:scores|" if short else "metric:scores|name:xCOMET|dir:higher|range:..1|")
    assert "nrefs" not in text and "#:" not in text
    parsed = Signature.parse(text)
    assert parsed == signature and parsed.config == comet.config
    # The file and the scores' hash are provenance, kept with the statistics and out of the signature.
    assert "file" not in text and "sha256" not in text and comet.config.source == source
    # The SHA-256 is of the scores as float64, whatever the systems' names and order.
    import hashlib
    import struct

    digests = sorted(hashlib.sha256(struct.pack(">2d", *values)).hexdigest() for values in scores.values())
    assert comet.config.sha256 == hashlib.sha256("\n".join(digests).encode()).hexdigest()
    renamed = GivenScores({"B": scores["sys|B"], "A": scores["sys A"]}, "xCOMET", source=source)
    assert renamed.config.sha256 == comet.config.sha256


def test_statistics_save_load_and_states_of_other_scores_do_not_mix(tmp_path: Path) -> None:
    a = GivenScores({"A": [0.1, 0.9, 0.4]}, "COMET").segment_stats("A")
    a.save(tmp_path / "a.npz")
    back = Stats.load(tmp_path / "a.npz")
    assert isinstance(back, ScoresStats) and back.config == a.config and back.score() == a.score()
    # Another run's scores of the same metric are the same configuration (a signature pins no
    # data); another metric's are not.
    rerun = GivenScores({"A": [0.1, 0.9, 0.5]}, "COMET").config
    assert Totals.from_state(rerun, a.totals().state).score() == a.score()
    other = GivenScores({"A": [0.1, 0.9, 0.4]}, "xCOMET").config
    with pytest.raises(InputError, match="not made by xCOMET with this configuration"):
        Totals.from_state(other, a.totals().state)
    state = a.totals().state.copy()
    state[-3] = 2**40  # more than three segments' fixed-point parts can hold
    with pytest.raises(InputError, match="no text gives this COMET state"):
        Totals.from_state(a.config, state)


def test_rows_are_fixed_point_limbs() -> None:
    # 1.5 = 1 + 2**-1; -1.5 = 2**95 - 1.5 * 2**64 in the offset fixed point.
    assert fixed_point_rows([1.5, -1.5]).tolist() == [[2**31 + 1, 2**31, 0, 1], [2**31 - 2, 2**31, 0, 1]]
    assert ScoresConfig().row_width == 4


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.floats(min_value=-(2**31), max_value=2**31, exclude_min=True, exclude_max=True), max_size=20)
)
def test_rows_are_each_score_times_2_pow_64_rounded_half_to_even(scores: list[float]) -> None:
    from fractions import Fraction

    rows = fixed_point_rows(scores).tolist()
    for score, (whole, high, low, one) in zip(scores, rows, strict=True):
        # Python's round() of a Fraction rounds half to even, as the rows must.
        assert (whole - 2**31 << 64) + (high << 32) + low == round(Fraction(score) * 2**64)
        assert 0 <= high < 2**32 and 0 <= low < 2**32 and one == 1


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, 2.0**31, -(2.0**31)])
def test_rows_refuse_scores_out_of_range_naming_which(bad: float) -> None:
    with pytest.raises(InputError, match=rf"system 'B': score 2 is {bad!r}; a score must be a finite"):
        fixed_point_rows([0.5, bad, 0.25], "system 'B'")


# -- significance: the numbers of sacrebleu's algorithm applied to the mean ------------------------


def _estimate(scores: np.ndarray) -> tuple[float, float]:
    ordered = np.sort(scores)
    low = len(ordered) // 40
    return float(ordered.mean()), float(0.5 * (ordered[len(ordered) - low - 1] - ordered[low]))


def _ref_bootstrap(
    scores: list[np.ndarray], n: int, seed: int
) -> list[tuple[float, float, np.ndarray, float]]:
    """sacrebleu's paired bootstrap on means: one draw of indices, reseeded alike for each system."""
    idx = np.random.default_rng(seed).choice(len(scores[0]), size=(n, len(scores[0])), replace=True)
    base = scores[0][idx].mean(axis=1)
    out = []
    for x in scores:
        resampled = x[idx].mean(axis=1)
        diffs = np.abs(resampled - base)
        out.append((*_estimate(resampled), diffs - diffs.mean(), abs(x.mean() - scores[0].mean())))
    return out


def _ref_ar(base: np.ndarray, system: np.ndarray, n: int, seed: int) -> tuple[np.ndarray, float]:
    mask = np.random.default_rng(seed).integers(2, size=(n, len(base)), dtype=bool)
    a = np.where(mask, base, system).mean(axis=1)
    b = np.where(mask, system, base).mean(axis=1)
    return np.abs(a - b), abs(base.mean() - system.mean())


def _check_p(p: float, extremes: np.ndarray, observed: float, ties: list[int]) -> None:
    """``p`` counts resamples at least as extreme; within 1e-9 of the observed is a tie either way."""
    above = int(np.sum(extremes > observed + 1e-9))
    at_least = int(np.sum(extremes >= observed - 1e-9))
    count = round(p * (len(extremes) + 1)) - 1
    assert above <= count <= at_least
    if above == at_least:
        assert count == above
    else:
        ties.append(at_least - above)


@pytest.fixture(scope="module")
def synthetic(wmt17_systems: dict[str, list[str]]) -> tuple[list[str], list[np.ndarray]]:
    """COMET-like segment scores of the 16 WMT17 systems (3004 segments), seeded."""
    rng = np.random.default_rng(2017)
    names = sorted(wmt17_systems)
    quality = rng.normal(0.8, 0.01, len(names))
    return names, [np.clip(rng.beta(8, 2, 3004) + q - 0.8, 0, 1) for q in quality]


def test_paired_bootstrap_and_intervals_are_sacrebleus_algorithm_on_means(
    synthetic: tuple[list[str], list[np.ndarray]],
) -> None:
    names, scores = synthetic
    comet = GivenScores(dict(zip(names, scores, strict=True)), "COMET-22")
    result = paired_test(comet.segment_stats_many(), names, "bs", 1000, seed=12345)
    reference = _ref_bootstrap(scores, 1000, 12345)
    ties: list[int] = []
    assert result.baseline.mean == pytest.approx(reference[0][0], rel=1e-13)
    assert result.baseline.ci == pytest.approx(reference[0][1], rel=1e-9)
    for system, (mean, ci, extremes, observed) in zip(result.systems, reference[1:], strict=True):
        assert system.score == pytest.approx(float(np.mean(scores[names.index(system.name)])), rel=1e-15)
        assert system.mean == pytest.approx(mean, rel=1e-13) and system.ci == pytest.approx(ci, rel=1e-9)
        assert system.p_value is not None
        _check_p(system.p_value, extremes, observed, ties)
    assert sum(ties) <= 2  # near-ties are rare on continuous scores
    one = bootstrap_ci(comet.segment_stats(names[3]), 1000, seed=7)
    want = _estimate(scores[3][np.random.default_rng(7).choice(3004, size=(1000, 3004))].mean(axis=1))
    assert (one.system.mean, one.system.ci) == pytest.approx(want, rel=1e-9)


def test_approximate_randomization_is_sacrebleus_algorithm_on_means(
    synthetic: tuple[list[str], list[np.ndarray]],
) -> None:
    names, scores = synthetic
    comet = GivenScores(dict(zip(names, scores, strict=True)), "COMET-22")
    result = paired_test(comet.segment_stats_many(), names, "ar", 2000, seed=99, ar_confidence=0)
    ties: list[int] = []
    for k, system in enumerate(result.systems, 1):
        extremes, observed = _ref_ar(scores[0], scores[k], 2000, 99)
        assert system.p_value is not None
        _check_p(system.p_value, extremes, observed, ties)
    assert sum(ties) <= 2


def test_tied_resamples_count_as_at_least_as_extreme() -> None:
    # Discrete scores: permuted differences equal the observed one exactly (counted in integers).
    base, system = np.array([1, 0, 1, 1] * 5), np.array([0, 1, 1, 0] * 5)
    judge = GivenScores({"A": base, "B": system}, "judge", lower_is_better=False)
    result = paired_test(judge.segment_stats_many(), judge.systems, "ar", 500, seed=3, ar_confidence=0)
    mask = np.random.default_rng(3).integers(2, size=(500, 20), dtype=bool)
    extremes = np.abs(np.where(mask, base, system).sum(1) - np.where(mask, system, base).sum(1))
    observed = abs(int(base.sum()) - int(system.sum()))
    assert int(np.sum(extremes == observed)) > 50
    assert result.systems[0].p_value == (int(np.sum(extremes >= observed)) + 1) / 501


def test_the_block_test_with_one_segment_a_block_is_scipys_paired_t_test(
    synthetic: tuple[list[str], list[np.ndarray]],
) -> None:
    names, scores = synthetic
    comet = GivenScores(dict(zip(names[:4], scores[:4], strict=True)), "COMET-22")
    result = block_ttest(comet.segment_stats_many(), names[:4], blocks=3004)
    by_name = dict(zip(names, scores, strict=True))
    for c in result.comparisons:
        want = scipy.stats.ttest_rel(by_name[c.better], by_name[c.worse])
        assert c.t == pytest.approx(want.statistic, rel=1e-9) and c.p_value == pytest.approx(
            want.pvalue, rel=1e-6
        )


def test_all_pairs_ranks_lower_is_better_metrics_ascending() -> None:
    rng = np.random.default_rng(4)
    metricx = GivenScores({s: rng.random(400) * 5 + k for k, s in enumerate("ABC")}, "MetricX-23")
    ranking = all_pairs(metricx.segment_stats_many(), metricx.systems, "bs", 200).ranking
    assert [s.name for s in ranking] == ["A", "B", "C"]
