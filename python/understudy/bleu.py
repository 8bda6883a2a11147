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

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy._text import explaining_bad_text
from understudy.config import BLEUConfig
from understudy.errors import ConfigError, EmptyInputError, LengthMismatchError
from understudy.result import BLEUResult
from understudy.scoring import score_rows
from understudy.stats import BLEUStats
from understudy.threads import resolve_threads

_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

RefStreams = Sequence[Sequence[str | None]]

PAIRWISE_ROWS_PER_CALL = 1 << 18
"""All-pairs cells scored per call: bounds memory (rows are 80 bytes a cell at order 4)."""


def _check_sentences(name: str, sentences: Sequence[str]) -> list[str]:
    # Elements are checked by the core (see understudy._text): a loop here would cost
    # more than scoring.
    if isinstance(sentences, str) or not isinstance(sentences, Sequence):
        raise TypeError(f"{name} must be a sequence of strings, not a single string")
    return list(sentences)


def _check_hyps(hyps: Sequence[str]) -> list[str]:
    checked = _check_sentences("hyps", hyps)
    if not checked:
        raise EmptyInputError("no hypotheses to score")
    return checked


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

    def __init__(
        self, refs: RefStreams, config: BLEUConfig, threads: int, n_segments: int | None = None
    ) -> None:
        streams = _check_refs(refs, n_segments)
        if not streams[0]:
            raise EmptyInputError("the reference streams have no segments")
        with explaining_bad_text("references", streams, allow_none=True):
            self.cache = _core.RefCache(
                streams, config.tokenize, config.lowercase, config.max_ngram_order, threads
            )
        self.refs_per_segment = self.cache.refs_per_segment()

    def stats(self, hyps: list[str], config: BLEUConfig) -> BLEUStats:
        if len(hyps) != len(self.refs_per_segment):
            raise LengthMismatchError(
                f"the hypotheses have {len(hyps)} segments "
                f"but the references have {len(self.refs_per_segment)}"
            )
        with explaining_bad_text("hypotheses", [hyps]):
            rows = self.cache.stats(hyps)
        return BLEUStats(rows, self.refs_per_segment, config)

    def stats_many(self, systems: list[list[str]], config: BLEUConfig) -> list[BLEUStats]:
        for k, hyps in enumerate(systems):
            if len(hyps) != len(self.refs_per_segment):
                raise LengthMismatchError(
                    f"system {k + 1} has {len(hyps)} segments "
                    f"but the references have {len(self.refs_per_segment)}"
                )
        with explaining_bad_text("hypotheses", systems):
            rows = self.cache.stats_many(systems)
        return [BLEUStats(rows[:, k, :], self.refs_per_segment, config) for k in range(len(systems))]


class BLEU:
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
        threads: int | None = None,
    ) -> None:
        chosen = tokenize is None
        if tokenize is None:
            tokenize = _LANGUAGE_TOKENIZERS.get(trg_lang, "13a")
        if tokenize in ("ja-mecab", "ko-mecab"):
            why = f" (sacrebleu's default for the target language {trg_lang!r})" if chosen else ""
            hint = (
                "; choose another with tokenize=/-tok, knowing the score is not sacrebleu's" if chosen else ""
            )
            raise ConfigError(f"the {tokenize} tokenizer{why} is not available in understudy yet{hint}")
        del force  # accepted for sacrebleu compatibility; understudy never warns about tokenized input
        self.config = BLEUConfig(
            tokenize=tokenize,
            lowercase=lowercase,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=max_ngram_order,
            effective_order=effective_order,
        )
        self.threads = resolve_threads(threads)
        self._cache = None if references is None else _References(references, self.config, self.threads)

    def _references(self, refs: RefStreams | None, n_segments: int) -> _References:
        if refs is not None:
            return _References(refs, self.config, self.threads, n_segments)
        if self._cache is None:
            raise ValueError("no refs given and this BLEU was built without references=")
        return self._cache

    def segment_stats(self, hyps: Sequence[str], refs: RefStreams | None = None) -> BLEUStats:
        """Per-segment sufficient statistics of ``hyps`` against ``refs`` (or the cached ones)."""
        checked = _check_hyps(hyps)
        if refs is None:
            return self._references(None, len(checked)).stats(checked, self.config)
        # References used once: tokenized straight into the matching tables, not cached.
        streams = _check_refs(refs, len(checked))
        config = self.config
        with explaining_bad_text("hypotheses", [checked]), explaining_bad_text("references", streams, True):
            rows, refs_per_segment = _core.sentence_stats(
                checked, streams, config.tokenize, config.lowercase, config.max_ngram_order, self.threads
            )
        return BLEUStats(rows, refs_per_segment, config)

    def corpus_score(self, hyps: Sequence[str], refs: RefStreams | None = None) -> BLEUResult:
        """Corpus BLEU of ``hyps`` against ``refs`` (or the cached references)."""
        return self.segment_stats(hyps, refs).score()

    def segment_stats_many(
        self, systems: Sequence[Sequence[str]], refs: RefStreams | None = None
    ) -> list[BLEUStats]:
        """:meth:`segment_stats` of several systems at once, faster than one by one.

        Each segment's references are loaded once for all systems, so scoring many
        systems (or checkpoints) against one test set costs little more than reading them.
        """
        if isinstance(systems, str) or not isinstance(systems, Sequence) or not systems:
            raise TypeError("systems must be a non-empty sequence of hypothesis lists")
        checked = [_check_hyps(hyps) for hyps in systems]
        return self._references(refs, len(checked[0])).stats_many(checked, self.config)

    def corpus_scores(
        self, systems: Sequence[Sequence[str]], refs: RefStreams | None = None
    ) -> list[BLEUResult]:
        """Corpus BLEU of each system: ``[corpus_score(hyps) for hyps in systems]``, faster.

        >>> bleu = BLEU(references=[["the cat sat on the mat", "a dog barked at me"]])
        >>> systems = [["the cat sat on the mat", "a dog barked at me"]]
        >>> systems.append(["the cat sat on a mat", "a dog barked at me"])
        >>> [round(r.score, 2) for r in bleu.corpus_scores(systems)]  # sacrebleu: [100.0, 74.19]
        [100.0, 74.19]
        """
        return [stats.score() for stats in self.segment_stats_many(systems, refs)]

    def sentence_scores(self, hyps: Sequence[str], refs: RefStreams | None = None) -> NDArray[np.float64]:
        """Sentence BLEU of every segment at once: ``sentence_score(hyps[i], [r[i] for r in refs])``.

        With ``effective_order=True`` (as :func:`sentence_bleu` has it) each value is
        exactly ``sentence_bleu(hyps[i], ...).score``. References are the cached ones
        when ``refs`` is omitted.

        >>> BLEU(effective_order=True).sentence_scores(["a b c", "a b"], [["a b c", "a c"]]).round(2)
        array([100.,  50.])
        """
        return self.segment_stats(hyps, refs).sentence_scores()

    def pairwise(
        self,
        hyps: Sequence[str],
        refs: Sequence[str],
        progress: Callable[[int, int], None] | None = None,
    ) -> NDArray[np.float64]:
        """Sentence BLEU of every hypothesis against every reference, as its only reference.

        Returns a ``(len(hyps), len(refs))`` array whose cell ``[i, j]`` is exactly
        ``self.sentence_score(hyps[i], [refs[j]]).score``; with ``effective_order=True``
        that is ``sentence_bleu(hyps[i], [refs[j]]).score``. Each sentence is tokenized
        and counted once. ``progress(done, total)`` is called after each block of
        hypotheses.

        >>> BLEU(effective_order=True).pairwise(["a b c", "x"], ["a b c", "a b", "y"]).round(2)
        array([[100.  ,  55.03,   0.  ],
               [  0.  ,   0.  ,   0.  ]])
        """
        hyp_list = _check_sentences("hyps", hyps)
        ref_list = _check_sentences("refs", refs)
        if not hyp_list or not ref_list:
            return np.zeros((len(hyp_list), len(ref_list)), dtype=np.float64)
        config = self.config
        with explaining_bad_text("hypotheses", [hyp_list]), explaining_bad_text("references", [ref_list]):
            table = _core.Pairwise(
                hyp_list, ref_list, config.tokenize, config.lowercase, config.max_ngram_order, self.threads
            )
        scores = np.zeros((len(hyp_list), len(ref_list)), dtype=np.float64)
        step = max(1, PAIRWISE_ROWS_PER_CALL // max(1, len(ref_list)))
        for start in range(0, len(hyp_list), step):
            stop = min(start + step, len(hyp_list))
            block = score_rows(table.rows(start, stop), config).scores
            scores[start:stop] = block.reshape(stop - start, len(ref_list))
            if progress is not None:
                progress(stop, len(hyp_list))
        return scores

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
