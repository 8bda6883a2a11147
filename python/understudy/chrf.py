"""chrF and chrF++ (Popović 2015, 2017) as an object (``CHRF``) and as sacrebleu's functions.

Character n-gram F-score, with word n-grams for chrF++ (``word_order=2``). Every
number is sacrebleu 2.6.0's. With several references, each segment keeps the
statistics of its reference with the best chrF, as sacrebleu does.

>>> round(corpus_chrf(["The cat sat on the mat."], [["The cat sat on a mat."]]).score, 2)  # sacrebleu's
71.42
>>> round(sentence_chrf("a cat", ["a cat", "the cat"], word_order=2).score, 1)
100.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import CHRFConfig
from understudy.errors import InputError
from understudy.metric import Metric, RefStreams
from understudy.result import CHRFResult
from understudy.scoring import score_chrf_rows
from understudy.stats import CHRFStats


def best_reference_rows(
    rows: NDArray[np.int64], refs_per_segment: NDArray[np.int64], n_systems: int, config: CHRFConfig
) -> NDArray[np.int64]:
    """Each segment's row of its best reference, as ``(segments, systems, width)``.

    ``rows`` holds, segment by segment and system by system, one row per reference.
    The best is the first with the highest chrF (sacrebleu's choice, strict ``>``).
    """
    width = config.row_width
    if (refs_per_segment == 1).all():
        return rows.reshape(len(refs_per_segment), n_systems, width)
    sizes = np.repeat(refs_per_segment, n_systems)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    f_scores = score_chrf_rows(rows, config)
    group_max = np.maximum.reduceat(f_scores, starts)
    group = np.repeat(np.arange(len(sizes)), sizes)
    candidates = np.flatnonzero(f_scores == group_max[group])
    _, first = np.unique(group[candidates], return_index=True)
    return rows[candidates[first]].reshape(len(refs_per_segment), n_systems, width)


MAX_POSITIONS = 1 << 26
"""The most n-gram positions (characters times orders) one sentence may have: counting
takes about 30 bytes a position, so a sentence stays under 2 GiB; a longer one is refused."""


class CHRF(Metric[CHRFStats]):
    """A chrF scorer with a fixed configuration and, optionally, cached references.

    Keyword arguments and defaults are sacrebleu's: ``char_order=6``, ``word_order=0``
    (2 for chrF++), ``beta=2``, ``lowercase=False``, ``whitespace=False`` (spaces are
    not characters), ``eps_smoothing=False``. With ``references=``, references are
    prepared once for any number of systems.

    >>> chrf = CHRF(word_order=2, references=[["the cat sat", "a dog"]])
    >>> [round(r.score, 2) for r in chrf.corpus_scores([["the cat sat", "a dog"], ["the cat", "a cat"]])]
    [100.0, 47.12]
    >>> CHRF().pairwise(["abc", "xyz"], ["abc", "abd"]).round(2)  # sacrebleu: 38.89 = sentence_score
    array([[100.  ,  38.89],
           [  0.  ,   0.  ]])
    """

    stats_type = CHRFStats
    config: CHRFConfig

    def __init__(
        self,
        char_order: int = 6,
        word_order: int = 0,
        beta: float = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        references: RefStreams | None = None,
        threads: int | None = None,
    ) -> None:
        config = CHRFConfig(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
        self._setup(config, references, threads)

    def _scorer(self) -> _core.ChrfScorer:
        c = self.config
        return _core.ChrfScorer(c.char_order, c.word_order, c.lowercase, c.whitespace, self.threads)

    def _select(
        self, rows: NDArray[np.int64], refs_per_segment: NDArray[np.int64], n_systems: int
    ) -> NDArray[np.int64]:
        return best_reference_rows(rows, refs_per_segment, n_systems, self.config)

    def _check_sizes(self, what: str, streams: Sequence[Sequence[str | None]]) -> None:
        # Characters bound both the character and the word n-grams of a sentence.
        limit = MAX_POSITIONS // self.config.orders
        for k, stream in enumerate(streams):
            if max((len(s) for s in stream if isinstance(s, str)), default=0) > limit:
                i = next(i for i, s in enumerate(stream) if isinstance(s, str) and len(s) > limit)
                where = f"stream {k + 1}, segment {i + 1}" if len(streams) > 1 else f"segment {i + 1}"
                raise InputError(
                    f"{what}, {where}: {len(stream[i] or '')} characters; chrF with {self.config.orders} "
                    f"orders counts at most {limit} characters a sentence (memory); split the segment"
                )

    def corpus_score(self, hyps: Sequence[str], refs: RefStreams | None = None) -> CHRFResult:
        """Corpus chrF of ``hyps`` against ``refs`` (or the cached references)."""
        return self.segment_stats(hyps, refs).score()

    def corpus_scores(
        self, systems: Sequence[Sequence[str]], refs: RefStreams | None = None
    ) -> list[CHRFResult]:
        """Corpus chrF of each system, faster than one by one."""
        return [stats.score() for stats in self.segment_stats_many(systems, refs)]

    def sentence_score(self, hyp: str, refs: Sequence[str | None]) -> CHRFResult:
        """Sentence chrF of one hypothesis against its references."""
        result: CHRFResult = super().sentence_score(hyp, refs)
        return result


def corpus_chrf(
    hyps: Sequence[str],
    refs: RefStreams,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFResult:
    """Corpus chrF with sacrebleu's ``corpus_chrf`` arguments.

    >>> round(corpus_chrf(["abc"], [["abd"]], char_order=2).score, 2)  # sacrebleu: 58.33
    58.33
    """
    chrf = CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return chrf.corpus_score(hyps, refs)


def sentence_chrf(
    hyp: str,
    refs: Sequence[str | None],
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFResult:
    """Sentence chrF with sacrebleu's ``sentence_chrf`` arguments.

    >>> sentence_chrf("abc", ["abc"]).score
    100.0
    """
    chrf = CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return chrf.sentence_score(hyp, refs)
