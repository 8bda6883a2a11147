"""understudy.torchmetrics against torchmetrics 1.9.0 and against the references torchmetrics' own
tests compare with (NLTK, sacrebleu, jiwer).

torchmetrics' tests are not in its published packages (CI reaches only the package registries),
so their cases are turned into tests here, each citing its file in Lightning-AI/torchmetrics
(``tests/unittests/text/``), with the same inputs, references and tolerance (``np.allclose`` with
``atol=1e-8``), one process and two (DDP).
"""

from __future__ import annotations

import doctest
import math
import os
import random
import warnings
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

try:
    import torch
    import torchmetrics.functional.text as tm_f
    import torchmetrics.text as tm
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("needs the torch extra: pip install -e '.[torch]'", allow_module_level=True)

import jiwer
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
from understudy.errors import InputTypeError, LengthMismatchError
from understudy.torchmetrics import text as us
from understudy.torchmetrics.functional import text as us_f

from tests.support import torch_ddp
from tests.support.postgres_server import free_port

# tests/unittests/text/_inputs.py
HYP_A = "It is a guide to action which ensures that the military always obeys the commands of the party"
REF_1A = "It is a guide to action that ensures that the military will forever heed Party commands"
REF_2A = (
    "It is a guiding principle which makes the military forces always being under the command of the Party"
)
HYP_B = "he read the book because he was interested in world history"
REF_1B = "he was interested in world history because he read the book"
REF_2B = "It is the practical guide for the army always to heed the directions of the party"
HYP_C = "the cat the   cat on the mat "
REF_1C = "the  cat is     on the mat "
REF_2C = "there is a   cat on the mat"
PREDS = [[HYP_A, HYP_B], [HYP_B, HYP_C]]
TARGETS = [[[REF_1A, REF_2A], [REF_1B, REF_2B]], [[REF_1B, REF_2B], [REF_1C, REF_2C]]]
ERROR_BATCHES = [
    ([["hello world"], ["what a day"]], [["hello world"], ["what a wonderful day"]]),
    (
        [["i like python", "what you mean or swallow"], ["hello duck", "i like python"]],
        [
            ["i like monthy python", "what do you mean, african or european swallow"],
            ["hello world", "i like monthy python"],
        ],
    ),
]

Reference = Callable[[list[Any], list[Any]], float]


def _flat(batches: Sequence[Sequence[Any]]) -> list[Any]:
    return [item for batch in batches for item in batch]


def _close(result: Any, expected: float) -> bool:
    return bool(np.allclose(np.asarray(result, dtype=np.float64), expected, atol=1e-8, equal_nan=True))


def check_class(metric: Any, preds: list[Any], targets: list[Any], reference: Reference) -> None:
    """torchmetrics' TextTester._class_test in one process: each batch's forward value, then the
    accumulated compute, against the reference."""
    for batch_preds, batch_targets in zip(preds, targets, strict=True):
        assert _close(metric(batch_preds, batch_targets), reference(batch_preds, batch_targets))
    assert _close(metric.compute(), reference(_flat(preds), _flat(targets)))


def check_functional(function: Any, preds: list[Any], targets: list[Any], reference: Reference) -> None:
    """torchmetrics' TextTester._functional_test: each batch through the functional form."""
    for batch_preds, batch_targets in zip(preds, targets, strict=True):
        assert _close(function(batch_preds, batch_targets), reference(batch_preds, batch_targets))


def _by_stream(targets: list[list[str]]) -> list[list[str]]:
    return [[refs[k] for refs in targets] for k in range(len(targets[0]))]


def nltk_bleu(preds: list[str], targets: list[list[str]], weights: list[float], smoothing: Any) -> float:
    refs = [[line.split() for line in refs] for refs in targets]
    return float(corpus_bleu(refs, [p.split() for p in preds], weights, smoothing_function=smoothing))


def sacrebleu_score(metric: Any, preds: list[str], targets: list[list[str]]) -> float:
    return float(metric.corpus_score(preds, _by_stream(targets)).score / 100)


# tests/unittests/text/test_bleu.py
METHOD2 = SmoothingFunction().method2
BLEU_CASES = [([1.0], 1, None, False), ([0.5] * 2, 2, METHOD2, True), ([1 / 3] * 3, 3, None, False)]
BLEU_CASES += [([0.25] * 4, 4, METHOD2, True)]


@pytest.mark.parametrize(("weights", "n_gram", "smoothing", "smooth"), BLEU_CASES)
def test_bleu_cases_of_torchmetrics(weights: list[float], n_gram: int, smoothing: Any, smooth: bool) -> None:
    reference = partial(nltk_bleu, weights=weights, smoothing=smoothing)
    check_class(us.BLEUScore(n_gram=n_gram, smooth=smooth), PREDS, TARGETS, reference)
    check_functional(partial(us_f.bleu_score, n_gram=n_gram, smooth=smooth), PREDS, TARGETS, reference)


def test_bleu_edge_cases_of_torchmetrics() -> None:
    # tests/unittests/text/test_bleu.py: empty input, no 4-gram, default weights are uniform
    assert us_f.bleu_score([[]], [[[]]]) == torch.tensor(0.0)  # type: ignore[list-item]
    assert us.BLEUScore()([[]], [[[]]]) == torch.tensor(0.0)
    preds, targets = (
        ["My full pytorch-lightning"],
        [["My full pytorch-lightning test", "Completely Different"]],
    )
    assert us_f.bleu_score(preds, targets) == torch.tensor(0.0)
    assert us.BLEUScore()(preds, targets) == torch.tensor(0.0)
    assert us_f.bleu_score(preds, targets, n_gram=2) == us_f.bleu_score(preds, targets, 2, weights=[0.5, 0.5])
    assert us.BLEUScore(2)(preds, targets) == us.BLEUScore(2, weights=[0.5, 0.5])(preds, targets)


# tests/unittests/text/test_sacre_bleu.py (flores101/flores200 left out: their model is downloaded)
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("tokenize", ["none", "13a", "zh", "intl", "char", "ja-mecab", "ko-mecab"])
def test_sacrebleu_cases_of_torchmetrics(tokenize: str, lowercase: bool) -> None:
    reference = partial(sacrebleu_score, sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase))
    check_class(us.SacreBLEUScore(tokenize=tokenize, lowercase=lowercase), PREDS, TARGETS, reference)
    function = partial(us_f.sacre_bleu_score, tokenize=tokenize, lowercase=lowercase)
    check_functional(function, PREDS, TARGETS, reference)


def test_sacrebleu_mecab_cases_of_torchmetrics() -> None:
    # tests/unittests/text/test_sacre_bleu.py: test_tokenize_ja_mecab, test_tokenize_ko_mecab
    for tokenize, preds, targets in [
        ("ja-mecab", ["これは美しい花です。"], [["これは美しい花です。", "おいしい寿司を食べたい。"]]),
        (
            "ko-mecab",
            ["이 책은 정말 재미있어요."],
            [["이 책은 정말 재미있어요.", "고마워요, 너무 도와줘서."]],
        ),
    ]:
        expected = sacrebleu_score(sacrebleu.BLEU(tokenize=tokenize), preds, targets)
        assert _close(us.SacreBLEUScore(tokenize=tokenize)(preds, targets), expected)


# tests/unittests/text/test_chrf.py
CHRF_CASES = [(6, 2, False, False), (6, 2, False, True), (4, 2, True, False), (6, 0, True, False)]
CHRF_CASES += [(6, 0, True, True), (4, 0, False, True)]


@pytest.mark.parametrize(("char_order", "word_order", "lowercase", "whitespace"), CHRF_CASES)
def test_chrf_cases_of_torchmetrics(
    char_order: int, word_order: int, lowercase: bool, whitespace: bool
) -> None:
    options: dict[str, Any] = {"lowercase": lowercase, "whitespace": whitespace}
    oracle = sacrebleu.CHRF(char_order, word_order, eps_smoothing=True, **options)
    reference = partial(sacrebleu_score, oracle)
    check_class(us.CHRFScore(char_order, word_order, **options), PREDS, TARGETS, reference)
    function = partial(us_f.chrf_score, n_char_order=char_order, n_word_order=word_order, **options)
    check_functional(function, PREDS, TARGETS, reference)


def test_chrf_and_ter_edge_cases_of_torchmetrics() -> None:
    # tests/unittests/text/test_chrf.py and test_ter.py: empty input; sentence-level scores;
    # test_ter.py: a prediction with no reference adds nothing
    assert us_f.chrf_score([], [[]]) == torch.tensor(0.0) == us.CHRFScore()([], [[]])
    assert us_f.translation_edit_rate([], [[]]) == torch.tensor(0.0) == us.TranslationEditRate()([], [[]])
    assert us_f.translation_edit_rate(["python"], [[]]) == torch.tensor(0.0)
    assert us.TranslationEditRate()(["python"], [[]]) == torch.tensor(0.0)
    preds, targets = [HYP_B], [[REF_1B, REF_2B]]
    pairs: list[tuple[Any, Any]] = [
        (us_f.chrf_score, tm_f.chrf_score),
        (us_f.translation_edit_rate, tm_f.translation_edit_rate),
    ]
    for ours, theirs in pairs:
        corpus, sentences = ours(preds, targets, return_sentence_level_score=True)
        expected = theirs(preds, targets, return_sentence_level_score=True)
        assert type(sentences) is type(expected[1]) and repr(sentences) == repr(expected[1])
        assert torch.equal(corpus, expected[0])
    for ours_cls, theirs_cls in [
        (us.CHRFScore, tm.CHRFScore),
        (us.TranslationEditRate, tm.TranslationEditRate),
    ]:
        two = [HYP_B, HYP_C], [[REF_1B, REF_2B], [REF_1C]]
        result = ours_cls(return_sentence_level_score=True)(*two)
        expected = theirs_cls(return_sentence_level_score=True)(*two)
        assert all(torch.equal(a, b) for a, b in zip(result, expected, strict=True))


# tests/unittests/text/test_ter.py
TER_CASES = [(False, False, False, False), (True, False, False, False), (False, True, False, False)]
TER_CASES += [(False, False, True, False), (False, False, False, True), (True, True, True, True)]


@pytest.mark.parametrize(("normalize", "no_punctuation", "asian_support", "lowercase"), TER_CASES)
def test_ter_cases_of_torchmetrics(
    normalize: bool, no_punctuation: bool, asian_support: bool, lowercase: bool
) -> None:
    oracle = sacrebleu.TER(
        normalized=normalize,
        no_punct=no_punctuation,
        asian_support=asian_support,
        case_sensitive=not lowercase,
    )
    args: dict[str, Any] = {"normalize": normalize, "no_punctuation": no_punctuation}
    args |= {"asian_support": asian_support, "lowercase": lowercase}
    reference = partial(sacrebleu_score, oracle)
    check_class(us.TranslationEditRate(**args), PREDS, TARGETS, reference)
    check_functional(partial(us_f.translation_edit_rate, **args), PREDS, TARGETS, reference)


# tests/unittests/text/test_wer.py, test_cer.py, test_mer.py, test_wil.py, test_wip.py
RATES = [
    (us.WordErrorRate, us_f.word_error_rate, jiwer.wer),
    (us.CharErrorRate, us_f.char_error_rate, jiwer.cer),
    (us.MatchErrorRate, us_f.match_error_rate, jiwer.mer),
    (us.WordInfoLost, us_f.word_information_lost, jiwer.wil),
    (us.WordInfoPreserved, us_f.word_information_preserved, jiwer.wip),
]


@pytest.mark.parametrize(("cls", "function", "oracle"), RATES)
@pytest.mark.parametrize(("preds", "targets"), ERROR_BATCHES)
def test_error_rate_cases_of_torchmetrics(
    cls: Any, function: Any, oracle: Any, preds: Any, targets: Any
) -> None:
    def reference(hyps: list[str], refs: list[str]) -> float:
        return float(oracle(refs, hyps))  # jiwer takes the references first

    check_class(cls(), preds, targets, reference)
    check_functional(function, preds, targets, reference)


def test_inputs_are_checked_as_torchmetrics_checks_them() -> None:
    with pytest.raises(LengthMismatchError, match="different size"):
        us_f.bleu_score(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="weights"):
        us.BLEUScore(n_gram=2, weights=[1.0])
    with pytest.raises(InputTypeError):
        us_f.word_error_rate([1, 2], ["a", "b"])
    with pytest.raises(InputTypeError, match="not NoneType"):
        us.BLEUScore()(None, [["a"]])
    with pytest.raises(ValueError, match="at least 1"):
        us.BLEUScore(n_gram=0)
    with pytest.raises(ValueError, match="unknown tokenizer 'nope'"):  # at once, not at the first update
        us.SacreBLEUScore(tokenize="nope")
    # One prediction and a flat list: chrF and TER read the strings as its references.
    assert us_f.chrf_score("a b", ["a b", "c"]) == tm_f.chrf_score("a b", ["a b", "c"])


WORDS = ["the", "The", "cat", "sat", "on", "a", "mat", "mat.", "dog,", "ran", "!", "x-ray", "ü"]


def random_corpus(
    rng: random.Random, max_refs: int, spaces: Sequence[str] = (" ", "  ", "\t"), min_words: int = 0
) -> tuple[list[str], list[list[str]]]:
    """A corpus of 1-6 predictions, each with 1 to ``max_refs`` references, over a small vocabulary
    (so that n-grams match), words separated by one of ``spaces`` (runs of spaces, tabs)."""

    def sentence() -> str:
        return rng.choice(spaces).join(rng.choice(WORDS) for _ in range(rng.randint(min_words, 9)))

    n = rng.randint(1, 6)
    return [sentence() for _ in range(n)], [
        [sentence() for _ in range(rng.randint(1, max_refs))] for _ in range(n)
    ]


def _tie_to_longer(preds: list[str], targets: list[list[str]]) -> bool:
    """Whether torchmetrics' closest reference (the first listed on a tie) is longer than the shorter."""
    for pred, refs in zip(preds, targets, strict=True):
        lengths = [len(ref.split()) for ref in refs]
        gaps = [abs(len(pred.split()) - length) for length in lengths]
        if lengths[gaps.index(min(gaps))] != min(
            x for x, g in zip(lengths, gaps, strict=True) if g == min(gaps)
        ):
            return True
    return False


def closest_lengths(preds: list[str], targets: list[list[str]]) -> int:
    """The summed closest reference lengths, the shorter reference on a tie (Papineni, sacrebleu, NLTK)."""
    total = 0
    for pred, refs in zip(preds, targets, strict=True):
        hyp = len(pred.split())
        total += min((abs(hyp - len(ref.split())), len(ref.split())) for ref in refs)[1]
    return total


def plain_bleu(hyp: int, ref: int, matches: list[int], totals: list[int], smooth: bool) -> float:
    """BLEU in float64 from counts, uniform weights, Lin and Och's add-one above unigrams when smoothed."""
    add = [0] + [1 if smooth else 0] * (len(matches) - 1)
    precisions = [(m + a) / (t + a) if t + a else 0.0 for m, t, a in zip(matches, totals, add, strict=True)]
    if min(precisions) == 0:
        return 0.0
    brevity = 1.0 if hyp > ref else math.exp(1 - ref / hyp)
    return brevity * math.exp(sum(math.log(p) for p in precisions) / len(precisions))


@pytest.mark.parametrize("smooth", [False, True])
def test_bleu_is_torchmetrics_bit_for_bit_on_300_random_corpora(smooth: bool) -> None:
    rng, compared = random.Random(7), 0
    for _ in range(300):
        preds, targets = random_corpus(rng, 2)
        n_gram = rng.randint(1, 4)
        theirs, ours = tm.BLEUScore(n_gram, smooth), us.BLEUScore(n_gram, smooth)
        expected, result = theirs(preds, targets), ours(preds, targets)
        numerator = theirs.numerator
        # torchmetrics' counts, except its reference length on ties (it takes the first listed)
        assert ours.numerator.tolist() == numerator.tolist() and ours.preds_len == theirs.preds_len
        assert ours.denominator.tolist() == theirs.denominator.tolist()
        assert int(ours.target_len) == closest_lengths(preds, targets)
        if _tie_to_longer(preds, targets) or (smooth and 0 == float(numerator.min()) < float(numerator[0])):
            # torchmetrics' two bugs; understudy's number is the formula's on the right counts
            counts = (
                int(ours.preds_len),
                int(ours.target_len),
                ours.numerator.tolist(),
                ours.denominator.tolist(),
            )
            assert _close(result, plain_bleu(*counts, smooth))
            continue
        compared += 1
        assert torch.equal(result, expected), (preds, targets)
        assert torch.equal(
            us_f.bleu_score(preds, targets, n_gram, smooth), tm_f.bleu_score(preds, targets, n_gram, smooth)
        )
    assert compared >= 100


def test_sacrebleu_score_is_torchmetrics_bit_for_bit_on_300_random_corpora() -> None:
    rng = random.Random(8)
    for _ in range(300):
        preds, targets = random_corpus(rng, 1)
        args: dict[str, Any] = {
            "tokenize": rng.choice(["13a", "intl", "none", "char"]),
            "lowercase": rng.random() < 0.5,
        }
        expected = tm.SacreBLEUScore(n_gram=2, **args)(preds, targets)
        assert torch.equal(us.SacreBLEUScore(n_gram=2, **args)(preds, targets), expected), (
            preds,
            targets,
            args,
        )


def test_chrf_is_torchmetrics_bit_for_bit_on_300_random_corpora() -> None:
    rng, compared = random.Random(9), 0
    for _ in range(300):
        # Tabs and empty predictions (which match nothing) meet torchmetrics' bugs, tested below.
        preds, targets = random_corpus(rng, 1, spaces=(" ", "  "), min_words=1)
        args: dict[str, Any] = {
            "n_char_order": rng.randint(1, 6),
            "n_word_order": rng.randint(0, 2),
            "beta": rng.choice([1.0, 2.0, 3.0]),
        }
        args |= {
            "lowercase": rng.random() < 0.5,
            "whitespace": rng.random() < 0.5,
            "return_sentence_level_score": True,
        }
        expected = tm.CHRFScore(**args)(preds, targets)
        if not bool(expected[1].all()):
            continue  # a prediction matching nothing: torchmetrics' bug, tested below
        compared += 1
        result = us.CHRFScore(**args)(preds, targets)
        assert torch.equal(result[0], expected[0]) and torch.equal(result[1], expected[1]), (
            preds,
            targets,
            args,
        )
    assert compared >= 150


def test_ter_is_torchmetrics_bit_for_bit_where_its_shifts_agree_with_sacrebleu() -> None:
    rng, compared = random.Random(10), 0
    for _ in range(300):
        preds, targets = random_corpus(rng, 1)
        args = {
            "lowercase": rng.random() < 0.5,
            "no_punctuation": rng.random() < 0.3,
            "normalize": rng.random() < 0.3,
        }
        expected = tm.TranslationEditRate(**args, return_sentence_level_score=True)(preds, targets)
        result = us.TranslationEditRate(**args, return_sentence_level_score=True)(preds, targets)
        if not torch.equal(result[1], expected[1]):
            continue  # torchmetrics' own shift search found other edits for some sentence
        compared += 1
        assert torch.equal(result[0], expected[0]), (preds, targets, args)
    assert compared >= 150


@pytest.mark.parametrize(("cls", "function", "oracle"), RATES)
def test_error_rates_are_torchmetrics_bit_for_bit_on_300_random_corpora(
    cls: Any, function: Any, oracle: Any
) -> None:
    rng = random.Random(11)
    for _ in range(300):
        preds, targets = random_corpus(rng, 1)
        refs = [refs[0] for refs in targets]
        expected = getattr(tm, cls.__name__)()(preds, refs)
        assert torch.equal(
            cls()(preds, refs),
            expected,
        ) or (expected.isnan() and cls()(preds, refs).isnan())
        assert (
            torch.equal(function(preds, refs), getattr(tm_f, function.__name__)(preds, refs))
            or expected.isnan()
        )


def test_two_processes_under_ddp_give_the_one_process_numbers(tmp_path: Path) -> None:
    # torchmetrics' TextTester with ddp=True: two processes (gloo), batches split between them
    preds, targets = [[HYP_A, HYP_B], [HYP_B, HYP_C], [HYP_C]], [*TARGETS, [[REF_1C, REF_2C]]]
    rate_preds, rate_targets = ERROR_BATCHES[1]
    jobs: list[torch_ddp.Job] = [
        ("understudy.torchmetrics.text.BLEUScore", {"n_gram": 2, "smooth": True}, preds, targets),
        ("understudy.torchmetrics.text.SacreBLEUScore", {"lowercase": True}, preds, targets),
        ("understudy.torchmetrics.text.CHRFScore", {"return_sentence_level_score": True}, preds, targets),
        ("understudy.torchmetrics.text.TranslationEditRate", {}, preds, targets),
    ]
    for name in ("WordErrorRate", "CharErrorRate", "MatchErrorRate", "WordInfoLost", "WordInfoPreserved"):
        jobs.append((f"understudy.torchmetrics.text.{name}", {}, rate_preds, rate_targets))
    ranks = torch_ddp.run(jobs, tmp_path / "result", free_port())
    for k, (dotted, args, job_preds, job_targets) in enumerate(jobs):
        alone = getattr(us, dotted.rsplit(".", 1)[1])(**args)
        for batch_preds, batch_targets in zip(job_preds, job_targets, strict=True):
            alone.update(batch_preds, batch_targets)
        expected = alone.compute()
        for rank in ranks:  # every rank holds the synced result
            if isinstance(expected, tuple):  # sentences come rank by rank: compared in any order
                assert torch.equal(rank[k][0], expected[0]), dotted
                assert torch.equal(rank[k][1].sort().values, expected[1].sort().values), dotted
            else:
                assert torch.equal(rank[k], expected), dotted
    assert len(ranks[0][2][1]) == 5  # every sentence's chrF, from both processes


def test_an_empty_accumulator_computes_what_torchmetrics_computes() -> None:
    for name in (
        "BLEUScore",
        "SacreBLEUScore",
        "CHRFScore",
        "TranslationEditRate",
        "WordErrorRate",
        "CharErrorRate",
    ):
        with pytest.warns(UserWarning, match="before the ``update``"):
            ours, theirs = getattr(us, name)().compute(), getattr(tm, name)().compute()
        assert repr(ours) == repr(theirs), name  # 0 for BLEU, chrF and TER; nan for the rates


def test_states_are_int64_and_exact_beyond_float32() -> None:
    metric = us.WordErrorRate()
    metric.update(["a b"], ["a c"])
    metric.errors += 2**25  # a count float32 cannot hold exactly: torchmetrics' state would round
    metric.total += 2**25
    assert metric.errors.dtype == torch.int64 and int(metric.errors) == 2**25 + 1


# Each difference README documents: torchmetrics' number, then understudy's correct one.


def test_closest_reference_ties_go_to_the_shorter_reference() -> None:
    preds, targets = ["a b c"], [["a b c d", "a b"]]  # both references 1 word away
    assert float(tm_f.bleu_score(preds, targets, n_gram=1)) == pytest.approx(math.exp(1 - 4 / 3), rel=1e-6)
    assert float(us_f.bleu_score(preds, targets, n_gram=1)) == 1.0
    assert float(us_f.bleu_score(preds, targets, n_gram=1)) == corpus_bleu(
        [[["a", "b", "c", "d"], ["a", "b"]]], [["a", "b", "c"]], [1.0]
    )


def test_smoothing_scores_a_corpus_with_an_unmatched_order() -> None:
    preds, targets = ["the cat sat"], [["a cat sat down"]]
    assert float(tm_f.bleu_score(preds, targets, n_gram=3, smooth=True)) == 0.0
    expected = plain_bleu(3, 4, [2, 1, 0], [3, 2, 1], smooth=True)
    assert expected > 0 and _close(us_f.bleu_score(preds, targets, n_gram=3, smooth=True), expected)


@pytest.mark.parametrize("space", ["\u00a0", "\t", "\u2009"])
def test_chrf_leaves_out_every_unicode_space(space: str) -> None:
    preds, targets = [f"the{space}cat sat"], [["the cat sat"]]
    assert (
        float(cast("torch.Tensor", tm_f.chrf_score(preds, targets, n_word_order=0))) < 1.0
    )  # torchmetrics keeps the space
    assert float(cast("torch.Tensor", us_f.chrf_score(preds, targets, n_word_order=0))) == 1.0  # as sacrebleu
    assert sacrebleu.CHRF().corpus_score(preds, _by_stream(targets)).score == 100.0


def test_chrf_counts_the_reference_of_a_prediction_that_matches_nothing() -> None:
    preds, targets = ["the cat", "xyz"], [["the cat"], ["qqq"]]
    theirs, ours = tm.CHRFScore(n_word_order=0), us.CHRFScore(n_word_order=0)
    assert float(ours(preds, targets)) < float(theirs(preds, targets))  # torchmetrics: recall as if no "qqq"
    assert ours.target_n_grams.tolist() == [6 + 3, 5 + 2, 4 + 1, 3, 2, 1]  # "thecat" and "qqq"
    assert ours.preds_n_grams.tolist() == [6 + 3, 5 + 2, 4 + 1, 3, 2, 1]  # "thecat" and "xyz"


def test_ter_shifts_are_sacrebleus() -> None:
    preds, targets = ["a d b d a e b d d"], [["b c b b d c a d e"]]  # found by a random search
    expected = sacrebleu.TER().corpus_score(preds, _by_stream(targets)).score / 100
    assert float(cast("torch.Tensor", tm_f.translation_edit_rate(preds, targets))) == pytest.approx(5 / 9)
    assert (
        float(cast("torch.Tensor", us_f.translation_edit_rate(preds, targets)))
        == pytest.approx(expected)
        == pytest.approx(6 / 9)
    )


def test_sacrebleu_score_lowercases_before_tokenizing() -> None:
    # "İ" lowercases to two characters: the char tokenizer then splits them, as sacrebleu does.
    preds, targets = ["İstanbul"], [["i̇stanbul"]]
    expected = sacrebleu.BLEU(tokenize="char", lowercase=True).corpus_score(preds, _by_stream(targets)).score
    assert expected == pytest.approx(100.0)
    assert float(us_f.sacre_bleu_score(preds, targets, tokenize="char", lowercase=True)) == pytest.approx(1.0)
    assert float(tm_f.sacre_bleu_score(preds, targets, tokenize="char", lowercase=True)) < 1.0


CLASSES = ["BLEUScore", "SacreBLEUScore", "CHRFScore", "TranslationEditRate", "WordErrorRate"]
CLASSES += ["CharErrorRate", "MatchErrorRate", "WordInfoLost", "WordInfoPreserved"]
FUNCTIONS = ["bleu_score", "sacre_bleu_score", "chrf_score", "translation_edit_rate", "word_error_rate"]
FUNCTIONS += ["char_error_rate", "match_error_rate", "word_information_lost", "word_information_preserved"]


def run_documented_examples(text: Any, functional: Any, prefix: str) -> tuple[int, int]:
    """torchmetrics' docstring examples of these classes (``plot`` included) and functions, run with
    ``torchmetrics.text``/``torchmetrics.functional.text`` meaning ``text``/``functional``, whose
    module is ``prefix``; returns (examples that failed, examples run)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    objects = [getattr(tm, name) for name in CLASSES] + [getattr(tm_f, name) for name in FUNCTIONS]
    names = {name: getattr(text, name) for name in CLASSES} | {
        name: getattr(functional, name) for name in FUNCTIONS
    }
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for obj in objects:
        for test in doctest.DocTestFinder().find(obj, globs=dict(names)):
            for example in test.examples:
                example.source = example.source.replace("torchmetrics.", f"{prefix}.")
            runner.run(test, out=lambda _: None)
            plt.close("all")
    return runner.failures, runner.tries


def test_torchmetrics_documented_examples_pass_through_the_adapter() -> None:
    failed, tried = run_documented_examples(us, us_f, "understudy.torchmetrics")
    theirs = run_documented_examples(tm, tm_f, "torchmetrics")
    assert (failed, tried) == (0, 194) == (theirs[0], tried)


@pytest.mark.parametrize("name", CLASSES)
def test_every_class_is_scriptable_as_torchmetrics_tests_require(name: str) -> None:
    # torchmetrics' TextTester scripts every metric (torch.jit.script) before it runs it.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # torch.jit.script is deprecated in 2.15
        warnings.simplefilter("ignore", DeprecationWarning)  # torchmetrics' own property, read by it
        torch.jit.script(getattr(us, name)())


def _public_modules(package: Any) -> list[str]:
    """The submodules of torchmetrics' ``package`` that users import (not ``_private`` ones)."""
    import pkgutil

    return [m.name for m in pkgutil.iter_modules(package.__path__) if not m.name.startswith("_")]


@pytest.mark.parametrize(("theirs", "ours"), [(tm, us), (tm_f, us_f)], ids=["text", "functional.text"])
def test_every_module_path_of_torchmetrics_holds_the_same_names_here(theirs: Any, ours: Any) -> None:
    # `from torchmetrics.text.bleu import BLEUScore` switched as the docs say must import: every
    # public submodule of torchmetrics that holds a name the drop-in has, holds it here too.
    import importlib

    offered, seen = set(ours.__all__), set()
    for name in _public_modules(theirs):
        module = importlib.import_module(f"{theirs.__name__}.{name}")
        names = sorted(n for n in dir(module) if n in offered)
        if not names:
            continue
        mirrored = importlib.import_module(f"{ours.__name__}.{name}")
        assert {n: getattr(mirrored, n) for n in names} == {n: getattr(ours, n) for n in names}
        seen.update(names)
    # Every metric torchmetrics offers at the package's level was found in its own module.
    assert seen >= set(theirs.__all__) & offered and len(seen) >= 9
    from torchmetrics.functional.text.sacre_bleu import AVAILABLE_TOKENIZERS

    assert us.AVAILABLE_TOKENIZERS == us_f.AVAILABLE_TOKENIZERS == tuple(AVAILABLE_TOKENIZERS)
    # Each is a tokenizer SacreBLEUScore takes (MeCab's and FLORES' need their dictionary or model).
    for tokenize in AVAILABLE_TOKENIZERS[:5]:
        assert float(us.SacreBLEUScore(tokenize=tokenize)(["a b c d"], [["a b c d"]])) == 1.0
