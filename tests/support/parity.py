"""The parity harness: every path of understudy against sacrebleu 2.6.0's public API.

``assert_parity(config, hyps, refs)`` computes the same thing every way understudy
can (one-shot statistics, cached references, many systems at once, vectorised
sentence scores, all pairs, slice and merge, running totals) and compares each with
sacrebleu, bit for bit (``==``). The CLI's chunked path has its own tests. On real data,
sacrebleu's pure-Python TER (seconds a pass) answers from a recording of the same questions
(``oracle``: :func:`tests.support.recorded_oracles.ter_oracle`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st
from understudy import TERConfig, Totals
from understudy.config import MetricConfig
from understudy.metric import Metric
from understudy.metrics import metric_for

from tests.support.families import TEST_FAMILIES

Refs = Sequence[Sequence[str | None]]


# Generated text for the parity tests: adversarial Unicode, punctuation, words, whitespace.
SPECIAL = (
    "&amp; &quot; 's \u00a0 \u3000 \u1680 \x1c \x85 \u200b \u0301 "
    "İ Σ ß ﬁ 中 文 。 ， ！ ｶ ア あ \u3200 \u4dbf １"
)


ALPHABET = st.sampled_from([*"abcAB .,;:!?'\"()-&\t\n", *SPECIAL.split(" ")])


SENTENCE = st.lists(ALPHABET, max_size=14).map("".join)


WORDY = st.lists(
    st.sampled_from(["the", "cat", "The", "a", "mat", "sat", ".", ",", "on", "x"]), max_size=12
).map(" ".join)


TEXT = st.one_of(SENTENCE, WORDY, st.sampled_from(["", " ", "  \t "]))


def ours(
    config: MetricConfig, references: Refs | None = None, threads: int | None = None
) -> Metric[Any, Any]:
    """understudy's metric object for ``config``."""
    return metric_for(config, references, threads)


def theirs(config: MetricConfig, references: Refs | None = None) -> Any:
    """The oracle's metric object for ``config`` (sacrebleu's, for its three families)."""
    return TEST_FAMILIES[config.metric].oracle(config, references)


def their_rows(config: MetricConfig, metric: Any, hyps: list[str], refs: Refs | None) -> np.ndarray:
    """The oracle's segment statistics in understudy's layout."""
    return TEST_FAMILIES[config.metric].oracle_rows(config, metric, hyps, refs)


def _extracting_once(sacre: Any) -> Any:
    """The oracle, its statistics of the same hypotheses (against its cached references) taken
    once: its ``corpus_score`` then sums the rows the parity checks already compared, as it
    would have computed them again (sacrebleu's TER: seconds a pass)."""
    extract = getattr(sacre, "_extract_corpus_statistics", None)
    if extract is None:
        return sacre
    kept: dict[int, tuple[Sequence[str], Any]] = {}

    def once(hyps: Sequence[str], refs: Any) -> Any:
        if refs is not None:
            return extract(hyps, refs)
        if id(hyps) not in kept or kept[id(hyps)][0] is not hyps:
            kept[id(hyps)] = (hyps, extract(hyps, None))
        return kept[id(hyps)][1]

    sacre._extract_corpus_statistics = once
    return sacre


def as_their_layout(config: MetricConfig, rows: np.ndarray) -> np.ndarray:
    """understudy's rows as sacrebleu lays its statistics out (TER: the average length)."""
    if isinstance(config, TERConfig):
        return np.column_stack([rows[:, 0], rows[:, 1] / config.length_scale])
    return rows


def dyadic(refs_per_segment: np.ndarray) -> bool:
    """Whether every segment's reference count is a power of two, so that averaged lengths
    (and sacrebleu's floating-point sums of them) are exact."""
    return bool(np.isin(refs_per_segment, [1, 2, 4, 8, 16]).all())


def assert_exact_ter(stats: Any, corpus: Any) -> None:
    """TER where sacrebleu's float sum of averaged reference lengths rounds (3, 5, 6, ...
    references): understudy's length is the exact sum, correctly rounded, and the score
    is within rounding of sacrebleu's."""
    exact = sum(Fraction(int(r[1]), TERConfig.length_scale) for r in stats.rows)
    assert stats.score().ref_length == float(exact)
    assert abs(stats.score().ref_length - corpus.ref_length) <= 1e-12 * max(1.0, corpus.ref_length)
    assert abs(stats.score().score - corpus.score) <= 1e-12 * max(1.0, corpus.score)


def assert_parity(
    config: MetricConfig,
    hyps: list[str],
    refs: Refs,
    pairwise: int = 12,
    sentences: int = 50,
    oracle: Any = None,
) -> None:
    """Every understudy path equals sacrebleu for these hypotheses and references (``oracle``:
    sacrebleu's answers recorded, :func:`tests.support.recorded_oracles.ter_oracle`)."""
    sacre = _extracting_once(oracle if oracle is not None else theirs(config, refs))
    expected = their_rows(config, sacre, hyps, None)
    cached = ours(config, references=refs)
    one_shot = ours(config, threads=1)

    stats = cached.segment_stats(hyps)
    np.testing.assert_array_equal(as_their_layout(config, stats.rows), expected)
    np.testing.assert_array_equal(one_shot.segment_stats(hyps, refs).rows, stats.rows)
    many = cached.segment_stats_many([hyps, hyps[::-1], hyps])
    np.testing.assert_array_equal(many[0].rows, stats.rows)
    np.testing.assert_array_equal(many[2].rows, stats.rows)

    corpus = sacre.corpus_score(hyps, None)
    if isinstance(config, TERConfig) and not dyadic(stats.refs_per_segment):
        assert_exact_ter(stats, corpus)
    else:
        assert stats.score().score == corpus.score
        assert one_shot.corpus_score(hyps, refs).score == corpus.score
    if isinstance(config, TERConfig):
        assert stats.score().num_edits == corpus.num_edits

    # Slice and merge, and running totals, in any split.
    cut = len(hyps) // 3
    assert (stats[:cut] + stats[cut:]).score() == stats.score()
    running = Totals.empty(config) + stats[cut:] + stats[:cut]
    assert running.score() == stats.score()

    # Sentence scores: vectorised, and sacrebleu's own sentence_score.
    vector = cached.sentence_scores(hyps)
    for i in range(min(sentences, len(hyps))):
        segment_refs = [stream[i] for stream in refs]
        want = sacre.sentence_score(hyps[i], segment_refs).score
        assert vector[i] == want, (i, hyps[i], segment_refs)
        assert one_shot.sentence_score(hyps[i], segment_refs).score == want

    # All pairs against the first reference stream's (non-None) references.
    pool = [r for r in refs[0] if r is not None][:pairwise]
    cands = hyps[:pairwise]
    if pool and cands:
        matrix = one_shot.pairwise(cands, pool)
        for i, hyp in enumerate(cands):
            for j, ref in enumerate(pool):
                assert matrix[i, j] == sacre.sentence_score(hyp, [ref]).score, (hyp, ref)
