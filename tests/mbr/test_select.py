"""understudy.mbr: exact MBR's choices and expected utilities against mbrs 0.1.8's (recorded by
scripts/mbrs_fixtures.py) and sacrebleu's sentence scores; QE reranking and MBR under a computed
metric against arithmetic done here; what has no choice in it refused."""

from __future__ import annotations

import gzip
import json
from typing import Any

import numpy as np
import pytest
import sacrebleu
from understudy import BLEU, CHRF, TER
from understudy.computed.metric import ComputedMetric, Item, Progress
from understudy.errors import ConfigError, EmptyInputError, InputTypeError, LengthMismatchError
from understudy.mbr import rerank, select
from understudy.metrics.scores import GivenScores

from tests.support.mbr_candidates import candidates
from tests.support.paths import FIXTURES, SHARED

RECORDED = FIXTURES / "mbr" / "mbrs-0.1.8.json.gz"
NOT_A_METRIC: Any = GivenScores({"s": [1.0]}, "x", lower_is_better=False)  # scores, not a scorer
METRICS: dict[str, Any] = {"bleu": BLEU(effective_order=True), "chrf": CHRF(), "ter": TER()}


@pytest.fixture(scope="module")
def mbrs() -> dict[str, Any]:
    with gzip.open(RECORDED, "rt", encoding="utf-8") as fh:
        recorded: dict[str, Any] = json.load(fh)
    return recorded


@pytest.mark.skipif(not SHARED.is_dir(), reason="the WMT17 data is not beside the repository")
@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_exact_mbr_chooses_as_mbrs_does(mbrs: dict[str, Any], name: str) -> None:
    # TER's shift search costs 15 s on all 300 sources: its first 100 keep the suite short.
    lists = candidates(100 if name == "ter" else mbrs["sources"])
    choices = select(lists, METRICS[name])
    recorded = mbrs["metrics"][name]
    for k, choice in enumerate(choices):
        theirs = np.asarray(recorded["expected"][k])
        # mbrs sums float32 scores: within float32's rounding of 32 numbers up to 100 (or 300, TER).
        assert np.allclose(choice.expected, theirs, rtol=1e-5, atol=1e-4), k
        best = theirs.min() if name == "ter" else theirs.max()
        # A choice mbrs' float32 sums tie with its own counts as its choice.
        assert choice.index == recorded["chosen"][k] or theirs[choice.index] == best, k


def test_the_expected_utility_is_the_mean_sentence_score_with_each_pseudo_reference() -> None:
    hyps = ["the cat sat on the mat", "a cat sat on a mat", "the dog ran"]
    refs = ["the cat is on the mat", "a cat on a mat"]
    [choice] = select([hyps], CHRF(), pseudo_references=[refs], utilities=True)
    matrix = [[sacrebleu.sentence_chrf(h, [r]).score for r in refs] for h in hyps]
    assert choice.utilities is not None
    assert np.allclose(choice.utilities, matrix, rtol=0, atol=1e-9)
    assert choice.expected == pytest.approx([sum(row) / 2 for row in matrix], abs=1e-9)
    assert choice.index == int(np.argmax([sum(row) for row in matrix]))
    # Choices compare by what was chosen; the matrix (an array, without ==) is left out.
    assert choice == select([hyps], CHRF(), pseudo_references=[refs])[0]


def test_one_candidate_is_chosen_and_ties_go_to_the_first() -> None:
    [one] = select([["only one"]], BLEU(effective_order=True))
    self_score = sacrebleu.sentence_bleu("only one", ["only one"]).score
    assert (one.index, one.candidate, one.expected) == (0, "only one", (self_score,))
    [tie] = select([["a b c", "x y z", "a b c"]], CHRF())
    assert tie.index == 0 and tie.tied == (2,)
    assert tie.to_dict()["tied"] == [2]


def test_lower_is_better_chooses_the_lowest_ter() -> None:
    hyps = ["hello world", "hello there world", "hi"]
    [choice] = select([hyps], TER())
    expected = [np.mean([sacrebleu.sentence_ter(h, [r]).score for r in hyps]) for h in hyps]
    assert choice.expected == pytest.approx(expected, abs=1e-9)
    assert choice.index == int(np.argmin(expected)) == 2


@pytest.mark.parametrize(
    ("call", "error", "said"),
    [
        (lambda: select([], CHRF()), EmptyInputError, "no candidates"),
        (lambda: select([["a"], []], CHRF()), EmptyInputError, "source 2 has no candidates"),
        (lambda: select(["a b", "c"], CHRF()), InputTypeError, "a list of lists of strings"),
        (lambda: select([["a"]], CHRF(), pseudo_references=[["a"], ["b"]]), LengthMismatchError, "2 lists"),
        (lambda: select([["a"]], CHRF(), pseudo_references=[[]]), EmptyInputError, "no pseudo-references"),
        (lambda: select([["a"]], CHRF(), sources=["s", "t"]), LengthMismatchError, "2 sources for 1"),
        (lambda: select([["a"]], CHRF(), method="centroid"), ConfigError, "unknown MBR method 'centroid'"),
        (lambda: select([["a"]], NOT_A_METRIC), InputTypeError, "cannot serve as a utility"),
    ],
)
def test_what_has_no_choice_in_it_is_refused(call: Any, error: type[Exception], said: str) -> None:
    with pytest.raises(error, match=said):
        call()


class Overlap(ComputedMetric):
    """A stand-in computed metric: the share of the hypothesis's words in the reference (or, with
    no reference, in the source)."""

    kind = "test-overlap"

    @property
    def name(self) -> str:
        return "Overlap"

    def computed_by(self) -> dict[str, str]:
        return {"model": "overlap", "revision": "1", "dtype": "-", "reference": "yes"}

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        return (hypothesis, reference if reference is not None else source or "")

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        return [_overlap(h, r) for h, r in items]


def _overlap(hyp: str, other: str) -> float:
    words = hyp.split()
    return sum(w in other.split() for w in words) / len(words)


def test_a_computed_metric_serves_as_utility_and_as_qe(tmp_path: Any) -> None:
    lists = [["a b c", "a b", "x"], ["p q", "p r s"]]
    metric = Overlap(cache=str(tmp_path / "cache"))
    choices = select(lists, metric)
    for hyps, choice in zip(lists, choices, strict=True):
        expected = [np.mean([_overlap(h, r) for r in hyps]) for h in hyps]
        assert choice.expected == pytest.approx(expected, abs=1e-12)
        assert choice.index == int(np.argmax(expected))
    sources = ["a b", "p s"]
    reranked = rerank(lists, metric, sources)
    for hyps, source, choice in zip(lists, sources, reranked, strict=True):
        assert choice.expected == pytest.approx([_overlap(h, source) for h in hyps], abs=1e-12)
        assert choice.index == int(np.argmax(choice.expected))
