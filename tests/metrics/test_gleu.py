"""GLEU: NLTK's ``sentence_gleu`` and ``corpus_gleu`` bit for bit, on NLTK's tokens (``tokenize="none"``
over the tokens joined by spaces), on text with every kind of Unicode whitespace, on the WMT17
systems with 13a (HF evaluate's ``google_bleu``: NLTK's ``corpus_gleu`` over sacrebleu's 13a
tokens), and on the command line. The parity harness (``parity/test_metrics.py``) runs every
path of every example configuration against NLTK too."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.gleu_score import corpus_gleu as nltk_corpus_gleu
from nltk.translate.gleu_score import sentence_gleu as nltk_sentence_gleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from understudy import Signature
from understudy.errors import ConfigError, SignatureError
from understudy.metrics.gleu import GLEU, GLEUConfig, corpus_gleu, sentence_gleu

from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE

# Tokens as str.split() leaves them: anything but whitespace, including combining marks,
# NBSP-free CJK, emoji, punctuation and the characters Python alone calls whitespace's neighbours.
TOKEN = st.text(
    alphabet=st.characters(blacklist_categories=("Zs", "Zl", "Zp", "Cc", "Cs")), min_size=1, max_size=4
).filter(lambda t: not any(c.isspace() for c in t))
SENTENCE = st.lists(st.sampled_from(["a", "b", "a", "c", "ab"]) | TOKEN, max_size=14)
SPACES = st.sampled_from([" ", "  ", "\t", "\u00a0", "\u2003", "\u3000", "\x1c", "\u0085", " \n "])


@settings(max_examples=200, deadline=None)
@given(
    segments=st.lists(
        st.tuples(SENTENCE, st.lists(SENTENCE, min_size=1, max_size=3)), min_size=1, max_size=4
    ),
    orders=st.sampled_from([(1, 4), (1, 1), (2, 3), (1, 6), (4, 4)]),
)
def test_nltk_tokens_joined_by_spaces_are_exact(
    segments: list[tuple[list[str], list[list[str]]]], orders: tuple[int, int]
) -> None:
    lo, hi = orders
    hyps = [" ".join(h) for h, _ in segments]
    n_refs = max(len(refs) for _, refs in segments)
    streams: list[list[str | None]] = [
        [" ".join(refs[k]) if k < len(refs) else None for _, refs in segments] for k in range(n_refs)
    ]
    metric = GLEU("none", min_len=lo, max_len=hi, references=streams)
    want = nltk_corpus_gleu([refs for _, refs in segments], [h for h, _ in segments], lo, hi)
    assert metric.corpus_score(hyps).score == want
    sentences = metric.sentence_scores(hyps)
    for i, (hyp, refs) in enumerate(segments):
        expected = nltk_sentence_gleu(refs, hyp, lo, hi)
        assert sentences[i] == expected
        assert (
            sentence_gleu(hyps[i], [" ".join(r) for r in refs], "none", min_len=lo, max_len=hi).score
            == expected
        )


@settings(max_examples=100, deadline=None)
@given(parts=st.lists(st.tuples(SENTENCE, SPACES), min_size=1, max_size=4), ref=SENTENCE)
def test_any_unicode_whitespace_splits_as_str_split(
    parts: list[tuple[list[str], str]], ref: list[str]
) -> None:
    hyp = "".join(space.join(words) + space for words, space in parts)
    reference = "\u2003".join(ref)
    assert sentence_gleu(hyp, [reference], "none").score == nltk_sentence_gleu(
        [reference.split()], hyp.split()
    )


def test_nltk_docstring_examples() -> None:
    hyp1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
    ref1a = "It is a guide to action that ensures that the military will forever heed Party commands"
    ref1b = (
        "It is the guiding principle which guarantees the military forces always being under the command of"
    )
    ref1b += " the Party"
    ref1c = "It is the practical guide for the army always to heed the directions of the party"
    hyp2 = "he read the book because he was interested in world history"
    ref2a = "he was interested in world history because he read the book"
    corpus = corpus_gleu([hyp1, hyp2], [[ref1a, ref2a], [ref1b, None], [ref1c, None]], "none")
    # NLTK's docstring: 0.5673...; and averaging sentence scores is not the corpus score: 0.6144...
    assert f"{corpus.score:.4f}" == "0.5673"
    pair = GLEU("none", references=[[ref1a, ref2a]]).sentence_scores([hyp1, hyp2])
    assert f"{pair.mean():.4f}" == "0.6144"
    assert sentence_gleu("the the the the the the the", ["the cat is on the mat"], "none").score == 2 / 22


def test_wmt17_systems_are_hf_google_bleu(wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]) -> None:
    # HF evaluate's google_bleu: NLTK's corpus_gleu over its (sacrebleu's) 13a tokens, case kept.
    tok = Tokenizer13a()
    refs = [[tok(r).split()] for r in wmt17_ref]
    metric = GLEU(references=[wmt17_ref])
    for name in ("uedin-nmt", "online-B"):
        hyps = wmt17_systems[name]
        want = nltk_corpus_gleu(refs, [tok(h).split() for h in hyps])
        assert metric.corpus_score(hyps).score == want, name


def test_configuration_and_signature() -> None:
    for config in (GLEUConfig(), GLEUConfig("char", True, 2, 7)):
        signature = Signature(1, config)
        assert Signature.parse(signature.format()) == signature
        assert Signature.parse(signature.format(short=True)) == signature
    text = str(Signature(2, GLEUConfig("none", True, 2, 3)))
    assert text.startswith("metric:gleu|nrefs:2|tok:none|case:lc|ngram:2-3|version:")
    with pytest.raises(ConfigError, match="1 <= min_len <= max_len <= 64"):
        GLEUConfig(min_len=0)
    with pytest.raises(ConfigError, match="unknown GLEU tokenizer"):
        GLEUConfig(tokenize="ja-mecab")
    with pytest.raises(SignatureError, match="MIN-MAX"):
        Signature.parse("metric:gleu|nrefs:1|tok:13a|case:mixed|ngram:4|version:understudy-0.1.0")


def test_command_line_prints_gleu_beside_bleu(capsys: pytest.CaptureFixture[str]) -> None:
    ref, hyp = SAMPLE / "newstest2017.ref.en-de.de", SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
    status, out, err = run(capsys, "score", str(ref), "-i", str(hyp), "-m", "bleu", "gleu", "-f", "json")
    assert status == 0, err
    gleu = next(r for r in json.loads(out) if r["name"] == "GLEU")
    tok = Tokenizer13a()
    refs = [[tok(r).split()] for r in ref.read_text(encoding="utf-8").splitlines()]
    hyps = [tok(h).split() for h in hyp.read_text(encoding="utf-8").splitlines()]
    assert gleu["score"] == round(nltk_corpus_gleu(refs, hyps), 4)
    assert gleu["signature"].startswith("metric:gleu|nrefs:1|tok:13a|case:mixed|ngram:1-4|")
