"""COMET's regression metric (``Unbabel/wmt22-comet-da`` by default) as a metric object.

Scores are the reference code's (unbabel-comet's Python ``predict`` in fp32) on transformers'
XLM-R; the work is shared: every distinct source, reference and hypothesis text is embedded
once per call, however many systems hold it, and each distinct (source, hypothesis,
reference) triple is estimated once.

>>> metric = COMET("tests/fixtures/none")  # doctest: +SKIP
>>> metric.corpus_score(["Hallo Welt."], ["Hallo, Welt!"], sources=["Hello world."]).score  # doctest: +SKIP
0.8412
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from os import PathLike
from typing import Any

import numpy as np

from understudy.errors import EmptyInputError, InputError, LengthMismatchError, ModelError
from understudy.metrics.scores import GivenScores, ScoresResult, ScoresStats
from understudy.neural._extra import need
from understudy.neural.cache import ScoreCache, segment_key
from understudy.neural.checkpoints import Checkpoint, locate
from understudy.neural.comet_model import WEIGHTS, RegressionModel

DEFAULT_MODEL = "Unbabel/wmt22-comet-da"
PRECISIONS = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}
Progress = Callable[[int], None]
BLOCK = 1024
"""Segments computed, then kept in the cache, at a time."""


def device_of(device: str) -> str:
    """``auto`` as ``cuda`` where torch sees a GPU, else ``cpu``; a CUDA device asked for and
    absent is an error."""
    torch = need("torch")
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ModelError(f"--device {device}: torch sees no CUDA device here (use cpu or auto)")
    if device != "cpu" and not device.startswith("cuda"):
        raise ModelError(f"unknown device {device!r}: auto, cpu, cuda or cuda:N")
    return device


class COMET:
    """COMET's regression metric of a checkpoint: a hub name, ``NAME@REVISION`` or a local
    folder in the published layout (``hparams.yaml``, ``checkpoints/model.ckpt``).

    ``batch_size`` texts are encoded at once (sorted by length); ``device`` is ``cpu``,
    ``cuda[:N]`` or ``auto``; ``precision`` ``fp32`` (the reference numbers), ``bf16`` or
    ``fp16``. ``cache`` is where scores are kept between runs: ``"default"`` (understudy's
    cache folder), a file, a :class:`ScoreCache`, or ``None``. The model is read on first use,
    and only when some score is not in the cache.
    """

    def __init__(
        self,
        model: str | PathLike[str] = DEFAULT_MODEL,
        *,
        batch_size: int = 16,
        device: str = "cpu",
        precision: str = "fp32",
        cache: ScoreCache | str | PathLike[str] | None = "default",
    ) -> None:
        if precision not in PRECISIONS:
            raise ModelError(f"unknown precision {precision!r}: {', '.join(PRECISIONS)}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ModelError(f"batch_size must be a positive whole number, got {batch_size!r}")
        self.checkpoint: Checkpoint = locate(model, WEIGHTS)
        self.batch_size, self.device, self.precision = batch_size, device, precision
        self.cache = (
            ScoreCache()
            if cache == "default"
            else ScoreCache(cache)
            if isinstance(cache, str | PathLike)
            else cache
        )
        """Where scores are kept between runs (``None``: nowhere)."""
        self.truncated = 0
        """How many texts the last call cut at the encoder's limit (510 tokens)."""
        self.computed = 0
        """How many segments the last call computed (the others came from the cache)."""
        self._model: RegressionModel | None = None

    @property
    def name(self) -> str:
        """``COMET-22`` for wmt22-comet-da, else ``COMET``."""
        return "COMET-22" if self.checkpoint.name == DEFAULT_MODEL else "COMET"

    def computed_by(self) -> dict[str, str]:
        """What the signature pins: the checkpoint, its revision, the precision, a reference."""
        return {
            "model": self.checkpoint.name,
            "revision": self.checkpoint.revision,
            "dtype": self.precision,
            "reference": "yes",
        }

    def _loaded(self) -> RegressionModel:
        if self._model is None:
            torch = need("torch")
            dtype = getattr(torch, PRECISIONS[self.precision])
            self._model = RegressionModel(self.checkpoint.folder, device_of(self.device), dtype)
        return self._model

    def system_scores(
        self,
        systems: Mapping[str, Sequence[str]],
        refs: Sequence[str],
        sources: Sequence[str],
        progress: Progress | None = None,
    ) -> GivenScores:
        """Every system's segment scores as given scores (their signature pins the checkpoint).

        Scores the cache holds are taken from it; the others are computed a block of segments
        at a time, each block kept in the cache as it completes (an interrupted run loses at
        most one block). ``progress`` is called with the number of texts encoded, batch by batch.
        """
        _check(systems, refs, sources)
        texts = list(dict.fromkeys([*sources, *refs, *(h for hyps in systems.values() for h in hyps)]))
        index = {text: k for k, text in enumerate(texts)}
        triples = list(
            dict.fromkeys(
                (index[s], index[h], index[r])
                for hyps in systems.values()
                for s, h, r in zip(sources, hyps, refs, strict=True)
            )
        )
        configuration = "|".join(("comet-regression", *self.computed_by().values()))
        keys = {t: segment_key(configuration, [texts[k] for k in t]) for t in triples}
        found = self.cache.get_many(keys.values()) if self.cache is not None else {}
        missing = [t for t in triples if keys[t] not in found]
        self.computed, self.truncated = len(missing), 0
        scores = {t: found[keys[t]] for t in triples if keys[t] in found}
        if missing:
            scores |= self._compute(missing, texts, keys, progress)
        table = {
            system: [
                scores[index[s], index[h], index[r]] for s, h, r in zip(sources, hyps, refs, strict=True)
            ]
            for system, hyps in systems.items()
        }
        return GivenScores(table, self.name, lower_is_better=False, computed_by=self.computed_by())

    def _compute(
        self,
        triples: list[tuple[int, int, int]],
        texts: list[str],
        keys: Mapping[tuple[int, int, int], bytes],
        progress: Progress | None,
    ) -> dict[tuple[int, int, int], float]:
        """The scores of ``triples`` (indices into ``texts``), a block at a time, each kept."""
        torch = need("torch")
        model = self._loaded()
        embedded: dict[int, Any] = {}
        out: dict[tuple[int, int, int], float] = {}
        for start in range(0, len(triples), BLOCK):
            block = triples[start : start + BLOCK]
            wanted = [k for k in dict.fromkeys(k for t in block for k in t) if k not in embedded]
            embedded |= self._embed(model, [texts[k] for k in wanted], wanted, progress)
            rows = [torch.stack([embedded[t[part]] for t in block]) for part in range(3)]
            scores = model.estimate(*rows).float().cpu().tolist()
            computed = dict(zip(block, scores, strict=True))
            if self.cache is not None:
                self.cache.put_many({keys[t]: score for t, score in computed.items()})
            out |= computed
        return out

    def _embed(
        self, model: RegressionModel, texts: list[str], ids: list[int], progress: Progress | None
    ) -> dict[int, Any]:
        """Sentence embeddings of ``texts`` by their ``ids``, batched by token length."""
        tokenized = model.tokenizer(texts)
        self.truncated += tokenized.truncated
        order = np.argsort([-len(row) for row in tokenized.ids], kind="stable")
        out: dict[int, Any] = {}
        for start in range(0, len(order), self.batch_size):
            chosen = order[start : start + self.batch_size]
            embedded = model.embed([tokenized.ids[k] for k in chosen])
            out.update((ids[k], row) for k, row in zip(chosen, embedded, strict=True))
            if progress is not None:
                progress(len(chosen))
        return out

    def sentence_scores(
        self, hyps: Sequence[str], refs: Sequence[str], *, sources: Sequence[str]
    ) -> list[float]:
        """One score per segment, as the reference code's ``predict`` gives them."""
        scores: list[float] = (
            self.system_scores({"system": hyps}, refs, sources).sentence_scores("system").tolist()
        )
        return scores

    def segment_stats(
        self, hyps: Sequence[str], refs: Sequence[str], *, sources: Sequence[str]
    ) -> ScoresStats:
        """The segments' statistics (given-score rows), for significance tests and totals."""
        return self.system_scores({"system": hyps}, refs, sources).segment_stats("system")

    def corpus_score(
        self, hyps: Sequence[str], refs: Sequence[str], *, sources: Sequence[str]
    ) -> ScoresResult:
        """The system score: the mean of the segment scores, as the reference code's."""
        return self.segment_stats(hyps, refs, sources=sources).score()


def _check(systems: Mapping[str, Sequence[str]], refs: Sequence[str], sources: Sequence[str] | None) -> None:
    if sources is None:
        raise InputError("COMET needs the source of every segment (--source FILE, or sources=...)")
    for what, texts in (("references", refs), ("sources", sources), *systems.items()):
        if isinstance(texts, str) or not all(isinstance(t, str) for t in texts):
            raise InputError(f"{what}: expected a sequence of strings, one a segment")
    if not systems or not len(refs):
        raise EmptyInputError("nothing to score: no systems or no segments")
    for system, hyps in systems.items():
        if len(hyps) != len(refs) or len(sources) != len(refs):
            raise LengthMismatchError(
                f"{system}: {len(hyps)} hypotheses, {len(refs)} references and {len(sources)} sources"
            )
