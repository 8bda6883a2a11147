"""``understudy.sacrebleu`` against sacrebleu 2.6.0 itself, beyond what sacrebleu's own suite checks."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import sacrebleu.significance
import sacrebleu.tokenizers.tokenizer_13a
import sacrebleu.utils
import understudy.sacrebleu as compat
from understudy import ConfigError
from understudy.errors import InputError
from understudy.sacrebleu import significance, utils
from understudy.sacrebleu.tokenizers import tokenizer_13a, tokenizer_intl, tokenizer_ter, tokenizer_zh

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


def test_bleu_scores_print_and_serialise_as_sacrebleus() -> None:
    ours = compat.BLEU(lowercase=True).corpus_score(HYPS, REFS)
    theirs = sacrebleu.BLEU(lowercase=True).corpus_score(HYPS, REFS)
    assert type(ours.counts) is list and ours.counts == theirs.counts and ours.totals == theirs.totals
    assert ours.precisions == theirs.precisions and ours.score == theirs.score
    for width in (1, 2, 4):
        assert ours.format(width) == theirs.format(width)
        assert ours.format(width, score_only=True) == theirs.format(width, score_only=True)
        sig = "nrefs:2|case:lc|eff:no|tok:13a|smooth:exp|version:2.6.0"
        assert json.loads(ours.format(width, signature=sig, is_json=True)) == json.loads(
            theirs.format(width, signature=sig, is_json=True)
        )
    assert repr(ours) == repr(theirs)


def test_chrf_and_ter_scores_have_sacrebleus_fields() -> None:
    for ours, theirs in [
        (compat.corpus_chrf(HYPS, REFS, word_order=2), sacrebleu.corpus_chrf(HYPS, REFS, word_order=2)),
        (compat.corpus_ter(HYPS, REFS), sacrebleu.corpus_ter(HYPS, REFS)),
        (
            compat.sentence_ter(HYPS[1], [r[1] for r in REFS]),
            sacrebleu.sentence_ter(HYPS[1], [r[1] for r in REFS]),
        ),
    ]:
        assert (ours.name, ours.score, ours.format(3)) == (theirs.name, theirs.score, theirs.format(3))
    ter = compat.corpus_ter(HYPS, REFS)
    assert (ter.num_edits, ter.ref_length) == (
        sacrebleu.corpus_ter(HYPS, REFS).num_edits,
        sacrebleu.corpus_ter(HYPS, REFS).ref_length,
    )


def test_compute_bleu_scores_a_training_loops_accumulated_statistics() -> None:
    # A framework sums matches, totals and lengths over batches and scores them once.
    bleu = compat.BLEU()
    rows = bleu.segment_stats(HYPS, REFS).rows
    total = rows.sum(axis=0)
    order = 4
    ours = compat.BLEU.compute_bleu(
        total[2 : 2 + order].tolist(), total[2 + order :].tolist(), total[0], total[1]
    )
    theirs = sacrebleu.BLEU.compute_bleu(
        total[2 : 2 + order].tolist(), total[2 + order :].tolist(), total[0], total[1]
    )
    assert ours.score == theirs.score == sacrebleu.corpus_bleu(HYPS, REFS, smooth_method="none").score
    for method, value in [("floor", 0.2), ("add-k", 2), ("exp", None)]:
        a = compat.BLEU.compute_bleu([3, 0, 0, 0], [5, 4, 3, 2], 5, 7, method, value, effective_order=True)
        b = sacrebleu.BLEU.compute_bleu([3, 0, 0, 0], [5, 4, 3, 2], 5, 7, method, value, effective_order=True)
        assert a.score == b.score
    with pytest.raises(ConfigError, match="correct and total need 4 counts each"):
        compat.BLEU.compute_bleu([1, 1], [2, 2], 2, 2)


def test_corpus_score_with_bootstrap_gives_sacrebleus_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SACREBLEU_SEED", "7")
    hyps, refs = HYPS * 20, [r * 20 for r in REFS]
    ours = compat.BLEU(references=refs).corpus_score(hyps, None, n_bootstrap=200)
    theirs = sacrebleu.BLEU(references=refs).corpus_score(hyps, None, n_bootstrap=200)
    assert (ours._mean, ours._ci) == (theirs._mean, theirs._ci) and ours.format(2) == theirs.format(2)


@pytest.mark.parametrize("test_type", ["bs", "ar"])
@pytest.mark.parametrize("n_ar_confidence", [-1, 0])
def test_paired_test_gives_sacrebleus_results(
    wmt17_ref: list[str], wmt17_systems: dict[str, list[str]], test_type: str, n_ar_confidence: int
) -> None:
    named: list[tuple[str, Sequence[str]]] = [
        (name, hyps[:400]) for name, hyps in list(wmt17_systems.items())[:3]
    ]
    refs = [wmt17_ref[:400]]
    n = 100 if test_type == "bs" else 300
    theirs_sigs, theirs = sacrebleu.significance.PairedTest(
        named,
        {"BLEU": sacrebleu.BLEU(references=refs), "chrF": sacrebleu.CHRF(references=refs)},
        None,
        test_type,
        n,
        n_ar_confidence,
    )()
    ours_sigs, ours = significance.PairedTest(
        named,
        {"BLEU": compat.BLEU(references=refs), "chrF": compat.CHRF(references=refs)},
        None,
        test_type,
        n,
        n_ar_confidence,
    )()
    assert ours.keys() == theirs.keys() and ours["System"] == theirs["System"]
    for metric in ("BLEU", "chrF2"):
        assert [vars(r) for r in ours[metric]] == [vars(r) for r in theirs[metric]]
        want = theirs_sigs[metric].format().replace("version:2.6.0", "")
        got = ours_sigs[metric].format()
        assert got.startswith(want.split("|case")[0]) and "seed:12345" in got


def test_the_tokenizer_classes_are_sacrebleus() -> None:
    lines = ["Hello, world!", "It's 1990 — “quoted” text.", "美众院公布对特", "  spaced  out  "]
    for ours, theirs in [
        (tokenizer_13a.Tokenizer13a(), sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a()),
        (tokenizer_intl.TokenizerV14International(), None),
        (tokenizer_zh.TokenizerZh(), None),
    ]:
        reference = theirs or sacrebleu.BLEU(tokenize=ours.name).tokenizer
        for line in lines:
            assert ours(line.rstrip()) == " ".join(reference(line.rstrip()).split())
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    for flags in [(False, False, False, False), (True, True, True, True), (True, False, True, False)]:
        for line in lines:
            assert tokenizer_ter.TercomTokenizer(*flags)(line) == TercomTokenizer(*flags)(line)


def test_the_test_set_api_is_sacrebleus() -> None:
    assert utils.get_available_testsets() == sacrebleu.utils.get_available_testsets()
    assert list(compat.DATASETS) == sorted(sacrebleu.DATASETS, reverse=True)
    for name in ["wmt17", "wmt22", "iwslt17", "mtnt2019", "tico19/test"]:
        assert utils.get_langpairs_for_testset(name) == [
            p for p in sacrebleu.utils.get_langpairs_for_testset(name) if "-" in p
        ]
    for pair in ["en-de", "de-en", "en-it", "ja-en"]:
        assert sorted(utils.get_available_testsets_for_langpair(pair)) == sorted(
            sacrebleu.utils.get_available_testsets_for_langpair(pair)
        )
    assert compat.DATASETS["wmt17"].description == sacrebleu.DATASETS["wmt17"].description
    assert compat.DATASETS["wmt17"].citation == sacrebleu.DATASETS["wmt17"].citation


def test_smart_open_reads_plain_and_gzip(tmp_path) -> None:
    import gzip

    (tmp_path / "a.txt").write_text("eins\nzwei\n", encoding="utf-8")
    with gzip.open(tmp_path / "a.txt.gz", "wt", encoding="utf-8") as f:
        f.write("eins\nzwei\n")
    for name in ("a.txt", "a.txt.gz"):
        with (
            utils.smart_open(str(tmp_path / name)) as ours,
            sacrebleu.utils.smart_open(str(tmp_path / name)) as theirs,
        ):
            assert ours.read() == theirs.read()


def test_what_is_not_provided_says_why() -> None:
    with pytest.raises(AttributeError, match="does not provide extract_word_ngrams: n-grams are counted"):
        _ = compat.extract_word_ngrams
    with pytest.raises(AttributeError, match="has no attribute 'nonsense'"):
        _ = compat.nonsense
    assert set(compat.__all__) | set(compat.NOT_PROVIDED) == set(sacrebleu.__all__)
    assert np.isclose(compat.sentence_bleu("a b c", ["a b c"]).score, 100.0)


@pytest.mark.parametrize("n_refs", [3, 6, 7])
def test_ter_with_many_references_is_sacrebleus_to_the_bit(n_refs: int) -> None:

    from understudy import TER
    from understudy.inputs.files import read_lines

    from tests.support.paths import SHARED

    ted = Path(SHARED).parent / "wmt21-ted-zh-en-mqm"
    # 800 segments, other systems standing in for more references: with each of these counts,
    # understudy's exact sum and sacrebleu's float sum differ in the last bits.
    texts = [read_lines(str(p))[:800] for p in sorted(ted.glob("*.txt"))]
    hyps, refs = texts[0], texts[1 : 1 + n_refs]
    theirs = sacrebleu.metrics.TER().corpus_score(hyps, refs)
    ours = compat.metrics.TER().corpus_score(hyps, refs)
    assert (ours.score, ours.ref_length, ours.num_edits) == (
        theirs.score,
        theirs.ref_length,
        theirs.num_edits,
    )
    exact = TER().corpus_score(hyps, refs)  # understudy's own: the exact sum, equal to 1e-12 relative
    assert exact.score != theirs.score and exact.score == pytest.approx(theirs.score, rel=1e-12)


@pytest.mark.parametrize(
    ("correct", "total", "sys_len", "ref_len"),
    [([4.5, 3.5, 2.5, 1.5], [5, 4, 3, 2], 5, 5), ([2.25, 0.5, 0, 0], [3.5, 2.5, 1.5, 0.5], 3, 5)],
)
def test_compute_bleu_scores_fractional_counts_as_sacrebleu(
    correct: list[float], total: list[float], sys_len: float, ref_len: float
) -> None:
    sacrebleu = pytest.importorskip("sacrebleu")
    for smooth in ("none", "exp", "floor", "add-k"):
        value = 0.1 if smooth in ("floor", "add-k") else None
        ours = compat.BLEU.compute_bleu(correct, total, sys_len, ref_len, smooth, value)
        theirs = sacrebleu.BLEU.compute_bleu(list(correct), list(total), sys_len, ref_len, smooth, value)
        assert (ours.score, ours.precisions, ours.bp) == (theirs.score, theirs.precisions, theirs.bp)
    # Before: the counts were truncated to whole numbers (66.87).
    assert round(compat.BLEU.compute_bleu([4.5, 3.5, 2.5, 1.5], [5, 4, 3, 2], 5, 5).score, 2) == 83.76
    with pytest.raises(InputError, match="never negative"):
        compat.BLEU.compute_bleu([1, -1, 0, 0], [5, 4, 3, 2], 5, 5)
    # sacrebleu cannot print averaged lengths ("d" format of a float); understudy prints them.
    averaged = compat.BLEU.compute_bleu([4.5, 3.5, 2.5, 1.5], [5, 4, 3, 2], 5.0, 5.5)
    assert str(averaged).endswith("hyp_len = 5 ref_len = 5.5)")
