"""Significance for chrF, chrF++ and TER: sacrebleu's numbers for the same seed.

sacrebleu's bootstrap converts the statistics to float32 and scores them with Python
arithmetic, so its resampled chrF and TER scores are float32 values; understudy's
scoring functions reproduce that (``float32=True``) and every number below is
compared with ``==``.
"""

from __future__ import annotations

import pytest
from parity import ours, theirs
from sacrebleu.significance import PairedTest
from understudy import CHRFConfig, TERConfig
from understudy.config import MetricConfig
from understudy.significance import all_pairs, block_ttest, bootstrap_ci, paired_test

CONFIGS = [CHRFConfig(), CHRFConfig(word_order=2), CHRFConfig(eps_smoothing=True, beta=3), TERConfig()]


def _data(
    config: MetricConfig, ref: list[str], systems: dict[str, list[str]]
) -> tuple[list[str], list, list]:
    # TER in sacrebleu takes 5 s a system: a fifth of the segments, six systems.
    size, count = (600, 6) if isinstance(config, TERConfig) else (3004, 16)
    names = ["online-B", *sorted(set(systems) - {"online-B"})][:count]
    return ref[:size], names, [systems[n][:size] for n in names]


@pytest.mark.parametrize(("test", "n"), [("bs", 1000), ("ar", 1000)])
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_paired_tests_equal_sacrebleu(
    config: MetricConfig,
    test: str,
    n: int,
    wmt17_ref: list[str],
    wmt17_systems: dict[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    ref, names, systems = _data(config, wmt17_ref, wmt17_systems)
    metric = theirs(config, [ref])
    _, their = PairedTest(
        list(zip(names, systems, strict=True)),
        {"M": metric},
        None,
        test_type=test,
        n_samples=n,
        n_ar_confidence=0 if test == "ar" else -1,
    )()
    stats = ours(config, references=[ref]).segment_stats_many(systems)
    mine = paired_test(stats, names, test, n, seed=12345, p_values="sacrebleu")  # type: ignore[arg-type]
    (their_results,) = (v for k, v in their.items() if k != "System")
    for theirs_, ours_ in zip(their_results, [mine.baseline, *mine.systems], strict=True):
        assert (ours_.score, ours_.mean, ours_.ci, ours_.p_value) == (
            theirs_.score,
            theirs_.mean,
            theirs_.ci,
            theirs_.p_value,
        )
    assert len({s.p_value for s in mine.systems}) > 2


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_confidence_interval_equals_sacrebleu(
    config: MetricConfig,
    wmt17_ref: list[str],
    wmt17_systems: dict[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    ref, _, systems = _data(config, wmt17_ref, wmt17_systems)
    their = theirs(config).corpus_score(systems[1], [ref], n_bootstrap=500)
    mine = bootstrap_ci(ours(config).segment_stats(systems[1], [ref]), 500, seed=12345)
    assert (mine.system.score, mine.system.mean, mine.system.ci) == (their.score, their._mean, their._ci)


def test_lower_is_better_ranks_ter_ascending(
    wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    names = ["uedin-nmt", "online-A", "PROMT-Rule-based"]
    stats = ours(TERConfig(), references=[wmt17_ref[:500]]).segment_stats_many(
        [wmt17_systems[n][:500] for n in names]
    )
    scores = {n: s.score().score for n, s in zip(names, stats, strict=True)}
    ranking = all_pairs(stats, names, "bs", 200).ranking
    assert [s.score for s in ranking] == sorted(scores.values())
    blocks = block_ttest(stats, names, 10)
    assert [s.mean for s in blocks.systems] == sorted(s.mean for s in blocks.systems)
    assert all(c.t > 0 for c in blocks.comparisons)  # t says how much better the better system is
