"""BLEU as an object (``BLEU``) and as sacrebleu's functions (``corpus_bleu``, ``sentence_bleu``).

References are laid out as sacrebleu lays them out (see :mod:`understudy.metric`).

>>> hyps = ["The cat sat on the mat.", "A dog barked loudly."]
>>> refs = [["The cat sat on the mat.", "The dog barked loudly."]]
>>> round(corpus_bleu(hyps, refs).score, 2)  # sacrebleu: 88.07
88.07
>>> round(sentence_bleu("The dog barked.", ["The dog barked loudly."]).score, 2)  # sacrebleu: 49.76
49.76
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import PYTHON_TOKENIZERS, BLEUConfig
from understudy.external_tokenizers import ExternalTokenizer, T, canonical, external_tokenizer, pretokenize
from understudy.metric import Metric, RefStreams, _Scorer, check_hyps, check_refs
from understudy.result import BLEUResult
from understudy.stats import BLEUStats

_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def tokenizer_for(trg_lang: str) -> str:
    """sacrebleu's default tokenizer for a target language: ``zh``, ``ja-mecab``, ``ko-mecab``, else ``13a``.

    >>> tokenizer_for("ja"), tokenizer_for("de")
    ('ja-mecab', '13a')
    """
    return _LANGUAGE_TOKENIZERS.get(trg_lang, "13a")


class _Pretokenizing:
    """A core scorer whose text is first tokenized by a Python library (MeCab, SentencePiece)."""

    def __init__(self, core: _core.BleuScorer, tokenizer: ExternalTokenizer, lowercase: bool) -> None:
        self._core = core
        self._tokenizer = tokenizer
        self._lowercase = lowercase

    def _text(self, lines: list[T]) -> list[T]:
        return pretokenize(lines, self._tokenizer, self._lowercase)

    def add_references(self, streams: list[list[str | None]]) -> None:
        self._core.add_references([self._text(stream) for stream in streams])

    def refs_per_segment(self) -> NDArray[np.int64]:
        return self._core.refs_per_segment()

    def stats_many(self, systems: list[list[str]]) -> NDArray[np.int64]:
        return self._core.stats_many([self._text(hyps) for hyps in systems])

    def sentence_stats(
        self, hyps: list[str], streams: list[list[str | None]]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        return self._core.sentence_stats(self._text(hyps), [self._text(stream) for stream in streams])

    def pairwise(self, hyps: list[str], refs: list[str]) -> _core.BleuPairs:
        return self._core.pairwise(self._text(hyps), self._text(refs))

    def __len__(self) -> int:
        return len(self._core)


@dataclass(frozen=True)
class NgramMatches:
    """Corpus totals per n-gram, as :meth:`BLEU.ngram_matches` gives them.

    ``ngrams[k]`` (tokens joined by single spaces, sorted) occurs ``hyp[k]`` times in the
    hypotheses and ``ref[k]`` times in the references (per segment its largest count in
    one reference), and ``matched[k]`` of its hypothesis occurrences are matched (clipped
    as BLEU clips).
    """

    ngrams: list[str]
    hyp: NDArray[np.int64]
    ref: NDArray[np.int64]
    matched: NDArray[np.int64]


class BLEU(Metric[BLEUStats]):
    """A BLEU scorer with a fixed configuration and, optionally, cached references.

    Keyword arguments and defaults are sacrebleu's (``tokenize='13a'``, mixed case,
    ``exp`` smoothing, ``max_ngram_order=4``, ``effective_order=False``). With
    ``references=``, the references are tokenized and counted once and every call
    that omits ``refs`` reuses them. ``threads`` is the number of cores the Rust core
    uses (default: ``$UNDERSTUDY_THREADS``, else every core); results never depend on it.

    >>> bleu = BLEU(references=[["a b c d e"]])
    >>> round(bleu.corpus_score(["a b c d e"]).score, 1), round(bleu.corpus_score(["a b c x e"]).score, 2)
    (100.0, 42.73)
    >>> bleu.segment_stats(["a b c"]).rows.tolist()
    [[3, 5, 3, 2, 1, 0, 3, 2, 1, 0]]
    >>> BLEU(effective_order=True).sentence_scores(["a b c", "a b"], [["a b c", "a c"]]).round(2)
    array([100.,  50.])
    >>> BLEU(effective_order=True).pairwise(["a b c", "x"], ["a b c", "a b", "y"]).round(2)
    array([[100.  ,  55.03,   0.  ],
           [  0.  ,   0.  ,   0.  ]])
    >>> systems = [["a b c d e"], ["a b c d x"]]
    >>> [round(r.score, 2) for r in BLEU(references=[["a b c d e"]]).corpus_scores(systems)]
    [100.0, 66.87]
    """

    stats_type = BLEUStats
    config: BLEUConfig

    def __init__(
        self,
        *,
        tokenize: str | None = None,
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        trg_lang: str = "",
        force: bool = False,
        references: RefStreams | None = None,
        threads: int | None = None,
    ) -> None:
        if tokenize is None:
            tokenize = tokenizer_for(trg_lang)
        elif trg_lang in _LANGUAGE_TOKENIZERS and tokenize != _LANGUAGE_TOKENIZERS[trg_lang]:
            # sacrebleu warns so too (a log message there).
            warnings.warn(
                f"the target language is {trg_lang!r}: consider the {_LANGUAGE_TOKENIZERS[trg_lang]!r} "
                "tokenizer or a SentencePiece one (flores101, flores200, spBLEU-1K)",
                stacklevel=2,
            )
        tokenize = canonical(tokenize)
        del force  # accepted for sacrebleu compatibility; understudy never warns about tokenized input
        config = BLEUConfig(
            tokenize=tokenize,
            lowercase=lowercase,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=max_ngram_order,
            effective_order=effective_order,
        )
        if config.tokenize in PYTHON_TOKENIZERS:
            # A missing library (or model) is named now, not after references were read or fetched.
            external_tokenizer(config.tokenize)
        self._setup(config, references, threads)

    def _scorer(self) -> _Scorer:
        config = self.config
        if config.tokenize in PYTHON_TOKENIZERS:
            # The library tokenizes in Python; the core splits its output on whitespace.
            core = _core.BleuScorer("none", False, config.max_ngram_order, self.threads)
            return _Pretokenizing(core, external_tokenizer(config.tokenize), config.lowercase)
        return _core.BleuScorer(config.tokenize, config.lowercase, config.max_ngram_order, self.threads)

    def _as_core_sees(
        self, hyps: Sequence[str], refs: RefStreams
    ) -> tuple[list[str], list[list[str | None]], str, bool]:
        """The text, tokenizer and case the core is given for this configuration."""
        checked = check_hyps(hyps)
        streams = check_refs(refs, len(checked))
        config = self.config
        if config.tokenize in PYTHON_TOKENIZERS:
            tokenizer = external_tokenizer(config.tokenize)
            return (
                pretokenize(checked, tokenizer, config.lowercase),
                [pretokenize(stream, tokenizer, config.lowercase) for stream in streams],
                "none",
                False,
            )
        return checked, streams, config.tokenize, config.lowercase

    def ngram_matches(self, hyps: Sequence[str], refs: RefStreams) -> NgramMatches:
        """How often each n-gram (orders 1 to the maximum) occurs and is matched over a corpus.

        The statistics behind compare-mt's word and n-gram analyses, tokenized and clipped
        as this configuration's BLEU does: summed per order, ``matched`` and ``hyp`` are
        BLEU's matches and totals.

        >>> counts = BLEU(max_ngram_order=2).ngram_matches(["the cat the"], [["the cat sat"]])
        >>> for row in zip(counts.ngrams, counts.hyp.tolist(), counts.ref.tolist(), counts.matched.tolist()):
        ...     print(*row)
        cat 1 1 1
        cat sat 0 1 0
        cat the 1 0 0
        sat 0 1 0
        the 2 1 1
        the cat 1 1 1
        """
        texts, streams, tokenizer, lowercase = self._as_core_sees(hyps, refs)
        ngrams, rows = _core.ngram_matches(texts, streams, tokenizer, lowercase, self.config.max_ngram_order)
        return NgramMatches(ngrams, rows[:, 0], rows[:, 1], rows[:, 2])

    def matched_tokens(self, hyps: Sequence[str], refs: RefStreams) -> list[tuple[list[str], list[int]]]:
        """Each hypothesis's tokens and, per token, the order of the longest n-gram covering it
        that a reference of its segment has (0: in none), for highlighting matches.

        >>> BLEU().matched_tokens(["the cat sat on a mat"], [["a cat sat on the mat"]])
        [(['the', 'cat', 'sat', 'on', 'a', 'mat'], [1, 3, 3, 3, 1, 1])]
        """
        texts, streams, tokenizer, lowercase = self._as_core_sees(hyps, refs)
        found = _core.matched_tokens(texts, streams, tokenizer, lowercase, self.config.max_ngram_order)
        return [(line.split(" ") if line else [], list(levels)) for line, levels in found]

    def corpus_score(self, hyps: Sequence[str], refs: RefStreams | None = None) -> BLEUResult:
        """Corpus BLEU of ``hyps`` against ``refs`` (or the cached references)."""
        return self.segment_stats(hyps, refs).score()

    def corpus_scores(
        self, systems: Sequence[Sequence[str]], refs: RefStreams | None = None
    ) -> list[BLEUResult]:
        """Corpus BLEU of each system: ``[corpus_score(hyps) for hyps in systems]``, faster."""
        return [stats.score() for stats in self.segment_stats_many(systems, refs)]

    def sentence_score(self, hyp: str, refs: Sequence[str | None]) -> BLEUResult:
        """Sentence BLEU of one hypothesis against its references (a list of strings).

        As in sacrebleu, this uses the scorer's ``effective_order`` (off by default);
        :func:`sentence_bleu` turns it on.
        """
        result: BLEUResult = super().sentence_score(hyp, refs)
        return result


def corpus_bleu(
    hyps: Sequence[str],
    refs: RefStreams,
    *,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = False,
    max_ngram_order: int = 4,
) -> BLEUResult:
    """Corpus BLEU with sacrebleu's ``corpus_bleu`` arguments (plus ``max_ngram_order``).

    >>> round(corpus_bleu(["a b c d"], [["a b c d"], ["a b"]]).score, 1)
    100.0
    """
    bleu = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_ngram_order,
        effective_order=use_effective_order,
        force=force,
    )
    return bleu.corpus_score(hyps, refs)


def sentence_bleu(
    hyp: str,
    refs: Sequence[str | None],
    *,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = True,
    max_ngram_order: int = 4,
) -> BLEUResult:
    """Sentence BLEU with sacrebleu's ``sentence_bleu`` arguments (effective order on).

    >>> round(sentence_bleu("The cat", ["The cat sat"]).score, 2)
    60.65
    """
    bleu = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_ngram_order,
        effective_order=use_effective_order,
    )
    return bleu.sentence_score(hyp, refs)
