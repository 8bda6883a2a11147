"""What every metric object does, once: checking inputs, caching references, scoring many systems.

A metric object (:class:`~understudy.BLEU`, :class:`~understudy.CHRF`,
:class:`~understudy.TER`) holds a frozen configuration and one compiled scorer of
the Rust core for it (``_core.families.Scorer(family, config)``: the family's configuration
given once, by name, references cached inside). This base class turns text into
:class:`~understudy.stats.Stats` through that scorer; the subclasses only say their
configuration and statistics types, and how the core's rows become one row per
segment (chrF keeps the best reference's row, which takes its scoring function).

References are laid out as sacrebleu lays them out: a list of reference *streams*,
each as long as the hypotheses; ``refs[k][i]`` is the k-th reference of segment i.
``None`` in a stream means "no k-th reference for this segment"; ``''`` is an empty one.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Generic, Protocol, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.accumulator import Accumulator
from understudy.config import MetricConfig
from understudy.errors import (
    ConfigError,
    EmptyInputError,
    InputError,
    InputTypeError,
    LengthMismatchError,
    NoReferenceError,
)
from understudy.inputs.tokens import (
    Hyps,
    Refs,
    RefStreams,
    TokenSegment,
    TokenWriter,
    id_batch,
    is_segment,
    is_tokens,
    refs_are_tokens,
)
from understudy.result import Result
from understudy.stats import Stats
from understudy.text.bad_text import explaining_bad_text
from understudy.threads import resolve_threads
from understudy.wording import counted

"""Reference streams: ``refs[k][i]`` is the k-th reference of segment i (``None``: none)."""

PAIRWISE_CELLS_PER_CALL = 1 << 18
"""All-pairs cells scored per call: bounds memory (a few hundred bytes a cell at most)."""

S = TypeVar("S", bound=Stats[Any, Any])
R = TypeVar("R", bound=Result)
T = TypeVar("T", str, str | None)
M = TypeVar("M", bound="Metric[Any, Any]")


def memory_bytes() -> int | None:
    """This machine's physical memory, where the OS says."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def _check_fits(n_hyps: int, n_refs: int) -> None:
    # The matrix is float64; refuse up front what cannot fit, rather than fail half-way.
    needed, available = 8 * n_hyps * n_refs, memory_bytes()
    if available is not None and needed > available:
        raise InputError(
            f"a {n_hyps} x {n_refs} matrix needs {needed / 2**30:.1f} GiB, more than this machine's "
            f"{available / 2**30:.1f} GiB: score it a block of hypotheses at a time"
        )


class _Pairs(Protocol):
    def rows(self, start: int, stop: int) -> NDArray[np.int64]: ...
    def aggregate_rows(self) -> NDArray[np.int64] | None: ...


class _Scorer(Protocol):
    def add_references(self, streams: list[list[str | None]]) -> None: ...
    def refs_per_segment(self) -> NDArray[np.int64]: ...
    def stats_many(self, systems: list[list[str]]) -> NDArray[np.int64]: ...
    def sentence_stats(
        self, hyps: list[str], streams: list[list[str | None]]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...
    def pairwise(self, hyps: list[str], refs: list[str]) -> _Pairs: ...
    def __len__(self) -> int: ...


class _Preparing(ABC):
    """A scorer whose every text is prepared first (:meth:`prepare`) and then given to ``inner``:
    Unicode normalisation, a Python library's tokenizer (MeCab, SentencePiece)."""

    def __init__(self, inner: _Scorer) -> None:
        self._inner = inner

    @abstractmethod
    def prepare(self, lines: list[T]) -> list[T]:
        """``lines`` as ``inner`` is to see them (``None``, a missing reference, stays ``None``)."""

    def add_references(self, streams: list[list[str | None]]) -> None:
        self._inner.add_references([self.prepare(stream) for stream in streams])

    def refs_per_segment(self) -> NDArray[np.int64]:
        return self._inner.refs_per_segment()

    def stats_many(self, systems: list[list[str]]) -> NDArray[np.int64]:
        return self._inner.stats_many([self.prepare(hyps) for hyps in systems])

    def sentence_stats(
        self, hyps: list[str], streams: list[list[str | None]]
    ) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        return self._inner.sentence_stats(self.prepare(hyps), [self.prepare(stream) for stream in streams])

    def pairwise(self, hyps: list[str], refs: list[str]) -> _Pairs:
        return self._inner.pairwise(self.prepare(hyps), self.prepare(refs))

    def __len__(self) -> int:
        return len(self._inner)


class _Normalizing(_Preparing):
    """A scorer given its text in a Unicode normalisation form first (before any tokenizer)."""

    def __init__(self, inner: _Scorer, form: str) -> None:
        super().__init__(inner)
        self._form = form

    def prepare(self, lines: list[T]) -> list[T]:
        return _core.text.normalize(lines, self._form)


def check_sentences(name: str, sentences: Sequence[str]) -> list[str]:
    """``sentences`` as a list, or a ``TypeError`` naming what was given instead."""
    # Elements are checked by the core (see understudy.text.bad_text): a loop here would cost
    # more than scoring.
    if isinstance(sentences, str) or not isinstance(sentences, Sequence):
        what = "a single string" if isinstance(sentences, str) else f"a {type(sentences).__name__}"
        hint = " (an iterator is read once: pass list(...))" if isinstance(sentences, Iterator) else ""
        raise InputTypeError(f"{name} must be a sequence (a list) of strings, not {what}{hint}")
    return list(sentences)


def check_hyps(hyps: Sequence[str]) -> list[str]:
    """Hypotheses as a non-empty list."""
    checked = check_sentences("hyps", hyps)
    if not checked:
        raise EmptyInputError("no hypotheses to score")
    return checked


def check_refs(refs: RefStreams, n_segments: int | None) -> list[list[str | None]]:
    """Reference streams as lists, each ``n_segments`` long (or as long as the first)."""
    if isinstance(refs, str) or not isinstance(refs, Sequence):
        raise InputTypeError("refs must be a list of reference streams, each a list of strings")
    if not refs:
        raise EmptyInputError("no reference streams given")
    streams = []
    for k, stream in enumerate(refs):
        if isinstance(stream, str) or not isinstance(stream, Sequence):
            raise InputTypeError(
                f"reference stream {k + 1} is {type(stream).__name__}; refs must be a list of "
                "streams (refs[k][i] is the k-th reference of segment i)"
            )
        expected = len(refs[0]) if n_segments is None else n_segments
        if len(stream) != expected:
            first = "the first reference stream" if n_segments is None else "the hypotheses"
            raise LengthMismatchError(
                f"{first} has {counted(expected, 'segment')} but reference stream {k + 1} has {len(stream)}"
            )
        streams.append(list(stream))
    return streams


class Metric(ABC, Generic[S, R]):
    """A metric with a fixed configuration and, optionally, cached references: ``S`` its
    statistics, ``R`` its result (what ``corpus_score`` and ``sentence_score`` return).

    ``threads`` is the number of cores the Rust core uses (default:
    ``$UNDERSTUDY_THREADS``, else every core); results never depend on it.
    """

    config: MetricConfig
    config_type: type[MetricConfig]
    stats_type: type[S]

    def _setup(self, config: MetricConfig, references: Refs | None, threads: int | None) -> None:
        self.config = config
        self.threads = resolve_threads(threads)
        self._references: list[list[str | None]] | None = None
        self._cache: _Scorer | None = None
        self._tokens: tuple[Metric[S, R], TokenWriter] | None = None
        self._token_refs: Refs | None = None
        if references is not None and refs_are_tokens(references):
            self._token_refs = references
            metric, writer = self._for_tokens(False)
            self._tokens = (
                type(self).from_config(metric.config, writer.streams(references), self.threads),
                writer,
            )
        elif references is not None:
            streams = check_refs(cast(RefStreams, references), None)  # text: checked as such
            if not streams[0]:
                raise EmptyInputError("the reference streams have no segments")
            self._cache = self._scorer_with(streams)
            self._references = streams

    def _for_tokens(self, uses_cache: bool) -> tuple[Metric[S, R], TokenWriter]:
        """The metric object that scores this one's token input (the configuration's
        :meth:`~understudy.config.MetricConfig.for_tokens`), with the writer of tokens as words;
        ``uses_cache``: the tokens are to be scored against the cached references."""
        if self._tokens is None:
            if uses_cache and self._cache is not None:
                raise InputTypeError(
                    "the hypotheses are tokens but this metric's references are text: give both the same way"
                )
            config, writer = self.config.for_tokens()
            self._tokens = (type(self).from_config(config, threads=self.threads), writer)
        return self._tokens

    def _route(self, hyps: Any, refs: Any) -> tuple[Metric[S, R], Any, Any]:
        """Where ``hyps`` against ``refs`` (``None``: the cached ones) are scored: here when
        they are text, else by the token metric (:meth:`_for_tokens`), written as words."""
        if not is_tokens(hyps):
            if (refs is None and self._token_refs is not None) or (
                refs is not None and refs_are_tokens(refs)
            ):
                raise InputTypeError(
                    "the references are tokens but the hypotheses are text: give both the same way"
                )
            return self, hyps, refs
        if refs is not None and not refs_are_tokens(refs):
            raise InputTypeError(
                "the hypotheses are tokens but the references are text: give both the same way"
            )
        metric, writer = self._for_tokens(refs is None)
        return metric, writer.lines(hyps, "hyps"), None if refs is None else writer.streams(refs)

    def _scorer(self) -> _Scorer:
        """A new scorer for this configuration (no references): the core's, given the text in
        the configuration's Unicode normalisation."""
        core = self._core_scorer()
        form = getattr(self.config, "normalize_unicode", "none")
        return core if form == "none" else _Normalizing(core, form)

    def _core_scorer(self) -> _Scorer:
        """A new compiled scorer of the core for this configuration."""
        family = self.config.core_family or self.config.metric
        return _core.families.Scorer(family, self.config.core_config(), self.threads)

    def _select(
        self, rows: NDArray[np.int64], refs_per_segment: NDArray[np.int64], n_systems: int
    ) -> NDArray[np.int64]:
        """The core's rows (segment-major, then system) as ``(segments, systems, width)``."""
        return rows.reshape(len(refs_per_segment), n_systems, self.config.row_width)

    @classmethod
    def from_config(
        cls: type[M], config: MetricConfig, references: Refs | None = None, threads: int | None = None
    ) -> M:
        """The metric object of ``config`` (of this class's metric).

        >>> from understudy import CHRF, CHRFConfig
        >>> CHRF.from_config(CHRFConfig(word_order=2)).config.name
        'chrF2++'
        """
        if not isinstance(config, MetricConfig) or config.metric != cls.stats_type.metric:
            raise ConfigError(f"{cls.__name__} cannot take {type(config).__name__}")
        metric = cls.__new__(cls)
        metric._setup(config, references, threads)
        return metric

    @classmethod
    def from_options(
        cls: type[M], fields: dict[str, Any], *, trg_lang: str = "", threads: int | None = None
    ) -> M:
        """The metric object of command-line ``fields`` (see :meth:`MetricConfig.field_values`);
        ``trg_lang`` is for families whose defaults follow the target language.

        >>> from understudy import CHRF
        >>> CHRF.from_options({"word_order": 2}).config.name
        'chrF2++'
        """
        del trg_lang  # no default of this family follows the language
        return cls.from_config(cls.config_type(**fields), threads=threads)

    def _check_sizes(self, what: str, streams: Sequence[Sequence[str | None]]) -> None:
        """Refuse sentences too long for this metric's memory bounds (none by default)."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled by configuration (and the references, when cached): the compiled
        # scorer is rebuilt on the other side.
        references = self._references if self._token_refs is None else self._token_refs
        return (type(self).from_config, (self.config, references, self.threads))

    def _once(self) -> _Scorer:
        """The scorer of references used once (its sentence statistics keep nothing), built on
        first use: a call on a sentence or two then costs no new compiled scorer."""
        once: _Scorer | None = self.__dict__.get("_once_scorer")
        if once is None:
            once = self.__dict__["_once_scorer"] = self._scorer()
        return once

    def _scorer_with(self, streams: list[list[str | None]]) -> _Scorer:
        self._check_sizes("references", streams)
        scorer = self._scorer()
        with explaining_bad_text("references", streams, allow_none=True):
            scorer.add_references(streams)
        return scorer

    def _cached(self, n_segments: int) -> _Scorer:
        if self._cache is None:
            raise NoReferenceError(
                f"no refs given and this {type(self).__name__} was built without references="
            )
        if len(self._cache) != n_segments:
            raise LengthMismatchError(
                f"the hypotheses have {counted(n_segments, 'segment')}"
                f" but the references have {len(self._cache)}"
            )
        return self._cache

    def _stats(self, rows: NDArray[np.int64], refs_per_segment: NDArray[np.int64]) -> S:
        return self.stats_type(rows, refs_per_segment, self.config)

    def segment_stats(self, hyps: Hyps, refs: Refs | None = None) -> S:
        """Per-segment sufficient statistics of ``hyps`` against ``refs`` (or the cached ones).

        Text or tokens (see :mod:`understudy.inputs.tokens`): a token list per segment, or token ids.

        >>> from understudy import BLEU
        >>> BLEU().segment_stats([[5, 6, 7, 8]], [[[5, 6, 7, 8]]]).rows.tolist()  # lengths, matches, totals
        [[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]]
        """
        fast = self._id_stats(hyps, refs) if refs is not None else None
        if fast is not None:
            return fast
        metric, texts, given = self._route(hyps, refs)
        if metric is not self:
            return metric.segment_stats(texts, given)
        checked = check_hyps(texts)
        if given is None:
            return self.segment_stats_many([checked])[0]
        # References used once: not cached.
        streams = check_refs(given, len(checked))
        self._check_sizes("hypotheses", [checked])
        self._check_sizes("references", streams)
        scorer = self._once()
        with explaining_bad_text("hypotheses", [checked]), explaining_bad_text("references", streams, True):
            rows, refs_per_segment = scorer.sentence_stats(checked, streams)
        return self._stats(self._select(rows, refs_per_segment, 1)[:, 0, :], refs_per_segment)

    def _id_stats(self, hyps: Hyps, refs: Refs) -> S | None:
        """Token ids against references used once, straight to the core (no lines made in
        Python): the reward of a batch in a training loop. ``None`` where this does not apply
        (text, string tokens, missing references, a scorer that prepares its text, a family that
        bounds sentence sizes); the general path then scores them, or says what is wrong."""
        if not (is_tokens(hyps) and refs_are_tokens(refs)):
            return None
        flat, streams = id_batch(hyps), [id_batch(stream) for stream in refs]
        if (
            flat is None
            or len(flat[1]) < 2
            or not streams
            or any(s is None or len(s[1]) != len(flat[1]) for s in streams)
        ):
            return None
        metric = self._for_tokens(False)[0]
        scorer = metric._once()
        if type(metric)._check_sizes is not Metric._check_sizes or not isinstance(
            scorer, _core.families.Scorer
        ):
            return None
        rows, refs_per_segment = scorer.sentence_stats_ids(*flat, [s for s in streams if s is not None])
        return metric._stats(metric._select(rows, refs_per_segment, 1)[:, 0, :], refs_per_segment)

    def segment_stats_many(self, systems: Sequence[Hyps], refs: Refs | None = None) -> list[S]:
        """:meth:`segment_stats` of several systems at once, faster than one by one.

        Each segment's references are loaded once for all systems, so scoring many
        systems (or checkpoints) against one test set costs little more than reading them.
        """
        if isinstance(systems, str) or not isinstance(systems, Sequence) or not systems:
            raise InputTypeError("systems must be a non-empty sequence of hypothesis lists")
        metric, first, given = self._route(systems[0], refs)
        if metric is not self:
            writer = self._for_tokens(given is None)[1]
            written = [first] + [
                writer.lines(hyps, f"system {k} hyps") for k, hyps in enumerate(systems[1:], 2)
            ]
            return metric.segment_stats_many(written, given)
        checked = [check_hyps(cast(Sequence[str], hyps)) for hyps in systems]
        for k, hyps in enumerate(checked[1:], 2):
            if len(hyps) != len(checked[0]):
                raise LengthMismatchError(
                    f"system 1 has {counted(len(checked[0]), 'segment')} but system {k} has {len(hyps)}"
                )
        if given is None:
            scorer = self._cached(len(checked[0]))
        else:
            scorer = self._scorer_with(check_refs(given, len(checked[0])))
        self._check_sizes("hypotheses", checked)
        with explaining_bad_text("hypotheses", checked):
            rows = scorer.stats_many(checked)
        refs_per_segment = scorer.refs_per_segment()
        per_system = self._select(rows, refs_per_segment, len(checked))
        return [self._stats(per_system[:, k, :], refs_per_segment) for k in range(len(checked))]

    def corpus_score(self, hyps: Hyps, refs: Refs | None = None) -> R:
        """The corpus score of ``hyps`` against ``refs`` (or the cached references)."""
        result: R = self.segment_stats(hyps, refs).score()
        return result

    def corpus_scores(self, systems: Sequence[Hyps], refs: Refs | None = None) -> list[R]:
        """The corpus score of each system: ``[corpus_score(hyps) for hyps in systems]``, faster."""
        results: list[R] = [stats.score() for stats in self.segment_stats_many(systems, refs)]
        return results

    def sentence_scores(self, hyps: Hyps, refs: Refs | None = None) -> NDArray[np.float64]:
        """The sentence score of every segment at once (references cached when ``refs`` is omitted)."""
        return self.segment_stats(hyps, refs).sentence_scores()

    def sentence_score(self, hyp: str | TokenSegment, refs: Sequence[str | TokenSegment | None]) -> R:
        """The score of one hypothesis against its references (a list of strings, or of token lists)."""
        if not isinstance(hyp, str) and not is_segment(hyp):
            raise InputTypeError(f"hyp must be a string or a list of tokens, not {type(hyp).__name__}")
        if isinstance(refs, str) or not isinstance(refs, Sequence):
            raise InputTypeError("refs must be a list of reference strings for this one hypothesis")
        return self.corpus_score([hyp], [[ref] for ref in refs])

    @property
    def name(self) -> str:
        """The name its scores print under (``BLEU``, ``chrF2++``, ``TER``)."""
        return self.config.name

    @property
    def title(self) -> str:
        """The family's name (``chrF`` for chrF++ too)."""
        return self.config.title

    @property
    def higher_is_better(self) -> bool:
        """Whether a higher score is better (TER, WER: no)."""
        return self.config.higher_is_better

    def inputs(self) -> tuple[str, ...]:
        """What it reads of each segment: the hypothesis and its references."""
        return ("hypothesis", "reference")

    def statistics(
        self,
        systems: Mapping[str, Sequence[str]],
        references: Refs | None,
        sources: Sequence[str] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[S]:
        """Each system's statistics, in ``systems``' order (:meth:`segment_stats_many`); the
        sources are not read (the protocol of :mod:`understudy.metrics.protocol`)."""
        return self.segment_stats_many(list(systems.values()), references)

    def utilities(
        self,
        candidates: Sequence[Sequence[str]],
        pseudo_references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> Iterator[NDArray[np.float64]]:
        """Each source's :meth:`pairwise` matrix of its candidates against its pseudo-references,
        one source at a time (MBR's utilities)."""
        for hyps, refs in zip(candidates, pseudo_references, strict=True):
            yield self.pairwise(list(hyps), list(refs))

    @contextmanager
    def running_on(self, runner: Any) -> Iterator[bool]:
        """A text metric runs here (a cluster scores text through :mod:`understudy.execution.dask`)."""
        yield False

    def accumulator(self) -> Accumulator:
        """A running total of this metric's statistics for training and evaluation loops
        (see :mod:`understudy.accumulator`)."""
        return Accumulator(self)

    def pairwise(
        self,
        hyps: Hyps,
        refs: Hyps,
        progress: Callable[[int, int], None] | None = None,
    ) -> NDArray[np.float64]:
        """The sentence score of every hypothesis against every reference, as its only reference.

        Returns a ``(len(hyps), len(refs))`` array whose cell ``[i, j]`` is exactly
        ``self.sentence_score(hyps[i], [refs[j]]).score``: the matrix of
        minimum-Bayes-risk decoding. Each sentence is prepared once.
        ``progress(done, total)`` is called after each block of hypotheses.
        """
        if is_tokens(hyps) or is_tokens(refs):
            metric, writer = self._for_tokens(False)
            return metric.pairwise(writer.lines(hyps, "hyps"), writer.lines(refs, "refs"), progress)
        hyp_list = check_sentences("hyps", cast(Sequence[str], hyps))
        ref_list = check_sentences("refs", cast(Sequence[str], refs))
        if not hyp_list or not ref_list:
            return np.zeros((len(hyp_list), len(ref_list)), dtype=np.float64)
        _check_fits(len(hyp_list), len(ref_list))
        table = self._pairs(hyp_list, ref_list)
        scorer = self._row_scorer()
        scores = np.zeros((len(hyp_list), len(ref_list)), dtype=np.float64)
        step = max(1, PAIRWISE_CELLS_PER_CALL // len(ref_list))
        for start in range(0, len(hyp_list), step):
            stop = min(start + step, len(hyp_list))
            block = scorer.scores_of(table.rows(start, stop))
            scores[start:stop] = block.reshape(stop - start, len(ref_list))
            if progress is not None:
                progress(stop, len(hyp_list))
        return scores

    def aggregate(self, hyps: Hyps, refs: Hyps) -> NDArray[np.float64]:
        """The sentence score of each hypothesis against all ``refs`` aggregated into one:
        the mean of their n-gram counts and lengths (reference aggregation, DeNero et al.
        2009; Vamvas and Sennrich 2024), as fastchrf's ``aggregate_chrf`` and mbrs'
        ``aggregate_mbr`` compute it. BLEU and chrF have it; other families refuse.

        >>> from understudy import CHRF
        >>> CHRF().aggregate(["abc", "xyz"], ["abc", "abd"]).round(2)  # fastchrf: 69.44, 0.0
        array([69.44,  0.  ])
        """
        if is_tokens(hyps) or is_tokens(refs):
            metric, writer = self._for_tokens(False)
            return metric.aggregate(writer.lines(hyps, "hyps"), writer.lines(refs, "refs"))
        hyp_list = check_sentences("hyps", cast(Sequence[str], hyps))
        ref_list = check_sentences("refs", cast(Sequence[str], refs))
        if not ref_list:
            raise EmptyInputError("reference aggregation needs at least one reference")
        scorer = self._row_scorer()
        rows = self._pairs(hyp_list, ref_list).aggregate_rows() if hyp_list else None
        if rows is None:  # a family without aggregated statistics refuses here
            return np.asarray(scorer.scores_of_means(np.zeros((0, self.config.row_width))), dtype=np.float64)
        # The core multiplies every column by the number of references to keep counts whole.
        return np.asarray(scorer.scores_of_means(rows / len(ref_list)), dtype=np.float64)

    def _pairs(self, hyp_list: list[str], ref_list: list[str]) -> _Pairs:
        """The core's all-pairs table of checked sentences."""
        self._check_sizes("hypotheses", [hyp_list])
        self._check_sizes("references", [ref_list])
        with explaining_bad_text("hypotheses", [hyp_list]), explaining_bad_text("references", [ref_list]):
            return self._scorer().pairwise(hyp_list, ref_list)

    def _row_scorer(self) -> S:
        """A statistics object of no segments: the home of this family's arithmetic on rows."""
        empty = np.zeros((0, self.config.row_width), dtype=np.int64)
        return self.stats_type(empty, np.zeros(0, dtype=np.int64), self.config)
