"""The report's compare-mt analyses, checked against sacrebleu and against counting done here
from sacrebleu's tokenizer: bucket scores, sentence-score buckets, word F-measure by frequency,
matched n-grams and matched tokens."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from understudy import BLEU, CHRF
from understudy.report.analysis import (
    FREQUENCY_BOUNDS,
    LENGTH_BOUNDS,
    SCORE_BOUNDS,
    by_reference_length,
    by_sentence_score,
    by_word_frequency,
    ngram_differences,
    reference_lengths,
)

from tests.support.paths import SAMPLE
from tests.support.signals import interruptible

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")

REF = (SAMPLE / "newstest2017.ref.en-de.de").read_text(encoding="utf-8").splitlines()
SYSTEM_FILES = sorted(p for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)
SYSTEMS = [p.read_text(encoding="utf-8").splitlines() for p in SYSTEM_FILES]
NAMES = [p.name for p in SYSTEM_FILES]
TOKENIZE = Tokenizer13a()


def _words(line: str) -> list[str]:
    words: list[str] = TOKENIZE(line.rstrip()).split()
    return words


def test_reference_lengths_are_sacrebleus_token_counts() -> None:
    lengths = reference_lengths(BLEU(), [REF])
    assert lengths.tolist() == [len(_words(r)) for r in REF]


@pytest.mark.parametrize("metric, oracle", [(BLEU(), SacreBLEU()), (CHRF(), SacreCHRF())])
def test_each_bucket_is_sacrebleus_score_of_its_segments(metric: BLEU | CHRF, oracle: object) -> None:
    stats = metric.segment_stats_many(SYSTEMS, [REF])
    table = by_reference_length(stats, NAMES, reference_lengths(BLEU(), [REF]))
    bucket = np.digitize([len(_words(r)) for r in REF], LENGTH_BOUNDS)
    assert table.sizes == tuple(int((bucket == b).sum()) for b in range(len(LENGTH_BOUNDS) + 1))
    for name, hyps in zip(NAMES, SYSTEMS, strict=True):
        for b, got in enumerate(table.values[name]):
            members = np.flatnonzero(bucket == b)
            if not members.size:
                assert got is None
                continue
            want = oracle.corpus_score([hyps[i] for i in members], [[REF[i] for i in members]])  # type: ignore[attr-defined]
            assert got == want.score, (name, table.labels[b])


def test_sentence_buckets_count_sacrebleus_sentence_scores() -> None:
    table = by_sentence_score(BLEU().segment_stats_many(SYSTEMS, [REF]), NAMES)
    oracle = SacreBLEU()
    for name, hyps in zip(NAMES, SYSTEMS, strict=True):
        scores = [oracle.sentence_score(h, [r]).score for h, r in zip(hyps, REF, strict=True)]
        counts = np.bincount(np.digitize(scores, SCORE_BOUNDS), minlength=len(SCORE_BOUNDS) + 1)
        assert table.values[name] == tuple(float(c) for c in counts)
        assert sum(table.values[name]) == len(REF)  # type: ignore[arg-type]


def _f_measures_counted_here(hyps: list[str]) -> list[float | None]:
    """compare-mt's word accuracy by reference frequency, counted from sacrebleu's tokens."""
    frequency = Counter(w for r in REF for w in _words(r))
    n = len(FREQUENCY_BOUNDS) + 1
    hyp_words, ref_words, matched = [0] * n, [0] * n, [0] * n
    for hyp, ref in zip(hyps, REF, strict=True):
        h, r = Counter(_words(hyp)), Counter(_words(ref))
        for word, count in h.items():
            k = int(np.digitize(frequency[word], FREQUENCY_BOUNDS))
            hyp_words[k] += count
            matched[k] += min(count, r[word])
        for word, count in r.items():
            ref_words[int(np.digitize(frequency[word], FREQUENCY_BOUNDS))] += count
    out: list[float | None] = []
    for m, h_, r_ in zip(matched, hyp_words, ref_words, strict=True):
        if not h_ and not r_:
            out.append(None)
            continue
        p, rec = (m / h_ if h_ else 0.0), (m / r_ if r_ else 0.0)
        out.append(0.0 if p + rec == 0 else 2 * p * rec / (p + rec))
    return out


def test_word_f_measure_by_frequency_is_compare_mts_counted_here() -> None:
    words = BLEU(max_ngram_order=1)
    table = by_word_frequency([words.ngram_matches(h, [REF]) for h in SYSTEMS], NAMES)
    for name, hyps in zip(NAMES, SYSTEMS, strict=True):
        want = _f_measures_counted_here(hyps)
        assert table.values[name] == pytest.approx(want, rel=1e-12)
    assert table.values[NAMES[0]][0] == 0.0  # words the references never use are never matched
    assert sum(table.sizes) == sum(len(_words(r)) for r in REF)


@pytest.mark.parametrize("lowercase", [False, True])
def test_matched_ngrams_sum_to_sacrebleus_counts_and_totals(lowercase: bool) -> None:
    refs = [REF, SYSTEMS[0]]  # two references: clipped by the larger count in one of them
    for hyps in SYSTEMS[1:]:
        counts = BLEU(lowercase=lowercase).ngram_matches(hyps, refs)
        want = SacreBLEU(lowercase=lowercase).corpus_score(hyps, refs)
        order = np.array([gram.count(" ") + 1 for gram in counts.ngrams])
        assert [int(counts.matched[order == n].sum()) for n in range(1, 5)] == want.counts
        assert [int(counts.hyp[order == n].sum()) for n in range(1, 5)] == want.totals


VOCAB = ["the", "cat", "sat", "on", "a", "mat", ".", "The"]
LINES = st.lists(st.sampled_from(VOCAB), max_size=12).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(hyp=LINES, refs=st.lists(LINES, min_size=1, max_size=3), order=st.integers(1, 5))
def test_a_tokens_level_is_the_longest_reference_ngram_covering_it(
    hyp: str, refs: list[str], order: int
) -> None:
    [(tokens, levels)] = BLEU(max_ngram_order=order).matched_tokens([hyp], [[r] for r in refs])
    assert tokens == _words(hyp)
    known = {
        tuple(w[i : i + n])
        for r in refs
        for w in [_words(r)]
        for n in range(1, order + 1)
        for i in range(len(w))
    }
    for k in range(len(tokens)):
        covering = [
            n
            for n in range(1, order + 1)
            for start in range(k - n + 1, k + 1)
            if start >= 0 and tuple(tokens[start : start + n]) in known and start + n <= len(tokens)
        ]
        assert levels[k] == max(covering, default=0)


def test_ngram_differences_rank_by_compare_mts_smoothed_ratio() -> None:
    bleu = BLEU(max_ngram_order=1)
    refs = [["x x x y", "z"]]
    a = bleu.ngram_matches(["x x x w", "z"], refs)  # x matched 3 times, z once
    b = bleu.ngram_matches(["y w w w", "q"], refs)  # y matched once
    better_a, better_b = ngram_differences(a, b)
    assert [(d.ngram, d.matched_a, d.matched_b, d.ratio) for d in better_a] == [
        ("x", 3, 0, 4 / 5),
        ("z", 1, 0, 2 / 3),
    ]
    assert [(d.ngram, d.ratio) for d in better_b] == [("y", 1 / 3)]


def test_analyses_use_the_reports_tokenizer() -> None:
    chinese = BLEU(tokenize="zh")
    lengths = reference_lengths(chinese, [["我爱你。", "你好"]])
    assert lengths.tolist() == [4, 2]
    [(tokens, levels)] = chinese.matched_tokens(["我爱他。"], [["我爱你。"]])
    assert tokens == ["我", "爱", "他", "。"] and levels == [2, 2, 0, 1]


def test_ter_buckets_hold_sentences_above_100() -> None:
    from sacrebleu.metrics import TER as SacreTER
    from understudy import TER

    hyps = SYSTEMS[0][:300]
    hyps[0] = "ein zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn"
    refs = [REF[:300]]
    refs[0][0] = "kurz"
    table = by_sentence_score([TER().segment_stats(hyps, refs)], ["sys"])
    scores = [SacreTER().sentence_score(h, [r]).score for h, r in zip(hyps, refs[0], strict=True)]
    assert max(scores) > 100 and table.labels[-1] == ">=90"
    counts = np.bincount(np.digitize(scores, SCORE_BOUNDS), minlength=len(SCORE_BOUNDS) + 1)
    assert table.values["sys"] == tuple(float(c) for c in counts)


INTERRUPTED_ANALYSIS = """
import sys, time
from understudy import BLEU
n = 100_000
hyps = [f"the cat number {i} sat on the mat number {i % 977} today" for i in range(n)]
refs = [[f"a cat number {i} sat on a mat {i % 977} today" for i in range(n)]]
analysis = getattr(BLEU(), sys.argv[1])
analysis(hyps[:10], [refs[0][:10]])
try:
    print("started", flush=True)  # inside: a signal at once still lands in the try
    while True:
        analysis(hyps, refs)
except KeyboardInterrupt:
    print("interrupted", flush=True)
    raise
"""


@pytest.mark.parametrize("analysis", ["ngram_matches", "matched_tokens"])
def test_the_reports_analyses_stop_on_ctrl_c(analysis: str) -> None:
    proc = interruptible(
        [sys.executable, "-c", INTERRUPTED_ANALYSIS, analysis],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "started\n"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert out == "interrupted\n" and err.rstrip().endswith("KeyboardInterrupt") and "panicked" not in err
