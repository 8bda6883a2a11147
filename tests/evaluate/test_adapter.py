"""``understudy.evaluate`` gives HF evaluate 0.4.6's metric scripts' numbers.

HF's scripts live on the Hub and GitHub, not on PyPI: tests/fixtures/hf_evaluate.json holds
its ``bleu`` on 300 random corpora (tensorflow/nmt's ``compute_bleu`` over HF's ``Tokenizer13a``)
and the documented examples of the seven scripts, made by scripts/hf_evaluate_fixtures.py outside
the repository. The other scripts are thin glue over libraries installed here (sacrebleu, NLTK,
jiwer), which are the oracles for them, with the scripts' glue written out in the tests."""

from __future__ import annotations

import doctest
import json
import sys
import types
from typing import Any

import jiwer
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.gleu_score import corpus_gleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from understudy import evaluate
from understudy.errors import InputError, UnderstudyError

from tests.support.twin_sets import REPO

FIXTURES = json.loads((REPO / "tests" / "fixtures" / "hf_evaluate.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", FIXTURES["bleu"], ids=lambda c: f"{len(c['predictions'])}seg")
def test_bleu_is_hf_bleu_bit_for_bit(case: dict[str, Any]) -> None:
    got = evaluate.load("bleu").compute(
        predictions=case["predictions"], references=case["references"], **case["options"]
    )
    assert got == case["output"]


WORD = st.sampled_from(["the", "cat", "sat", "The", "dog,", "ran.", "é", "a-b"])
LINE = st.lists(WORD, max_size=8).map(" ".join)
CORPUS = st.integers(1, 3).flatmap(
    lambda refs: st.lists(
        st.tuples(LINE, st.lists(LINE, min_size=refs, max_size=refs)), min_size=1, max_size=4
    )
)


@settings(max_examples=300, deadline=None)
@given(corpus=CORPUS, lowercase=st.booleans(), eff=st.booleans())
def test_sacrebleu_chrf_ter_are_sacrebleus(corpus: list[Any], lowercase: bool, eff: bool) -> None:
    predictions, references = [p for p, _ in corpus], [r for _, r in corpus]
    streams = [[refs[k] for refs in references] for k in range(len(references[0]))]
    got = evaluate.load("sacrebleu").compute(
        predictions=predictions, references=references, lowercase=lowercase, use_effective_order=eff
    )
    want = sacrebleu.corpus_bleu(predictions, streams, lowercase=lowercase, use_effective_order=eff)
    assert got == {
        k: getattr(want, k) for k in ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len")
    }
    chrf = evaluate.load("chrf").compute(predictions=predictions, references=references, word_order=2)
    assert chrf["score"] == sacrebleu.CHRF(word_order=2).corpus_score(predictions, streams).score
    ter = evaluate.load("ter").compute(
        predictions=predictions, references=references, case_sensitive=lowercase
    )
    want_ter = sacrebleu.TER(case_sensitive=lowercase).corpus_score(predictions, streams)
    assert ter == {
        "score": want_ter.score,
        "num_edits": want_ter.num_edits,
        "ref_length": want_ter.ref_length,
    }


@settings(max_examples=300, deadline=None)
@given(corpus=CORPUS)
def test_google_bleu_is_nltks_gleu_over_13a_tokens(corpus: list[Any]) -> None:
    tok = Tokenizer13a()
    predictions, references = [p for p, _ in corpus], [r for _, r in corpus]
    want = corpus_gleu(
        [[tok(r).split() for r in refs] for refs in references], [tok(p).split() for p in predictions]
    )
    assert evaluate.load("google_bleu").compute(predictions=predictions, references=references) == {
        "google_bleu": want
    }


@settings(max_examples=300, deadline=None)
@given(
    pairs=st.lists(st.tuples(LINE, LINE.filter(str.strip)), min_size=1, max_size=4), concatenate=st.booleans()
)
def test_wer_and_cer_are_jiwers_as_hf_sums_them(pairs: list[tuple[str, str]], concatenate: bool) -> None:
    predictions, references = [p for p, _ in pairs], [r for _, r in pairs]
    for name, process in (("wer", jiwer.process_words), ("cer", jiwer.process_characters)):
        incorrect = total = 0
        for prediction, reference in pairs:  # HF's loop
            m = process(reference, prediction)
            incorrect += m.substitutions + m.deletions + m.insertions
            total += m.substitutions + m.deletions + m.hits
        got = evaluate.load(name).compute(
            predictions=predictions, references=references, concatenate_texts=concatenate
        )
        assert got == incorrect / total


@pytest.mark.parametrize("name", ["wer", "cer"])
def test_references_with_nothing_in_them_raise_as_hf_does_under_jiwer_4(name: str) -> None:
    # HF's loop sums the references' lengths and divides by them: ZeroDivisionError.
    process = jiwer.process_words if name == "wer" else jiwer.process_characters
    counted = process("", "hello world")
    assert counted.substitutions + counted.deletions + counted.hits == 0  # HF's denominator
    for references in ([""], ["", ""]):
        predictions = ["hello world"] * len(references)
        with pytest.raises(ValueError, match="nothing to divide by") as raised:
            evaluate.load(name).compute(predictions=predictions, references=references)
        assert isinstance(raised.value, ZeroDivisionError)
        assert isinstance(raised.value, UnderstudyError)
    # One empty reference among others divides by the others' length, as jiwer 4 counts it.
    pairs = [("hello world", ""), ("a b", "a c")]
    incorrect = total = 0
    for prediction, reference in pairs:
        m = process(reference, prediction)
        incorrect += m.substitutions + m.deletions + m.insertions
        total += m.substitutions + m.deletions + m.hits
    got = evaluate.load(name).compute(predictions=[p for p, _ in pairs], references=[r for _, r in pairs])
    assert got == incorrect / total


def test_add_batch_then_compute_and_what_is_refused() -> None:
    wer = evaluate.load("wer")
    wer.add_batch(predictions=["a b"], references=["a c"])
    wer.add(prediction="c", reference="c")
    assert wer.compute() == 1 / 3
    with pytest.raises(InputError, match="same number of references"):
        evaluate.load("sacrebleu").compute(predictions=["a", "b"], references=[["a"], ["b", "c"]])
    with pytest.raises(InputError, match="no metric 'rouge'"):
        evaluate.load("rouge")


@pytest.mark.parametrize("example", FIXTURES["examples"], ids=lambda e: e["metric"])
def test_the_scripts_documented_examples_pass(
    example: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The examples call evaluate.load(...): here that is understudy.evaluate.
    monkeypatch.setitem(sys.modules, "evaluate", evaluate)
    test = doctest.DocTestParser().get_doctest(
        example["text"], {"evaluate": evaluate}, example["file"], example["file"], 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.summarize(verbose=False).failed == 0, "".join(failures)
    assert isinstance(evaluate, types.ModuleType) and test.examples
