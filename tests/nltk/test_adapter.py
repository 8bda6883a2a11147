"""``understudy.nltk`` gives NLTK 3.10.4's numbers bit for bit: BLEU with every smoothing method,
weights (several tuples, non-uniform, longer than four), auto-reweighing; GLEU; NLTK's chrF and NIST. The
corpora are random, with what NLTK's conventions make delicate: empty sentences and references,
hypotheses shorter than the n-gram order, integer tokens, string hypotheses (characters).
Where NLTK raises, understudy.nltk raises the same exception type."""

from __future__ import annotations

import functools
import importlib.util
import re
import warnings
from collections.abc import Callable
from typing import Any

import nltk.translate.bleu_score as nltk_bleu
import nltk.translate.chrf_score as nltk_chrf
import nltk.translate.gleu_score as nltk_gleu
import nltk.translate.nist_score as nltk_nist
import pytest
import understudy.nltk
from hypothesis import given, settings
from hypothesis import strategies as st
from understudy.nltk import bleu_score, chrf_score, gleu_score, nist_score

from tests.support.twin_sets import REPO

WORD = st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "The"]) | st.integers(0, 3)
SENTENCE = st.lists(WORD, max_size=9)
SEGMENT = st.tuples(SENTENCE, st.lists(SENTENCE, min_size=1, max_size=3))
CORPUS = st.lists(SEGMENT, min_size=1, max_size=4)
WEIGHT = st.lists(st.sampled_from([0.25, 0.5, 1.0, 0.1, 0.0, 1 / 3]), min_size=1, max_size=6).map(tuple)
WEIGHTS = st.sampled_from([(0.25, 0.25, 0.25, 0.25)]) | WEIGHT | st.lists(WEIGHT, min_size=2, max_size=3)


def outcome(call: Callable[[], Any]) -> Any:
    """What ``call`` returns (with its type), or the type of what it raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = call()
        except (AssertionError, ValueError, ZeroDivisionError, TypeError, IndexError) as error:
            return type(error)
    return (type(value), value)


@settings(max_examples=300, deadline=None)
@given(corpus=CORPUS, weights=WEIGHTS, method=st.integers(0, 7), reweigh=st.booleans())
def test_bleu_is_nltks_bit_for_bit(corpus: list[Any], weights: Any, method: int, reweigh: bool) -> None:
    hyps, refs = [h for h, _ in corpus], [r for _, r in corpus]
    theirs = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    ours = getattr(bleu_score.SmoothingFunction(), f"method{method}")
    expected = outcome(lambda: nltk_bleu.corpus_bleu(refs, hyps, weights, theirs, reweigh))
    assert outcome(lambda: bleu_score.corpus_bleu(refs, hyps, weights, ours, reweigh)) == expected
    expected = outcome(lambda: nltk_bleu.sentence_bleu(refs[0], hyps[0], weights, theirs, reweigh))
    assert outcome(lambda: bleu_score.sentence_bleu(refs[0], hyps[0], weights, ours, reweigh)) == expected


@settings(max_examples=100, deadline=None)
@given(segment=SEGMENT, n=st.integers(1, 6))
def test_bleu_parts_are_nltks(segment: Any, n: int) -> None:
    hyp, refs = segment
    theirs, ours = nltk_bleu.modified_precision(refs, hyp, n), bleu_score.modified_precision(refs, hyp, n)
    assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
    length = nltk_bleu.closest_ref_length(refs, len(hyp))
    assert bleu_score.closest_ref_length(refs, len(hyp)) == length
    assert bleu_score.brevity_penalty(length, len(hyp)) == nltk_bleu.brevity_penalty(length, len(hyp))


def test_a_string_hypothesis_is_its_characters_as_in_nltk() -> None:
    refs = [["t", "h", "e", " ", "c", "a", "t"]]
    assert bleu_score.sentence_bleu(refs, "the cat") == nltk_bleu.sentence_bleu(refs, "the cat")


@settings(max_examples=300, deadline=None)
@given(corpus=CORPUS, lengths=st.sampled_from([(1, 4), (1, 1), (2, 3), (1, 6)]))
def test_gleu_is_nltks(corpus: list[Any], lengths: tuple[int, int]) -> None:
    hyps, refs = [h for h, _ in corpus], [r for _, r in corpus]
    assert gleu_score.corpus_gleu(refs, hyps, *lengths) == nltk_gleu.corpus_gleu(refs, hyps, *lengths)
    assert gleu_score.sentence_gleu(refs[0], hyps[0], *lengths) == nltk_gleu.sentence_gleu(
        refs[0], hyps[0], *lengths
    )


@settings(max_examples=300, deadline=None)
@given(corpus=CORPUS, n=st.integers(0, 6))
def test_nist_is_nltks(corpus: list[Any], n: int) -> None:
    hyps, refs = [h for h, _ in corpus], [r for _, r in corpus]
    expected = outcome(lambda: nltk_nist.corpus_nist(refs, hyps, n))
    assert outcome(lambda: nist_score.corpus_nist(refs, hyps, n)) == expected
    expected = outcome(lambda: nltk_nist.sentence_nist(refs[0], hyps[0], n))
    assert outcome(lambda: nist_score.sentence_nist(refs[0], hyps[0], n)) == expected
    assert nist_score.nist_length_penalty(5, len(hyps[0])) == nltk_nist.nist_length_penalty(5, len(hyps[0]))


def test_nist_on_wmt17_is_nltks_to_the_last_bit(
    wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    # Real sentences: long sums of information weights, whose last bits follow NLTK's order
    # (the hypothesis's first occurrences), with a second reference, each order's best taken.
    # Summed in sorted order instead, the same terms give 9.676556965119769 for n=5, not 9.676556965119765.
    hyps = [line.split() for line in wmt17_systems["uedin-nmt"][:600]]
    other = [line.split() for line in wmt17_systems["online-B"][:600]]
    refs = [[r.split(), o] for r, o in zip(wmt17_ref[:600], other, strict=True)]
    for n in (4, 5):
        assert nist_score.corpus_nist(refs, hyps, n) == nltk_nist.corpus_nist(refs, hyps, n)
    assert nist_score.sentence_nist(refs[7], hyps[7]) == nltk_nist.sentence_nist(refs[7], hyps[7])


def test_nist_refuses_as_nltk_does() -> None:
    for call in (
        lambda m: m.corpus_nist([[]], [["a"]]),
        lambda m: m.corpus_nist([], []),
        lambda m: m.sentence_nist([["a"]], ["a"]),
    ):
        assert outcome(functools.partial(call, nist_score)) == outcome(functools.partial(call, nltk_nist))
    assert understudy.nltk.nist is nist_score.sentence_nist  # nltk.translate.nist's name


TEXT = st.text(st.sampled_from("ab c\u00a0\t\u3000é"), max_size=12)


@settings(max_examples=300, deadline=None)
@given(
    pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=4),
    lengths=st.sampled_from([(1, 6), (2, 3), (1, 1), (3, 7)]),
    beta=st.sampled_from([3.0, 1, 0.5]),
    ignore_whitespace=st.booleans(),
)
def test_chrf_is_nltks(
    pairs: list[tuple[str, str]], lengths: tuple[int, int], beta: float, ignore_whitespace: bool
) -> None:
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    args: tuple[Any, ...] = (*lengths, beta, ignore_whitespace)
    assert chrf_score.corpus_chrf(refs, hyps, *args) == nltk_chrf.corpus_chrf(refs, hyps, *args)
    tokens = [r.split() for r in refs], [h.split() for h in hyps]
    assert chrf_score.corpus_chrf(*tokens, *args) == nltk_chrf.corpus_chrf(*tokens, *args)
    for n in range(1, 4):
        ours = chrf_score.chrf_precision_recall_fscore_support(refs[0], hyps[0], n, beta)
        assert ours == nltk_chrf.chrf_precision_recall_fscore_support(refs[0], hyps[0], n, beta)
        ours = chrf_score.chrf_precision_recall_fscore_support(tokens[0][0], tokens[1][0], n, beta)
        assert ours == nltk_chrf.chrf_precision_recall_fscore_support(tokens[0][0], tokens[1][0], n, beta)


_spec = importlib.util.spec_from_file_location("nltk_suite", REPO / "scripts" / "nltk_suite.py")
assert _spec is not None and _spec.loader is not None
suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite)


@pytest.mark.parametrize("baseline", [False, True], ids=["understudy.nltk", "nltk itself"])
def test_nltks_own_tests_and_examples_pass_through_understudy(baseline: bool) -> None:
    result = suite.run(["-v", "-v", "-rA"], baseline=baseline)  # -q is in the runner's own arguments
    output = result.stdout + result.stderr
    origin = "nltk.translate.bleu_score" if baseline else "understudy.nltk.bleu_score"
    assert f"nltk.translate.bleu_score is {origin}" in output
    summary = re.search(r"(\d+) passed, (\d+) deselected", output)
    assert result.returncode == 0 and summary is not None, output[-3000:]
    # test_bleu.py's 14 tests (one needs nltk_data), metrics/test_nist.py's one (it needs nltk_data),
    # bleu.doctest, and the docstrings with examples of bleu_score (5), gleu_score (2),
    # chrf_score (2) and nist_score (1).
    assert summary.groups() == ("25", "2"), output[-3000:]
    assert output.count("PASSED test_docstrings.py::") == 10
