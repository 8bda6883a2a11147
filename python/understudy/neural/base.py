"""What every neural metric shares: checking its inputs, the score cache, blocks of work, and
handing segment scores on as given scores whose signature pins what computed them.

A metric turns each segment into an *item* (the texts its model reads), scores each distinct
item once per call, takes those the cache holds from it, and keeps the rest in it a block at a
time (an interrupted run loses at most one block).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from os import PathLike
from typing import TYPE_CHECKING, Any, ClassVar

from understudy.errors import EmptyInputError, InputError, LengthMismatchError, ModelError
from understudy.metrics.scores import GivenScores, ScoresResult, ScoresStats
from understudy.neural._extra import need
from understudy.neural.cache import ScoreCache, segment_key
from understudy.neural.checkpoints import Checkpoint

if TYPE_CHECKING:
    from understudy.neural.on_dask import DaskRunner

PRECISIONS = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}
CPU_TOKENS = 1600
"""Padded positions a batch holds at most on a CPU: beyond a few sequences a batch gains
nothing there and its padding costs (MetricX-24 large: 16 long inputs at once took 1.5x the
time of batches of this size)."""
Progress = Callable[[int], None]
Item = tuple[str, ...]
References = Sequence[str] | Sequence[Sequence[str]] | None
"""One reference a segment, or sacrebleu's reference streams holding one stream."""


def device_of(device: str) -> str:
    """``auto`` as ``cuda`` where torch sees a GPU, else ``cpu``; a CUDA device asked for and
    absent is an error."""
    if device == "cpu":
        return device  # no torch to import for a score the cache holds
    torch = need("torch")
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ModelError(f"--device {device}: torch sees no CUDA device here (use cpu or auto)")
    if device != "cpu" and not device.startswith("cuda"):
        raise ModelError(f"unknown device {device!r}: auto, cpu, cuda or cuda:N")
    return device


def batches(lengths: Sequence[int], size: int, tokens: int | None = None) -> list[list[int]]:
    """Indices of sequences of ``lengths``, longest first, in batches of at most ``size``
    sequences and, with ``tokens``, at most that many padded positions (a longer sequence
    alone).

    >>> batches([3, 9, 5, 9], 2)
    [[1, 3], [2, 0]]
    >>> batches([3, 9, 5, 9], 4, tokens=18)
    [[1, 3], [2, 0]]
    """
    order = sorted(range(len(lengths)), key=lambda k: -lengths[k])
    out: list[list[int]] = []
    for k in order:
        current = out[-1] if out else None
        full = current is None or len(current) >= size
        if not full and tokens is not None and current is not None:
            full = (len(current) + 1) * lengths[current[0]] > tokens
        if full:
            out.append([k])
        else:
            assert current is not None
            current.append(k)
    return out


def open_cache(cache: ScoreCache | str | PathLike[str] | None) -> ScoreCache | None:
    """``"default"``: understudy's cache; a path: that file; ``None``: no cache."""
    if cache == "default":
        return ScoreCache()
    if isinstance(cache, str | PathLike):
        return ScoreCache(cache)
    return cache


class NeuralMetric:
    """The shared half of a neural metric; a subclass says how items are made and scored."""

    kind: ClassVar[str]
    """The cache's name for the computation (two kinds never share a score)."""
    lower_is_better: ClassVar[bool] = False
    block: ClassVar[int] = 1024
    """Segments computed, then kept in the cache, at a time."""
    unit: ClassVar[str] = "inputs"
    """What ``progress`` counts (texts encoded)."""
    detailed: ClassVar[bool] = False
    """Whether each score comes with details (JSON; xCOMET's error spans), kept beside it."""
    runner: DaskRunner | None = None
    """Where the inputs the cache lacks are computed: here (``None``), or on a Dask cluster."""

    def __init__(
        self,
        checkpoint: Checkpoint,
        *,
        batch_size: int,
        device: str,
        precision: str,
        cache: ScoreCache | str | PathLike[str] | None,
    ) -> None:
        if precision not in PRECISIONS:
            raise ModelError(f"unknown precision {precision!r}: {', '.join(PRECISIONS)}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ModelError(f"batch_size must be a positive whole number, got {batch_size!r}")
        self.checkpoint = checkpoint
        self.batch_size, self.precision = batch_size, precision
        self.requested_device = device
        """The device as asked (``auto``, ``cpu``, ``cuda:1``), for a Dask worker to resolve."""
        self.device = device_of(device)
        """Where the model runs: ``auto`` resolved when the metric is made (a bad device fails now)."""
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

    def computed_by(self) -> dict[str, str]:
        """What the signature pins: the checkpoint, its revision, the precision, a reference, and
        the kind of device that runs the model (``auto`` resolved: ``cpu`` or ``cuda``)."""
        return {
            "model": self.checkpoint.name,
            "revision": self.checkpoint.revision,
            "dtype": self.precision,
            "reference": "yes" if self.uses_reference() else "no",
            "device": self.device.partition(":")[0],
        }

    def batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """The call's batches (:func:`batches`): ``batch_size`` sequences, on a CPU at most
        :data:`CPU_TOKENS` padded positions."""
        return batches(lengths, self.batch_size, CPU_TOKENS if device_of(self.device) == "cpu" else None)

    def dtype(self) -> Any:
        """The torch dtype of the precision."""
        return getattr(need("torch"), PRECISIONS[self.precision])

    def uses_reference(self) -> bool:
        """Whether the scores read a reference."""
        return True

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """What the model reads of one segment."""
        raise NotImplementedError

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

        >>> NeuralMetric.one_stream(None, [["a", "b"]]), NeuralMetric.one_stream(None, ["a", "b"])
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
        """Every system's segment scores as given scores (their signature pins the checkpoint);
        ``refs`` is one string a segment, or sacrebleu's streams holding one (:meth:`one_stream`);
        ``progress`` is called with the amount of work done (texts encoded), batch by batch."""
        refs = self.one_stream(refs)
        count = self.check(systems, refs, sources)
        items = {
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
        if self.runner is not None:
            self.device = self.runner.device(self)  # what the workers run on signs the scores
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
            lower_is_better=self.lower_is_better,
            computed_by=self.computed_by(),
            spans=self.marks() if self.detailed else None,
        )

    def _computed(
        self, missing: list[Item], progress: Progress | None
    ) -> Iterator[tuple[list[Item], list[float], list[str] | None]]:
        """The scores of ``missing`` (and their details, for a detailed metric), a block at a
        time: here, ``block`` at once, or on the cluster of :attr:`runner`, as chunks come back."""
        try:
            if self.runner is not None and missing:
                for chunk, values, notes in self.runner(self, missing):
                    yield chunk, values, notes  # kept by the caller before the progress is told
                    if progress is not None:
                        progress(len(chunk))
                return
            if missing:
                self.begin()
            for start in range(0, len(missing), self.block):
                block = missing[start : start + self.block]
                if self.detailed:
                    yield block, *self.detailed_block(block, progress)
                else:
                    yield block, self.score_block(block, progress), None
        except RuntimeError as err:
            if type(err).__name__ != "OutOfMemoryError":  # torch's, without importing torch
                raise
            raise ModelError(
                f"{self.name}: out of device memory on {self.device} with batches of {self.batch_size}:"
                " lower --batch-size (batch_size=) or use --precision bf16; the scores computed"
                " before are kept in the cache"
            ) from None

    def remote(self) -> tuple[type, dict[str, Any]]:
        """The metric as it travels to a Dask worker: its class and the options that make it
        again there (the checkpoint pinned to this revision; ``device`` as asked, so that
        ``auto`` is each worker's own GPU)."""
        raise ModelError(f"{self.name} does not run on Dask workers")

    def notices(self) -> list[str]:
        """What the last call should tell its user (inputs cut at the model's limit)."""
        if not self.truncated:
            return []
        return [
            f"{self.name}: {self.truncated} input(s) longer than the model's limit were cut at it,"
            " as the reference code cuts them"
        ]

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

    def marks(self) -> dict[str, list[list[tuple[str, str]]]]:
        """The last call's error spans as ``(severity, text)`` by system and segment (a
        ``detailed`` metric's)."""
        raise NotImplementedError

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
