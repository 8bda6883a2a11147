"""What every computed metric shares (the neural metrics, the LLM judges): its inputs checked,
each segment made an *item* (the texts its model or judge reads), each distinct item scored
once a call, those the score cache holds taken from it and the rest kept in it a block at a
time (an interrupted run loses at most one block), and the segment scores handed on as given
scores whose signature pins what computed them.

A subclass says how items are made and scored; its module declares it for the command line
(:mod:`understudy.registry.declarations`).

>>> class Length(ComputedMetric):
...     kind, name = "length", "Length"
...     def computed_by(self): return {"model": "len", "revision": "1", "dtype": "-", "reference": "no"}
...     def item(self, source, hypothesis, reference): return (hypothesis,)
...     def score_block(self, items, progress): return [float(len(i[0])) for i in items]
>>> Length(cache=None).sentence_scores(["a", "abc"], None)
[1.0, 3.0]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from os import PathLike
from typing import TYPE_CHECKING, Any, ClassVar

from understudy.computed.cache import ScoreCache, segment_key
from understudy.errors import ConfigError, EmptyInputError, InputError, LengthMismatchError
from understudy.metrics.scores import GivenScores, ScoresResult, ScoresStats

Progress = Callable[[int], None]
Item = tuple[str, ...]
Blocks = Iterator[tuple[list[Item], list[float], list[str] | None]]
"""Blocks of items with their scores and, for a detailed metric, their details."""
References = Sequence[str] | Sequence[Sequence[str]] | None
"""One reference a segment, or sacrebleu's reference streams holding one stream."""

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


def open_cache(cache: ScoreCache | str | PathLike[str] | None) -> ScoreCache | None:
    """``"default"``: understudy's cache; a path: that file; ``None``: no cache."""
    if cache == "default":
        return ScoreCache()
    if isinstance(cache, str | PathLike):
        return ScoreCache(cache)
    return cache


class ComputedMetric:
    """The shared half of a computed metric; a subclass says how items are made and scored."""

    kind: ClassVar[str]
    """The cache's name for the computation (two kinds never share a score)."""
    higher_is_better: ClassVar[bool] = True
    """Whether a higher score is better (MetricX's: no)."""
    block: ClassVar[int] = 1024
    """Segments computed, then kept in the cache, at a time."""
    unit: ClassVar[str] = "inputs"
    """What ``progress`` counts (texts encoded, segments judged)."""
    detailed: ClassVar[bool] = False
    """Whether each score comes with details (JSON; error spans), kept beside it."""

    def __init__(self, *, cache: ScoreCache | str | PathLike[str] | None) -> None:
        self.cache = open_cache(cache)
        """Where scores are kept between runs (``None``: nowhere)."""
        self.truncated = 0
        """How many inputs the last call cut at the model's limit."""
        self.computed = 0
        """How many segments the last call computed (the others came from the cache)."""
        self.details: dict[str, list[str]] = {}
        """The last call's details of each system's segments, for a metric that gives them."""

    @property
    def name(self) -> str:
        """The metric's name as results print it."""
        raise NotImplementedError

    @property
    def title(self) -> str:
        """The metric's name in prose: its :attr:`name`."""
        return self.name

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower score is better: not :attr:`higher_is_better` (read only)."""
        return not self.higher_is_better

    def inputs(self) -> tuple[str, ...]:
        """What it reads of each segment: the source, the hypothesis and, where its scores
        would depend on one (:meth:`reads_references`), the reference."""
        return ("source", "hypothesis", "reference") if self.reads_references() else ("source", "hypothesis")

    def statistics(
        self,
        systems: Mapping[str, Sequence[str]],
        references: Sequence[Sequence[str]] | None,
        sources: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> list[ScoresStats]:
        """Each system's segment scores as statistics, in ``systems``' order
        (:meth:`system_scores`), against the first of the reference streams (``None``: none)."""
        first = None if references is None else references[0]
        scores = self.system_scores(systems, first, sources, progress=progress)
        return scores.segment_stats_many(list(systems))

    def utilities(
        self,
        candidates: Sequence[Sequence[str]],
        pseudo_references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> Iterator[NDArray[np.float64]]:
        """Each source's utility matrix, every source's pairs scored in one call: each distinct
        sentence is embedded once and batched by length across the sources."""
        import numpy as np

        pairs = [
            (k, h, r)
            for k, (listed, pseudo) in enumerate(zip(candidates, pseudo_references, strict=True))
            for h in listed
            for r in pseudo
        ]
        given = self.system_scores(
            {"pairs": [h for _, h, _ in pairs]},
            [r for _, _, r in pairs],
            None if sources is None else [sources[k] for k, _, _ in pairs],
        )
        scores = np.asarray(given.segment_stats("pairs").sentence_scores(), dtype=np.float64)
        start = 0
        for listed, pseudo in zip(candidates, pseudo_references, strict=True):
            size = len(listed) * len(pseudo)
            yield scores[start : start + size].reshape(len(listed), len(pseudo))
            start += size

    def aggregate(self, hyps: Sequence[str], refs: Sequence[str]) -> NDArray[np.float64]:
        """Refused: reference aggregation is for BLEU and chrF."""
        raise ConfigError(f"{self.name} has no reference aggregation: it is for BLEU and chrF")

    @contextmanager
    def running_on(self, runner: Any) -> Iterator[bool]:
        """Runs here: a metric whose work a cluster can do (a neural metric's) says otherwise."""
        yield False

    def computed_by(self) -> dict[str, str]:
        """What the signature pins: ``model``, ``revision``, ``dtype``, ``reference`` (and, for a
        model, the kind of ``device``)."""
        raise NotImplementedError

    def uses_reference(self) -> bool:
        """Whether the scores read a reference."""
        return True

    def reads_references(self) -> bool:
        """Whether its scores would depend on references given to it: MBR needs
        pseudo-references for such a metric; one that reads none reranks by its own score."""
        return True

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """What the model reads of one segment."""
        raise NotImplementedError

    def prepare(self) -> None:
        """Settle, before a call's items are looked up, whatever the cache key depends on."""

    def begin(self) -> None:
        """Ready the model for a call's blocks (read it on first use)."""

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        """The scores of a block of distinct items."""
        raise NotImplementedError

    def detailed_block(self, items: list[Item], progress: Progress | None) -> tuple[list[float], list[str]]:
        """The scores of a block of distinct items and their details (a ``detailed`` metric's)."""
        raise NotImplementedError

    def one_stream(self, refs: References) -> Sequence[str] | None:
        """The references as one string a segment: a flat list as it is, or sacrebleu's streams
        (``[refs]``, as every other metric object takes them) holding one stream. The reference
        code scores against one reference: several streams are refused, saying so.

        >>> ComputedMetric.one_stream(None, [["a", "b"]]), ComputedMetric.one_stream(None, ["a", "b"])
        (['a', 'b'], ['a', 'b'])
        """
        if refs is None or isinstance(refs, str) or all(isinstance(r, str) for r in refs):
            return refs  # type: ignore[return-value]
        streams = list(refs)
        if len(streams) != 1:
            raise InputError(
                f"{len(streams)} reference streams: this metric reads one reference a segment, as its"
                " reference code does (score each stream apart, or give one: [refs] or refs)"
            )
        return streams[0]

    def check(
        self, systems: Mapping[str, Sequence[str]], refs: Sequence[str] | None, sources: Sequence[str] | None
    ) -> int:
        """The number of segments, after checking every input has as many, as strings."""
        named: list[tuple[str, Sequence[str] | None]] = [("references", refs), ("sources", sources)]
        named += [(f"hypotheses of {system!r}", hyps) for system, hyps in systems.items()]
        for what, texts in named:
            if texts is not None and (isinstance(texts, str) or not all(isinstance(t, str) for t in texts)):
                raise InputError(f"{what}: expected a sequence of strings, one a segment")
        if not systems:
            raise EmptyInputError("nothing to score: no systems")
        lengths = {what: len(texts) for what, texts in named if texts is not None}
        if len(set(lengths.values())) > 1:
            raise LengthMismatchError(
                "the inputs differ in length: " + ", ".join(f"{n} {what}" for what, n in lengths.items())
            )
        count = next(iter(lengths.values()))
        if count == 0:
            raise EmptyInputError("nothing to score: no segments")
        return count

    def system_scores(
        self,
        systems: Mapping[str, Sequence[str]],
        refs: References,
        sources: Sequence[str] | None,
        progress: Progress | None = None,
    ) -> GivenScores:
        """Every system's segment scores as given scores (their signature pins what computed them);
        ``refs`` is one string a segment, or sacrebleu's streams holding one (:meth:`one_stream`);
        ``progress`` is called with the amount of work done (:attr:`unit`), batch by batch."""
        items = self.items_of(systems, refs, sources)
        self.prepare()
        distinct = list(dict.fromkeys(i for per in items.values() for i in per))
        keys = {i: self.cache_key(i) for i in distinct}
        scores, details = self._cached(list(keys.values()))
        missing = [i for i in distinct if keys[i] not in scores]
        self.computed, self.truncated = len(missing), 0
        for block, values, notes in self._computed(missing, progress):
            if notes is not None:
                details |= {keys[i]: note for i, note in zip(block, notes, strict=True)}
            computed = {keys[i]: s for i, s in zip(block, values, strict=True)}
            self.keep(computed, details)
            scores |= computed
        table = {system: [scores[keys[i]] for i in per] for system, per in items.items()}
        if self.detailed:
            self.details = {system: [details[keys[i]] for i in per] for system, per in items.items()}
        return GivenScores(
            table,
            self.name,
            lower_is_better=not self.higher_is_better,
            computed_by=self.computed_by(),
            spans=self.marks(),
        )

    def items_of(
        self, systems: Mapping[str, Sequence[str]], refs: References, sources: Sequence[str] | None
    ) -> dict[str, list[Item]]:
        """Each system's segments as items (:meth:`item`), the inputs checked first; a metric
        that reads several references a segment (BERTScore) says how it takes them."""
        refs = self.one_stream(refs)
        count = self.check(systems, refs, sources)
        return {
            system: [
                self.item(
                    sources[k] if sources is not None else None,
                    hyps[k],
                    refs[k] if refs is not None else None,
                )
                for k in range(count)
            ]
            for system, hyps in systems.items()
        }

    def _computed(self, missing: list[Item], progress: Progress | None) -> Blocks:
        """The scores of ``missing`` (and their details, for a detailed metric), ``block`` at a time."""
        if missing:
            self.begin()
        for start in range(0, len(missing), self.block):
            block = missing[start : start + self.block]
            if self.detailed:
                yield block, *self.detailed_block(block, progress)
            else:
                yield block, self.score_block(block, progress), None

    def notices(self) -> list[str]:
        """What the last call should tell its user (inputs cut at the model's limit)."""
        if not self.truncated:
            return []
        return [
            f"{self.name}: {self.truncated} input(s) longer than the model's limit were cut at it,"
            " as the reference code cuts them"
        ]

    def write_details(self, path: str | PathLike[str], scores: GivenScores) -> None:
        """The last call's details (a detailed metric's error spans) as JSON lines, one a segment
        of each system (``system``, ``segment``, ``score``, ``spans``), written atomically;
        ``scores`` is what the call returned."""
        import json

        from understudy.files.atomic import atomic_write

        with atomic_write(path) as out:
            for system, per in self.details.items():
                values = scores.sentence_scores(system).tolist()
                for k, (detail, value) in enumerate(zip(per, values, strict=True), start=1):
                    line = {"system": system, "segment": k, "score": value, "spans": json.loads(detail)}
                    out.write((json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8"))

    def status(self) -> str:
        """What a progress bar shows beside the count while the call runs (a judge: requests
        a second and failures so far)."""
        return ""

    def cache_key(self, item: Item) -> bytes:
        """The cache's key of an item's score: what computed it (:meth:`computed_by`) and the texts."""
        return segment_key("|".join((self.kind, *self.computed_by().values())), item)

    def keep(self, scores: Mapping[bytes, float], details: Mapping[bytes, str]) -> None:
        """Keep ``scores`` (with their ``details``, for a detailed metric) in the cache, in one
        transaction; a failed segment's NaN is not kept, so that a re-run asks again."""
        if self.cache is None:
            return
        kept = {key: value for key, value in scores.items() if math.isfinite(value)}
        self.cache.put_many(kept, {key: details[key] for key in kept} if self.detailed else None)

    def marks(self) -> dict[str, list[list[tuple[str, str]]]] | None:
        """The last call's error spans as ``(severity, text)`` by system and segment, for a
        metric that marks errors (``None``: one whose details are not spans, as BERTScore's)."""
        return None

    def _cached(self, keys: list[bytes]) -> tuple[dict[bytes, float], dict[bytes, str]]:
        """What the cache holds of ``keys``: scores, and their details for a detailed metric (a
        score kept without them counts as absent)."""
        if self.cache is None:
            return {}, {}
        scores = self.cache.get_many(keys)
        if not self.detailed:
            return scores, {}
        details = self.cache.get_details(scores)
        return {k: v for k, v in scores.items() if k in details}, details

    def sentence_scores(
        self, hyps: Sequence[str], refs: References, *, sources: Sequence[str] | None = None
    ) -> list[float]:
        """One score per segment, as the reference code gives them."""
        scores: list[float] = (
            self.system_scores({"system": hyps}, refs, sources).sentence_scores("system").tolist()
        )
        return scores

    def segment_stats(
        self, hyps: Sequence[str], refs: References, *, sources: Sequence[str] | None = None
    ) -> ScoresStats:
        """The segments' statistics (given-score rows), for significance tests and totals."""
        return self.system_scores({"system": hyps}, refs, sources).segment_stats("system")

    def corpus_score(
        self, hyps: Sequence[str], refs: References, *, sources: Sequence[str] | None = None
    ) -> ScoresResult:
        """The system score: the mean of the segment scores, as the reference code's."""
        return self.segment_stats(hyps, refs, sources=sources).score()
