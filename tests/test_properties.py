"""Property-based tests: random and adversarial text against sacrebleu, and exact properties."""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from understudy import BLEU, BLEUStats, tokenize

# Characters that exercise every branch of the tokenizers, plus the full Unicode range.
TRICKY = (
    " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u3000\ufeff\u200b\xad"
    ".,-'\"&;<>/:@[]{}|~^_`!?()+*=#$%0123456789"
    "aAzZ\u03a3\u03c3\u0130\u0345\u0307ßẞ\u1e9e\u2126Ǆ"
    "€™–—…«»→∀我们的中国\u3001\uff0c\u20000\U00020000\U0002f800\u2f81"
)
texts = st.text(alphabet=st.sampled_from(TRICKY), max_size=40) | st.text(max_size=25)
words = st.text(alphabet=st.sampled_from("abcde ."), max_size=30)
TOKENIZERS = ["13a", "intl", "zh", "char", "none"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=texts, lowercase=st.booleans())
def test_tokenizers_match_sacrebleu(line: str, lowercase: bool) -> None:
    for name in TOKENIZERS:
        theirs = SacreBLEU(tokenize=name, lowercase=lowercase)
        expected = " ".join(theirs._preprocess_segment(line).split())
        assert tokenize([line], name, lowercase) == [expected], name


@settings(max_examples=200, deadline=None)
@given(
    pairs=st.lists(st.tuples(texts, texts, st.one_of(st.none(), texts)), min_size=1, max_size=6),
    tokenize_name=st.sampled_from(TOKENIZERS),
    order=st.integers(1, 5),
)
def test_statistics_match_sacrebleu(
    pairs: list[tuple[str, str, str | None]], tokenize_name: str, order: int
) -> None:
    hyps = [h for h, _, _ in pairs]
    refs: list[list[str | None]] = [[r for _, r, _ in pairs], [r2 for _, _, r2 in pairs]]
    theirs = SacreBLEU(tokenize=tokenize_name, max_ngram_order=order)
    # sacrebleu's annotation says str; its code reads None as no reference, as understudy does.
    expected = np.array(theirs._extract_corpus_statistics(hyps, cast(Any, refs)), dtype=np.int64)
    stats = BLEU(tokenize=tokenize_name, max_ngram_order=order).segment_stats(hyps, refs)
    np.testing.assert_array_equal(stats.rows, expected)
    assert stats.score().score == theirs._aggregate_and_compute(expected.tolist()).score


@settings(max_examples=100, deadline=None)
@given(line=words.filter(lambda s: s.split() != []), order=st.integers(1, 6))
def test_identical_hypothesis_and_reference_give_100(line: str, order: int) -> None:
    bleu = BLEU(max_ngram_order=order, effective_order=True)
    # exp(log(100)) is 100.00000000000004 in the C library; sacrebleu prints the same.
    assert math.isclose(bleu.sentence_score(line, [line]).score, 100.0, rel_tol=1e-12, abs_tol=0)


def _stats(hyps: list[str]) -> BLEUStats:
    return BLEU().segment_stats(hyps, [[h[::-1] for h in hyps]])


@settings(max_examples=60, deadline=None)
@given(
    a=st.lists(words, min_size=1, max_size=5),
    b=st.lists(words, min_size=1, max_size=5),
    c=st.lists(words, min_size=1, max_size=5),
)
def test_merging_statistics_is_associative_and_equals_scoring_the_whole(
    a: list[str], b: list[str], c: list[str]
) -> None:
    sa, sb, sc = _stats(a), _stats(b), _stats(c)
    left, right = (sa + sb) + sc, sa + (sb + sc)
    np.testing.assert_array_equal(left.rows, right.rows)
    whole = _stats(a + b + c)
    np.testing.assert_array_equal(left.rows, whole.rows)
    assert left.score() == whole.score()
    np.testing.assert_array_equal(left.total(), sa.total() + sb.total() + sc.total())
