"""BLEU as an object (``BLEU``) and as sacrebleu's functions (``corpus_bleu``, ``sentence_bleu``).

References are laid out as sacrebleu lays them out: a list of reference *streams*,
each as long as the hypotheses; ``refs[k][i]`` is the k-th reference of segment i.
``None`` in a stream means "no k-th reference for this segment"; ``''`` is an empty one.

>>> hyps = ["The cat sat on the mat.", "A dog barked loudly."]
>>> refs = [["The cat sat on the mat.", "The dog barked loudly."]]
>>> round(corpus_bleu(hyps, refs).score, 2)  # sacrebleu: 88.07
88.07
>>> round(sentence_bleu("The dog barked.", ["The dog barked loudly."]).score, 2)  # sacrebleu: 49.76
49.76
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from understudy import _core
from understudy._unicode import rejecting_surrogates
from understudy.config import BLEUConfig
from understudy.errors import ConfigError, EmptyInputError, LengthMismatchError
from understudy.result import BLEUResult
from understudy.stats import BLEUStats

_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

RefStreams = Sequence[Sequence[str | None]]


def _check_hyps(hyps: Sequence[str]) -> list[str]:
    if isinstance(hyps, str) or not isinstance(hyps, Sequence):
        raise TypeError("hyps must be a sequence of strings (one per segment), not a single string")
    for i, hyp in enumerate(hyps):
        if not isinstance(hyp, str):
            raise TypeError(f"hypothesis {i + 1} is {type(hyp).__name__}, not str")
    if not hyps:
        raise EmptyInputError("no hypotheses to score")
    return list(hyps)


def _check_refs(refs: RefStreams, n_segments: int | None) -> list[list[str | None]]:
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise TypeError("refs must be a list of reference streams, each a list of strings")
    if not refs:
        raise EmptyInputError("no reference streams given")
    streams = []
    for k, stream in enumerate(refs):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise TypeError(
                f"reference stream {k + 1} is {type(stream).__name__}; refs must be a list of "
                "streams (refs[k][i] is the k-th reference of segment i)"
            )
        for i, ref in enumerate(stream):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(f"reference {i + 1} of stream {k + 1} is {type(ref).__name__}, not str")
        expected = len(refs[0]) if n_segments is None else n_segments
        if len(stream) != expected:
            first = "the first reference stream" if n_segments is None else "the hypotheses"
            raise LengthMismatchError(
                f"{first} has {expected} segments but reference stream {k + 1} has {len(stream)}"
            )
        streams.append(list(stream))
    return streams


class _References:
    """Reference streams counted once under one configuration."""

    def __init__(self, refs: RefStreams, config: BLEUConfig, n_segments: int | None = None) -> None:
        streams = _check_refs(refs, n_segments)
        if not streams[0]:
            raise EmptyInputError("the reference streams have no segments")
        with rejecting_surrogates("references", streams):
            self.cache = _core.RefCache(streams, config.tokenize, config.lowercase, config.max_ngram_order)
        self.refs_per_segment = np.asarray(self.cache.refs_per_segment(), dtype=np.int64)

    def stats(self, hyps: list[str], config: BLEUConfig) -> BLEUStats:
        if len(hyps) != len(self.refs_per_segment):
            raise LengthMismatchError(
                f"the hypotheses have {len(hyps)} segments "
                f"but the references have {len(self.refs_per_segment)}"
            )
        with rejecting_surrogates("hypotheses", [hyps]):
            rows = self.cache.stats(hyps)
        return BLEUStats(rows, self.refs_per_segment, config)


class BLEU:
    """A BLEU scorer with a fixed configuration and, optionally, cached references.

    Keyword arguments and defaults are sacrebleu's (``tokenize='13a'``, mixed case,
    ``exp`` smoothing, ``max_ngram_order=4``, ``effective_order=False``). With
    ``references=``, the references are tokenized and counted once and every call
    that omits ``refs`` reuses them.

    >>> bleu = BLEU(references=[["a b c d e"]])
    >>> round(bleu.corpus_score(["a b c d e"]).score, 1), round(bleu.corpus_score(["a b c x e"]).score, 2)
    (100.0, 42.73)
    >>> bleu.segment_stats(["a b c"]).rows.tolist()
    [[3, 5, 3, 2, 1, 0, 3, 2, 1, 0]]
    """

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
    ) -> None:
        if tokenize is None:
            tokenize = _LANGUAGE_TOKENIZERS.get(trg_lang, "13a")
        if tokenize in ("ja-mecab", "ko-mecab"):
            raise ConfigError(f"the {tokenize} tokenizer is not available in understudy yet")
        del force  # accepted for sacrebleu compatibility; understudy never warns about tokenized input
        self.config = BLEUConfig(
            tokenize=tokenize,
            lowercase=lowercase,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=max_ngram_order,
            effective_order=effective_order,
        )
        self._cache = None if references is None else _References(references, self.config)

    def _references(self, refs: RefStreams | None, n_segments: int) -> _References:
        if refs is not None:
            return _References(refs, self.config, n_segments)
        if self._cache is None:
            raise ValueError("no refs given and this BLEU was built without references=")
        return self._cache

    def segment_stats(self, hyps: Sequence[str], refs: RefStreams | None = None) -> BLEUStats:
        """Per-segment sufficient statistics of ``hyps`` against ``refs`` (or the cached ones)."""
        checked = _check_hyps(hyps)
        return self._references(refs, len(checked)).stats(checked, self.config)

    def corpus_score(self, hyps: Sequence[str], refs: RefStreams | None = None) -> BLEUResult:
        """Corpus BLEU of ``hyps`` against ``refs`` (or the cached references)."""
        return self.segment_stats(hyps, refs).score()

    def sentence_score(self, hyp: str, refs: Sequence[str | None]) -> BLEUResult:
        """Sentence BLEU of one hypothesis against its references (a list of strings).

        As in sacrebleu, this uses the scorer's ``effective_order`` (off by default);
        :func:`sentence_bleu` turns it on.
        """
        if not isinstance(hyp, str):
            raise TypeError(f"hyp must be a string, not {type(hyp).__name__}")
        if isinstance(refs, str) or not isinstance(refs, Sequence):
            raise TypeError("refs must be a list of reference strings for this one hypothesis")
        return self.corpus_score([hyp], [[ref] for ref in refs])


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
