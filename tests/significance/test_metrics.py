"""Significance for BLEU, chrF, chrF++ and TER: sacrebleu's numbers for the same seed.

sacrebleu's bootstrap converts the statistics to float32 and scores them with Python
arithmetic, so its resampled chrF and TER scores are float32 values; understudy's
scoring functions reproduce that (``float32=True``) and every number below is
compared with ``==``.
"""

from __future__ import annotations

import pytest
from understudy import TERConfig
from understudy.config import MetricConfig
from understudy.significance import all_pairs, block_ttest, bootstrap_ci, paired_test

from tests.support.parity import ours, theirs
from tests.support.recorded_oracles import (
    PAIRED_CONFIGS,
    PAIRED_SEED,
    PAIRED_TESTS,
    lines_sha256,
    paired_data,
    recorded,
)

CONFIGS = PAIRED_CONFIGS
_data = paired_data


@pytest.mark.parametrize(("test", "n"), PAIRED_TESTS)
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_paired_tests_equal_sacrebleu(
    config: MetricConfig,
    test: str,
    n: int,
    wmt17_ref: list[str],
    wmt17_systems: dict[str, list[str]],
) -> None:
    # sacrebleu's answers, recorded by scripts/sacrebleu_slow_fixtures.py (asked live, they
    # cost minutes of every run).
    ref, names, systems = _data(config, wmt17_ref, wmt17_systems)
    answer = recorded()["paired"][f"{config}|{test}|{n}"]
    assert answer["sha256"] == [lines_sha256(lines) for lines in [ref, *systems]], "stale fixture"
    stats = ours(config, references=[ref]).segment_stats_many(systems)
    mine = paired_test(stats, names, test, n, seed=PAIRED_SEED, p_values="sacrebleu")  # type: ignore[arg-type]
    got = [[r.score, r.mean, r.ci, r.p_value] for r in [mine.baseline, *mine.systems]]
    assert got == answer["results"]
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
