"""understudy.mbr's ``aggregate`` and ``prune`` methods against mbrs 0.1.8's ``aggregate_mbr`` and
``pruning_mbr`` decoders and fastchrf's pairwise and aggregated chrF (recorded by
scripts/mbrs_fixtures.py ... methods), and the properties that tie them to exact MBR."""

from __future__ import annotations

import gzip
import json
import math
from typing import Any

import numpy as np
import pytest
from understudy import BLEU, CHRF, TER
from understudy.errors import ConfigError, EmptyInputError
from understudy.mbr import Pruning, select

from tests.mbr.test_select import Overlap
from tests.support.mbr_candidates import candidates
from tests.support.paths import FIXTURES, SHARED

RECORDED = FIXTURES / "mbr" / "mbrs-0.1.8-methods.json.gz"
METRICS: dict[str, Any] = {"bleu": BLEU(effective_order=True), "chrf": CHRF(), "ter": TER()}
needs_wmt17 = pytest.mark.skipif(not SHARED.is_dir(), reason="the WMT17 data is not beside the repository")


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    with gzip.open(RECORDED, "rt", encoding="utf-8") as fh:
        record: dict[str, Any] = json.load(fh)
    return record


@needs_wmt17
@pytest.mark.parametrize("name", ["bleu", "chrf"])
def test_aggregate_mbr_chooses_as_mbrs_does(recorded: dict[str, Any], name: str) -> None:
    theirs = recorded["aggregate"][name]
    choices = select(candidates(recorded["sources"]), METRICS[name], method="aggregate")
    for k, choice in enumerate(choices):
        expected = np.asarray(theirs["expected"][k])
        # mbrs' scores are float32 (its sums of exp(log count - log N) are float64 before).
        assert np.allclose(choice.expected, expected, rtol=1e-6, atol=1e-5), k
        assert choice.index == theirs["chosen"][k] or expected[choice.index] == expected.max(), k


@needs_wmt17
def test_chrf_equals_fastchrf_pairwise_and_aggregated(recorded: dict[str, Any]) -> None:
    lists = candidates(recorded["sources"])
    exact = select(lists, CHRF())
    aggregated = select(lists, CHRF(), method="aggregate")
    for k in range(len(lists)):
        # fastchrf works in float64 too: equal up to the order of additions.
        assert exact[k].expected == pytest.approx(recorded["fastchrf_expected"][k], abs=1e-9), k
        assert aggregated[k].expected == pytest.approx(recorded["fastchrf_aggregate"][k], abs=1e-9), k


@needs_wmt17
@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_pruning_mbr_chooses_as_mbrs_does(recorded: dict[str, Any], name: str) -> None:
    theirs = recorded["prune"][name]
    lists = candidates(100 if name == "ter" else recorded["sources"])  # TER's shifts cost: 100 keep it short
    choices = select(lists, METRICS[name], method="prune")
    pruned = 0
    for k, choice in enumerate(choices):
        chosen, score = theirs["chosen"][k], theirs["score"][k]
        assert math.isclose(choice.expected[choice.index], score, rel_tol=1e-6, abs_tol=1e-4), k
        # mbrs' float32 means may tie what float64 orders: then its choice has our best mean too.
        assert choice.index == chosen or math.isclose(choice.expected[chosen], score, abs_tol=1e-4), k
        pruned += sum(math.isnan(v) for v in choice.expected)
    assert pruned > len(lists)  # pruning happened: more than one candidate a source on average


def test_one_reference_aggregated_is_that_reference() -> None:
    hyps = ["the cat sat on the mat", "a cat", "the the the", ""]
    for metric in (BLEU(effective_order=True), CHRF(), CHRF(word_order=2)):
        for ref in ("the cat is on the mat", "cat"):
            pairwise = metric.pairwise(hyps, [ref])[:, 0]
            assert metric.aggregate(hyps, [ref]).tolist() == pairwise.tolist()
            # The same reference twice averages to itself.
            assert np.allclose(metric.aggregate(hyps, [ref, ref]), pairwise, rtol=0, atol=1e-12)


def test_a_whole_schedule_in_one_step_is_exact_mbr_on_the_survivors() -> None:
    cat = [
        "the cat sat on the mat",
        "the cat sat on a mat",
        "a cat sat on the mat",
        "the cat sat on the mat.",
    ]
    lists = [[*cat, "zq", "xy", "the cat is on the mat", "dogs"] * 2]
    exact = select(lists, CHRF(), utilities=True)[0]
    pruned = select(lists, CHRF(), method="prune", pruning=Pruning(schedule=(16,)), utilities=True)[0]
    assert pruned.index == exact.index
    kept = [i for i, v in enumerate(pruned.expected) if not math.isnan(v)]
    assert exact.index in kept and len(kept) < 16
    assert [pruned.expected[i] for i in kept] == pytest.approx([exact.expected[i] for i in kept], abs=1e-12)
    assert pruned.utilities is not None and exact.utilities is not None
    assert np.array_equal(pruned.utilities, exact.utilities)  # one step scores every cell
    record = pruned.to_dict()
    assert record["expected"].count(None) == 16 - len(kept)


def test_a_pruned_matrix_has_nan_where_nothing_was_scored() -> None:
    lists = [[f"word{i} " * (i % 4 + 1) + "end" for i in range(12)]]
    [choice] = select(lists, CHRF(), method="prune", pruning=Pruning(schedule=(4, 8, 12)), utilities=True)
    assert choice.utilities is not None
    scored = ~np.isnan(choice.utilities)
    assert scored[:, :4].all()  # the first step scores every candidate
    kept = ~np.isnan(np.asarray(choice.expected))
    assert scored[kept].all() and not scored[~kept, 8:].any()


@pytest.mark.parametrize(
    ("call", "error", "said"),
    [
        (lambda: select([["a"]], TER(), method="aggregate"), ConfigError, "TER has no reference aggregation"),
        (lambda: CHRF().aggregate(["a"], []), EmptyInputError, "at least one reference"),
        (lambda: select([["a"]], CHRF(), pruning=Pruning()), ConfigError, "for method='prune'"),
        (lambda: Pruning(alpha=1.0), ConfigError, "between 0 and 1"),
        (lambda: Pruning(schedule=(0, 8)), ConfigError, "counts of 1 or more"),
        (lambda: Pruning(bootstrap=0), ConfigError, "at least one bootstrap"),
    ],
)
def test_what_a_method_cannot_do_is_refused(call: Any, error: type[Exception], said: str) -> None:
    with pytest.raises(error, match=said):
        call()


def test_a_computed_metric_has_no_aggregation_but_prunes(tmp_path: Any) -> None:
    metric = Overlap(cache=str(tmp_path / "cache"))
    with pytest.raises(ConfigError, match="Overlap has no reference aggregation"):
        select([["a b", "a"]], metric, method="aggregate")
    lists = [["a b c", "a b", "x", "a c", "b"] * 2]
    exact = select(lists, metric)[0]
    [pruned] = select(lists, metric, method="prune", pruning=Pruning(schedule=(10,)))
    assert pruned.index == exact.index
