"""Token input (lists of strings, token ids, NumPy arrays) scored exactly as if each distinct token
were a word.

The oracle gives every distinct token a fresh plain word (``w0``, ``w1``, ...) and scores the
joined words with the reference tool: sacrebleu's BLEU and TER, jiwer's WER, NLTK's GLEU (which
takes the token lists as they are). Tokens here hold what joining with spaces loses: spaces,
NBSP, empty strings, integers beside their digit strings."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import jiwer
import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.gleu_score import corpus_gleu as nltk_corpus_gleu
from understudy import BLEU, CER, CHRF, TER, WER
from understudy.errors import ConfigError, InputTypeError
from understudy.inputs.tokens import TokenWriter
from understudy.metrics.gleu import GLEU
from understudy.metrics.nist import NIST

Token = str | int
TOKEN: st.SearchStrategy[Token] = st.one_of(
    st.sampled_from(["a", "A", "b", "", " ", "a b", "\u00a0", "1", "ΣΑΣ", "σας"]),
    st.integers(-3, 3),
    st.text(max_size=3),
)
SEGMENT = st.lists(TOKEN, max_size=12)
CORPUS = st.lists(st.tuples(SEGMENT, SEGMENT), min_size=1, max_size=5)


def as_words(segments: Sequence[Sequence[Hashable]], words: dict[tuple[type, Any], str]) -> list[str]:
    """Each segment as plain words, one fresh word per distinct token (``1`` and ``"1"`` differ)."""

    def word(token: Hashable) -> str:
        key = (str if isinstance(token, str) else int, token)
        return words.setdefault(key, f"w{len(words)}")

    return [" ".join(word(t) for t in segment) for segment in segments]


def oracle_lines(
    corpus: Sequence[tuple[Sequence[Token], Sequence[Token]]], fold: Callable[[str], str] | None = None
) -> tuple[list[str], list[str]]:
    """The hypotheses and references as the oracle's words (string tokens folded first)."""

    def folded(segment: Sequence[Token]) -> list[Token]:
        return [fold(t) if fold is not None and isinstance(t, str) else t for t in segment]

    words: dict[tuple[type, Any], str] = {}
    hyps = as_words([folded(h) for h, _ in corpus], words)
    refs = as_words([folded(r) for _, r in corpus], words)
    return hyps, refs


@settings(max_examples=80, deadline=None)
@given(corpus=CORPUS, lowercase=st.booleans())
def test_bleu_of_tokens_is_sacrebleu_of_distinct_words(
    corpus: list[tuple[list[Token], list[Token]]], lowercase: bool
) -> None:
    hyps, refs = oracle_lines(corpus, str.lower if lowercase else None)
    ours = BLEU(lowercase=lowercase).segment_stats([h for h, _ in corpus], [[r for _, r in corpus]])
    oracle = sacrebleu.BLEU(tokenize="none")
    assert ours.score().score == oracle.corpus_score(hyps, [refs]).score
    sentence = sacrebleu.BLEU(tokenize="none", effective_order=True)
    expected = [sentence.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    assert ours.for_sentences().sentence_scores().tolist() == expected


@settings(max_examples=60, deadline=None)
@given(corpus=CORPUS, case_sensitive=st.booleans())
def test_ter_of_tokens_is_sacrebleu_of_distinct_words(
    corpus: list[tuple[list[Token], list[Token]]], case_sensitive: bool
) -> None:
    hyps, refs = oracle_lines(corpus, None if case_sensitive else str.lower)
    ours = TER(case_sensitive=case_sensitive).corpus_score([h for h, _ in corpus], [[r for _, r in corpus]])
    assert ours.score == sacrebleu.TER(case_sensitive=True).corpus_score(hyps, [refs]).score


@settings(max_examples=60, deadline=None)
@given(corpus=CORPUS.filter(lambda c: any(r for _, r in c)))
def test_wer_of_tokens_is_jiwer_of_distinct_words(corpus: list[tuple[list[Token], list[Token]]]) -> None:
    corpus = [(h, r) for h, r in corpus if r]  # jiwer refuses empty references
    hyps, refs = oracle_lines(corpus)
    ours = WER().corpus_score([h for h, _ in corpus], [[r for _, r in corpus]])
    assert ours.score == jiwer.wer(refs, hyps)


@settings(max_examples=60, deadline=None)
@given(corpus=CORPUS)
def test_gleu_of_tokens_is_nltk_on_the_same_lists(corpus: list[tuple[list[Token], list[Token]]]) -> None:
    ours = GLEU().corpus_score([h for h, _ in corpus], [[r for _, r in corpus]])
    want = nltk_corpus_gleu([[r] for _, r in corpus], [h for h, _ in corpus])
    assert ours.score == want


@settings(max_examples=40, deadline=None)
@given(
    ids=st.lists(
        st.tuples(
            st.lists(st.integers(-(2**63), 2**63 - 1), max_size=8), st.lists(st.integers(0, 5), max_size=8)
        ),
        min_size=1,
        max_size=4,
    )
)
def test_every_form_of_token_ids_scores_the_same(ids: list[tuple[list[int], list[int]]]) -> None:
    hyps, refs = [h for h, _ in ids], [r for _, r in ids]
    want = BLEU(tokenize="none").segment_stats(*oracle_lines(ids)[:1], [oracle_lines(ids)[1]]).rows
    forms: list[tuple[Any, Any]] = [
        (hyps, [refs]),
        ([np.array(h, dtype=np.int64) for h in hyps], [[np.array(r, dtype=np.int64) for r in refs]]),
        ([tuple(np.int64(t) for t in h) for h in hyps], [[np.array(r, dtype=np.uint8) for r in refs]]),
        # The core lays these out itself: int32 arrays, bools among ints, and lists that mix
        # arrays, lists and tuples; a strided array is left to NumPy.
        (hyps, [[np.array(r, dtype=np.int32) for r in refs]]),
        (hyps, [[[t == 1 if t < 2 else t for t in r] for r in refs]]),
        (
            [
                np.repeat(np.array(h, dtype=np.int64), 2)[::2] if k % 2 else list(h)
                for k, h in enumerate(hyps)
            ],
            [[tuple(r) if k % 2 else np.array(r, dtype=np.int64) for k, r in enumerate(refs)]],
        ),
    ]
    for given_hyps, given_refs in forms:
        assert BLEU().segment_stats(given_hyps, given_refs).rows.tolist() == want.tolist()


def test_integers_beyond_int64_and_unsigned_ids_stay_distinct() -> None:
    big = [2**64, 2**63, -(2**63) - 1, 2**63 - 1]
    assert TokenWriter().lines([big], "hyps") == [
        "18446744073709551616 9223372036854775808 n9223372036854775809 9223372036854775807"
    ]
    unsigned = np.array([[2**64 - 1, 0]], dtype=np.uint64)
    assert TokenWriter().lines(unsigned, "hyps") == ["18446744073709551615 0"]
    assert TokenWriter().lines(np.array([[-1, 1]], dtype=np.int8), "hyps") == ["n1 1"]


def test_a_2d_array_of_ids_scores_as_its_rows() -> None:
    hyps = np.array([[1, 2, 3, 4], [4, 3, 2, 1]], dtype=np.int32)
    refs = np.array([[[1, 2, 3, 4], [1, 2, 3, 4]]])
    scores = BLEU().sentence_scores(hyps, refs)
    oracle = sacrebleu.BLEU(tokenize="none")
    assert scores.tolist()[0] == oracle.sentence_score("a b c d", ["a b c d"]).score
    assert (
        scores.tolist() == BLEU().sentence_scores([[1, 2, 3, 4], [4, 3, 2, 1]], [[[1, 2, 3, 4]] * 2]).tolist()
    )


def test_signature_says_no_tokenizer_and_keeps_case() -> None:
    result = BLEU(lowercase=True).corpus_score([["The", "cat"]], [[["the", "cat"]]])
    assert "tok:none" in str(result.signature) and "case:lc" in str(result.signature)
    assert result.counts[0] == 2  # lowercased: both unigrams match


def test_cached_token_references_survive_pickling() -> None:
    refs = [[[1, 2, 3, 4, 5], [6, 7, 8, 9]]]
    metric = BLEU(references=refs)
    hyps = [[1, 2, 3, 4], [6, 7, 8, 9]]
    restored = pickle.loads(pickle.dumps(metric))
    assert (
        restored.corpus_score(hyps).score
        == metric.corpus_score(hyps).score
        == BLEU().corpus_score(hyps, refs).score
    )
    assert metric.corpus_scores([hyps, [[9]] * 2])[0].score == metric.corpus_score(hyps).score


def test_pairwise_of_tokens_is_each_sentence_score() -> None:
    hyps: list[list[Any]] = [[1, 2, 3, 4], ["a"]]
    refs: list[list[Any]] = [[1, 2, 3, 4], [4, 3, 2, 1], ["a"]]
    metric = BLEU(effective_order=True)
    table = metric.pairwise(hyps, refs)
    assert table.tolist() == [[metric.sentence_score(h, [r]).score for r in refs] for h in hyps]


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: CHRF().corpus_score([[1]], [[[1]]]), InputTypeError, "compares characters"),
        (lambda: NIST().corpus_score([[1]], [[[1]]]), InputTypeError, "mteval-v13a"),
        (lambda: CER().corpus_score([[1]], [[[1]]]), ConfigError, "--wer-unit characters"),
        (lambda: TER(no_punct=True).corpus_score([[1]], [[[1]]]), ConfigError, "--ter-no-punct"),
        (lambda: BLEU().corpus_score([[1]], [["a"]]), InputTypeError, "references are text"),
        (lambda: BLEU().corpus_score(["a"], [[[1]]]), InputTypeError, "references are tokens"),
        (lambda: BLEU(references=[["a"]]).corpus_score([[1]]), InputTypeError, "references are text"),
        (lambda: BLEU(references=[[[1]]]).corpus_score(["a"]), InputTypeError, "references are tokens"),
        (lambda: BLEU().corpus_score([[1, 2.5]], [[[1]]]), InputTypeError, "hyps[0][1] is a float"),  # type: ignore[list-item]
        (lambda: BLEU().corpus_score([[1], "a b"], [[[1], [2]]]), InputTypeError, "hyps[1] is a string"),
        (lambda: BLEU().corpus_score([[[1]]], [[[1]]]), InputTypeError, "hyps[0][0] is a list"),  # type: ignore[list-item]
        (lambda: BLEU().corpus_score(np.zeros((1, 2, 2), dtype=int), [[[1]]]), InputTypeError, "2-D"),
    ],
)
def test_what_cannot_be_scored_is_refused_with_its_reason(
    call: Callable[[], object], error: type[Exception], words: str
) -> None:
    with pytest.raises(error, match=None) as raised:
        call()
    assert words in str(raised.value)


@pytest.mark.parametrize("metric", [BLEU(), TER()])  # ids counted as integers (BLEU), written as words (TER)
def test_bounds_that_do_not_cut_the_ids_are_refused(metric: Any) -> None:
    scorer = metric._for_tokens(False)[0]._once()
    ids, stream = np.array([1, 2, 3]), (np.array([1, 2, 3]), np.array([0, 1, 3]))
    for bounds in ([0, 2, 1, 3], [1, 3], [0, 2], [0, -1, 3]):
        with pytest.raises(ValueError, match="never decrease"):
            scorer.sentence_stats_ids(ids, np.array(bounds), [stream])
    rows, counts = scorer.sentence_stats_ids(ids, np.array([0, 1, 3]), [stream])
    assert counts.tolist() == [1, 1] and len(rows) == 2


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8"])
def test_cpu_tensors_of_any_integer_type_are_token_ids(dtype: str) -> None:
    torch = pytest.importorskip("torch")
    from understudy import TER
    from understudy.errors import InputTypeError

    rng = np.random.default_rng(25)
    hyps = [rng.integers(0, 20, int(rng.integers(3, 12))).tolist() for _ in range(40)]
    refs = [[rng.integers(0, 20, int(rng.integers(3, 12))).tolist() for _ in range(40)]]
    kind = getattr(torch, dtype)
    as_tensors = [torch.tensor(h, dtype=kind) for h in hyps], [[torch.tensor(r, dtype=kind) for r in refs[0]]]
    for metric in (BLEU(), TER()):
        assert (
            metric.segment_stats(*as_tensors).rows.tolist() == metric.segment_stats(hyps, refs).rows.tolist()
        )
    padded = torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]], dtype=kind)
    assert (
        BLEU().segment_stats(padded, padded[None]).rows.tolist()
        == BLEU().segment_stats(padded.numpy(), padded.numpy()[None]).rows.tolist()
    )
    cached = BLEU(references=as_tensors[1])
    assert cached.corpus_score(as_tensors[0]).score == BLEU().corpus_score(hyps, refs).score
    with pytest.raises(InputTypeError, match=r"token ids are integers|tokens are strings or integers"):
        BLEU().segment_stats([torch.tensor([0.5, 1.5])], [[torch.tensor([0.5])]])
