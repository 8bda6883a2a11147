"""The accumulator: batches, merged workers and summed states give the corpus score of everything seen."""

from __future__ import annotations

import itertools
import math
import multiprocessing
import random
import threading
from typing import Any

import numpy as np
import pytest
from understudy import BLEU, CHRF, BLEUConfig, CHRFConfig, Totals
from understudy.accumulator import Accumulator
from understudy.config import MetricConfig
from understudy.errors import (
    ConfigError,
    EmptyInputError,
    InputError,
    InputTypeError,
)
from understudy.metrics import metric_for

from tests.support.families import examples

CONFIGS: list[MetricConfig] = examples(first=2)


def _batches(n: int, rng: random.Random) -> list[tuple[int, int]]:
    cuts = sorted(rng.sample(range(1, n), 7))
    bounds = [0, *cuts, n]
    return list(itertools.pairwise(bounds))


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_batches_give_the_corpus_score(config: MetricConfig, wmt17_ref, wmt17_systems) -> None:
    hyps = wmt17_systems["uedin-nmt"][:600]
    # Two reference streams with gaps: segments with 1 or 2 references (nrefs:var).
    second: list[str | None] = [r if k % 3 else None for k, r in enumerate(wmt17_systems["online-B"][:600])]
    refs: list[list[str | None]] = [list(wmt17_ref[:600]), second]
    metric = metric_for(config)
    want = metric.corpus_score(hyps, refs)
    acc = metric.accumulator()
    for start, stop in _batches(len(hyps), random.Random(7)):
        acc.update(hyps[start:stop], [stream[start:stop] for stream in refs])
    got = acc.compute()
    assert got.score == want.score and got.signature == want.signature
    assert "nrefs:var|" in str(got.signature) and acc.n_segments == 600


def test_merge_and_summed_states_are_order_free(wmt17_ref, wmt17_systems) -> None:
    metric = metric_for(CHRFConfig(word_order=2))
    hyps, refs = wmt17_systems["KIT"][:500], [wmt17_ref[:500]]
    parts = []
    for start, stop in _batches(500, random.Random(3)):
        part = metric.accumulator()
        part.update(hyps[start:stop], [refs[0][start:stop]])
        parts.append(part)
    forward, backward = metric.accumulator(), metric.accumulator()
    for part in parts:
        forward.merge(part)
    for part in parts[::-1]:
        backward.merge(part)
    summed = Accumulator.from_state(metric, np.sum([p.state for p in parts], axis=0))
    want = metric.corpus_score(hyps, refs)
    assert forward.compute() == backward.compute() == summed.compute() == want
    assert str(want.signature).startswith("nrefs:1|")


def _worker(args: tuple[MetricConfig, list[str], list[str]]) -> np.ndarray:
    config, hyps, refs = args
    acc = metric_for(config, threads=1).accumulator()
    for start in range(0, len(hyps), 64):
        acc.update(hyps[start : start + 64], [refs[start : start + 64]])
    return acc.state


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[3], CONFIGS[4]], ids=str)
def test_states_summed_across_processes(config: MetricConfig, wmt17_ref, wmt17_systems) -> None:
    # What torch.distributed.all_reduce(SUM) does to each rank's state, with plain multiprocessing.
    hyps, refs = wmt17_systems["online-A"][:900], wmt17_ref[:900]
    shards = [(config, hyps[k::3], refs[k::3]) for k in range(3)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        states = pool.map(_worker, shards)
    total = Accumulator.from_state(metric_for(config), np.sum(states, axis=0))
    assert (
        total.compute().score
        == metric_for(config)
        .corpus_score(
            [h for _, part, _ in shards for h in part], [[r for _, _, part in shards for r in part]]
        )
        .score
        == metric_for(config).corpus_score(hyps, [refs]).score
    )


def test_mistakes_are_typed() -> None:
    bleu, chrf = metric_for(BLEUConfig()), metric_for(CHRFConfig())
    with pytest.raises(EmptyInputError, match="seen no segments"):
        bleu.accumulator().compute()
    with pytest.raises(ConfigError, match="cannot merge"):
        bleu.accumulator().merge(chrf.accumulator())
    good: Any = bleu.accumulator()
    good.update(["a b c"], [["a b c"]])
    for bad, message in [
        (good.state[:-1], "has 14 entries"),
        (-good.state, "never negative"),
        (good.state + 0.5, "fractions"),
        (np.array([0, 1, 1, *good.state[3:]]), "do not fit together"),
    ]:
        with pytest.raises(InputError, match=message):
            Accumulator.from_state(bleu, bad)
    good.reset()
    assert good.n_segments == 0


def _bleu_state(order: int = 4) -> np.ndarray:
    return BLEU(max_ngram_order=order).segment_stats(["a b c d"], [["a b c e"]]).totals().state


def test_accumulator_updates_from_ten_threads_keep_every_segment() -> None:
    bleu = BLEU()
    hyps = [f"the cat sat on a mat number {i} today" for i in range(100)]
    refs = [f"the cat sat on the mat number {i}" for i in range(100)]
    acc = bleu.accumulator()

    def work() -> None:
        for _ in range(3):
            acc.update(hyps, [refs])

    threads = [threading.Thread(target=work) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Before: 900-1,600 of the 3,000 segments were kept, silently.
    assert acc.n_segments == 3000
    assert acc.compute().score == bleu.corpus_score(hyps * 30, [refs * 30]).score


def test_impossible_states_are_refused() -> None:
    bleu, chrf = BLEU(), CHRF()
    good = _bleu_state()
    header = Totals.STATE_HEADER
    more_matches = good.copy()
    more_matches[header + 2] = 10  # ten matching unigrams of four (after the two lengths)
    with pytest.raises(InputError, match="no text gives this BLEU state: 10 matching 1-grams of 4"):
        Accumulator.from_state(bleu, more_matches)
    chrf_state = chrf.segment_stats(["a cat"], [["a cat"]]).totals().state
    chrf_state[header + 2] = chrf_state[header] + 1
    with pytest.raises(InputError, match="no text gives this chrF2 state"):
        Accumulator.from_state(chrf, chrf_state)
    bads: list[Any] = [
        [str(v) for v in good],
        [2**70] * len(good),
        [True] * len(good),
        [math.nan] * len(good),
    ]
    for bad in bads:
        with pytest.raises(InputError, match="a BLEU state holds"):
            Accumulator.from_state(bleu, bad)


def test_a_state_carries_its_configuration_through_sums() -> None:
    # A BLEU state of order 2 is as wide as a chrF state of order 2 (and no words): before, it read
    # back as chrF 74.07.
    two = _bleu_state(order=2)
    chrf2 = CHRF(char_order=2, word_order=0)
    with pytest.raises(InputError, match="not made by chrF2 with this configuration"):
        Accumulator.from_state(chrf2, two)
    with pytest.raises(InputError, match="not made by BLEU"):
        Accumulator.from_state(BLEU(max_ngram_order=2, smooth_method="floor"), two)
    summed = np.sum([two] * 7, axis=0)
    assert Accumulator.from_state(BLEU(max_ngram_order=2), summed).n_segments == 7


def test_sums_past_int64_are_refused_not_wrapped() -> None:
    bleu = BLEU()
    big = _bleu_state().copy()
    big[[0, 1, 2]] = 2**62
    big[Totals.STATE_HEADER :] = 2**62
    acc = Accumulator.from_state(bleu, big)
    with pytest.raises(InputError, match="overflow int64"):
        acc.merge(Accumulator.from_state(bleu, big))
    assert acc.n_segments == 2**62  # the failed merge left it whole


def test_merging_something_else_is_a_typed_error() -> None:
    with pytest.raises(InputTypeError, match="not str"):
        BLEU().accumulator().merge("x")  # type: ignore[arg-type]


def test_a_locked_accumulator_still_pickles_and_copies() -> None:
    import copy
    import pickle

    acc = BLEU().accumulator()
    acc.update(["the cat sat"], [["the cat sat down"]])
    for twin in (pickle.loads(pickle.dumps(acc)), copy.deepcopy(acc)):
        assert twin.state.tolist() == acc.state.tolist()
        twin.update(["a dog"], [["a dog"]])  # its own lock works
        assert (twin.n_segments, acc.n_segments) == (2, 1)
