"""The accumulator: batches, merged workers and summed states give the corpus score of everything seen."""

from __future__ import annotations

import itertools
import multiprocessing
import random
from typing import Any

import numpy as np
import pytest
from understudy import BLEUConfig, CHRFConfig
from understudy.accumulator import Accumulator
from understudy.config import MetricConfig
from understudy.errors import ConfigError, EmptyInputError, InputError
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
