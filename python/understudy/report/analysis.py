"""compare-mt's analyses (Neubig et al. 2019) from understudy's statistics: scores by bucket of
reference length, segments by bucket of sentence score, word F-measure by the words' frequency
in the references, the n-grams one system matches more often than another, and a two-system
diff with matched n-grams marked.

Nothing is counted here: bucket scores are the metrics' own scores of the segments in the
bucket (their statistics summed), and words and n-grams come from
:meth:`understudy.BLEU.ngram_matches` and :meth:`understudy.BLEU.matched_tokens`.

>>> from understudy import BLEU
>>> bleu = BLEU()
>>> refs = [["a b c d", "a b c d e f g h i j k l"]]
>>> stats = bleu.segment_stats_many([["a b c d", "a b c d e f g h i j x x"]], refs)
>>> table = by_reference_length([stats[0]], ["sys"], reference_lengths(bleu, refs))
>>> table.labels
('<10', '[10,20)', '[20,30)', '[30,40)', '[40,50)', '[50,60)', '>=60')
>>> table.sizes, [round(v, 2) for v in table.values["sys"] if v is not None]
((1, 1, 0, 0, 0, 0, 0), [100.0, 80.71])
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import MetricConfig, format_number
from understudy.inputs.tokens import RefStreams
from understudy.metrics.bleu import BLEU, PYTHON_TOKENIZERS, NgramMatches
from understudy.stats import Stats
from understudy.text.normalization import normalize

LENGTH_BOUNDS = (10, 20, 30, 40, 50, 60)
"""compare-mt's buckets of reference length in tokens: <10, [10,20), ..., >=60."""

SCORE_BOUNDS = (10, 20, 30, 40, 50, 60, 70, 80, 90)
"""Buckets of sentence scores: [0,10), ..., [90,100]."""

FREQUENCY_BOUNDS = (1, 2, 3, 4, 5, 10, 100, 1000)
"""compare-mt's buckets of word frequency: 0 (not in the references), 1, 2, 3, 4, [5,10), ..., >=1000."""

SMOOTHING = 1.0
"""compare-mt's additive smoothing of n-gram match counts when ranking two systems' n-grams."""

TOP_NGRAMS = 25


def _labels(bounds: Sequence[int], first: str | None = None) -> tuple[str, ...]:
    """``<b0``, ``[b0,b1)``, ..., ``>=bn``; unit-wide buckets by their number."""
    labels = [first if first is not None else f"<{bounds[0]}"]
    for low, high in itertools.pairwise(bounds):
        labels.append(str(low) if high == low + 1 else f"[{low},{high})")
    labels.append(f">={bounds[-1]}")
    return tuple(labels)


@dataclass(frozen=True)
class Buckets:
    """One bucketed analysis: a value per bucket per system (``None``: empty bucket)."""

    title: str
    quantity: str
    labels: tuple[str, ...]
    sizes: tuple[int, ...]
    values: dict[str, tuple[float | None, ...]] = field(default_factory=dict)
    unit: str = "segments"


def reference_lengths(bleu: BLEU, refs: RefStreams) -> NDArray[np.int64]:
    """Tokens of each segment's first reference, as ``bleu`` tokenizes them.

    >>> reference_lengths(BLEU(), [["Hello, world.", ""]]).tolist()
    [4, 0]
    """
    config = bleu.config
    first = normalize([r or "" for r in refs[0]], config.normalize_unicode)
    if config.tokenize in PYTHON_TOKENIZERS:
        lines = [tokens for tokens, _ in bleu.matched_tokens(first, [first])]
        return np.array([len(tokens) for tokens in lines], dtype=np.int64)
    tokenized = _core.text.tokenize(first, config.tokenize, config.lowercase)
    return np.array([len(line.split(" ")) if line else 0 for line in tokenized], dtype=np.int64)


def by_reference_length(
    stats: Sequence[Stats[Any, Any]], names: Sequence[str], lengths: NDArray[np.int64]
) -> Buckets:
    """Each system's corpus score of the segments in each bucket of reference length."""
    bucket = np.digitize(lengths, LENGTH_BOUNDS)
    members = [np.flatnonzero(bucket == b) for b in range(len(LENGTH_BOUNDS) + 1)]
    values = {
        name: tuple(float(s[m].score().score) if m.size else None for m in members)
        for name, s in zip(names, stats, strict=True)
    }
    metric = stats[0].signature.config.name
    return Buckets(
        f"{metric} by reference length",
        metric,
        _labels(LENGTH_BOUNDS),
        tuple(int(m.size) for m in members),
        values,
    )


def score_bounds(
    config: MetricConfig, scores: NDArray[np.float64]
) -> tuple[NDArray[np.float64], tuple[str, ...]]:
    """Nine inner bounds splitting the metric's range into ten buckets, and the buckets' labels.

    The range is the metric's declared one; an unbounded end is the scores' own extreme, except
    that a metric from 0 with no upper end (TER, WER: more edits than reference words) has ten
    buckets of its scale (0..100, 0..1), the last one open.

    >>> from understudy.metrics.scores import ScoresConfig
    >>> from understudy.metrics.wer import WERConfig
    >>> score_bounds(ScoresConfig(low=0.0, high=1.0), np.zeros(1))[1][:2]
    ('[0,0.1)', '[0.1,0.2)')
    >>> score_bounds(WERConfig(), np.zeros(1))[1][-2:]
    ('[0.8,0.9)', '>=0.9')
    """
    low, high = config.score_range
    if low == 0 and high is None:
        text = [format_number(round(config.scale * k / 10, 12)) for k in range(10)]
        labels = [f"[{a},{b})" for a, b in itertools.pairwise(text)]
        return np.array([config.scale * k / 10 for k in range(1, 10)]), (*labels, f">={text[-1]}")
    lo = float(scores.min(initial=0.0)) if low is None else low
    hi = float(scores.max(initial=1.0)) if high is None else high
    hi = hi if hi > lo else lo + 1
    edges = [lo + (hi - lo) * k / 10 for k in range(11)]
    text = [format_number(round(e, 12)) for e in edges]
    labels = [f"[{a},{b})" for a, b in itertools.pairwise(text[:-1])]
    return np.array(edges[1:-1]), (*labels, f"[{text[-2]},{text[-1]}]")


def by_sentence_score(stats: Sequence[Stats[Any, Any]], names: Sequence[str]) -> Buckets:
    """How many of each system's segments fall in each bucket of sentence score (on the metric's range)."""
    metric = stats[0].signature.config.name
    sentence = [s.sentence_scores() for s in stats]
    bounds, labels = score_bounds(stats[0].config, np.concatenate(sentence))
    values: dict[str, tuple[float | None, ...]] = {}
    for name, scores in zip(names, sentence, strict=True):
        counts = np.bincount(np.digitize(scores, bounds), minlength=len(bounds) + 1)
        values[name] = tuple(float(c) for c in counts)
    return Buckets(f"segments by sentence {metric}", "segments", labels, (), values)


def _f_measure(matched: float, hyp: float, ref: float) -> float | None:
    if hyp == 0 and ref == 0:
        return None
    precision = matched / hyp if hyp else 0.0
    recall = matched / ref if ref else 0.0
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def _unigrams(counts: NgramMatches) -> NDArray[np.bool_]:
    return np.array([" " not in gram for gram in counts.ngrams], dtype=bool)


def by_word_frequency(matches: Sequence[NgramMatches], names: Sequence[str]) -> Buckets:
    """Each system's word F-measure (matched words against hypothesis and reference words) by
    the words' frequency in the references."""
    values: dict[str, tuple[float | None, ...]] = {}
    sizes: tuple[int, ...] = ()
    for name, counts in zip(names, matches, strict=True):
        words = _unigrams(counts)
        bucket = np.digitize(counts.ref[words], FREQUENCY_BOUNDS)
        hyp, ref, matched = (
            np.bincount(bucket, c[words], len(FREQUENCY_BOUNDS) + 1)
            for c in (counts.hyp, counts.ref, counts.matched)
        )
        values[name] = tuple(
            _f_measure(float(m), float(h), float(r)) for m, h, r in zip(matched, hyp, ref, strict=True)
        )
        # Sizes are reference words per bucket: the same for every system.
        sizes = tuple(int(r) for r in ref)
    return Buckets(
        "word F-measure by frequency in the references",
        "F-measure",
        _labels(FREQUENCY_BOUNDS, first="0"),
        sizes,
        values,
        unit="reference words",
    )


@dataclass(frozen=True)
class NgramDifference:
    """An n-gram one system matches more often than the other (compare-mt's smoothed ratio)."""

    ngram: str
    matched_a: int
    matched_b: int
    ratio: float


def ngram_differences(
    a: NgramMatches, b: NgramMatches, top: int = TOP_NGRAMS
) -> tuple[tuple[NgramDifference, ...], tuple[NgramDifference, ...]]:
    """The ``top`` n-grams matched most often by ``a`` rather than ``b``, and the reverse,
    ranked by ``(matched_a + 1) / (matched_a + matched_b + 2)`` (ties: more matches first,
    then the n-gram)."""
    in_a, in_b = (
        {counts.ngrams[k]: int(counts.matched[k]) for k in np.flatnonzero(counts.matched)}
        for counts in (a, b)
    )
    grams = sorted(in_a.keys() | in_b.keys())
    ma = np.array([in_a.get(g, 0) for g in grams], dtype=np.int64)
    mb = np.array([in_b.get(g, 0) for g in grams], dtype=np.int64)
    ratio = (ma + SMOOTHING) / (ma + mb + 2 * SMOOTHING)
    # lexsort's last key sorts first; the position breaks ties in n-gram order.
    position = np.arange(len(grams))

    def rows(order: NDArray[np.intp]) -> list[NgramDifference]:
        return [NgramDifference(grams[k], int(ma[k]), int(mb[k]), float(ratio[k])) for k in order[:top]]

    better_a = rows(np.lexsort((position, -ma, -ratio)))
    better_b = rows(np.lexsort((position, -mb, ratio)))
    return tuple(d for d in better_a if d.ratio > 0.5), tuple(d for d in better_b if d.ratio < 0.5)
