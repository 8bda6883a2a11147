"""COMET's regression metric (``Unbabel/wmt22-comet-da`` by default) as a metric object.

Scores are the reference code's (unbabel-comet's Python ``predict`` in fp32) on transformers'
XLM-R; the work is shared: within a call every distinct source, reference and hypothesis text
is embedded once, however many systems hold it, and each distinct (source, hypothesis,
reference) triple is estimated once; the score cache keeps them across calls and processes.

>>> COMET.default_model, COMET.kind
('Unbabel/wmt22-comet-da', 'comet-regression')
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path
from typing import Any, ClassVar, Self

from understudy.computed.cache import ScoreCache
from understudy.computed.comet import DEFAULT_MODEL
from understudy.computed.metric import Item, Progress
from understudy.errors import InputError, ModelError
from understudy.neural._extra import need
from understudy.neural.base import PRECISIONS, NeuralMetric, device_of
from understudy.neural.comet_model import WEIGHTS, RegressionModel, declared_encoder
from understudy.neural.xlmr import ENCODER_FILES, find_encoder
from understudy.registry.declarations import NeuralConfig

__all__ = ["COMET", "DEFAULT_MODEL", "PRECISIONS", "CometCheckpoint", "device_of"]


class CometCheckpoint(NeuralMetric):
    """A metric of a COMET checkpoint in the published layout: what COMET and CometKiwi share.

    ``model`` is a hub name, ``NAME@REVISION`` or a local folder holding ``hparams.yaml`` and
    ``checkpoints/model.ckpt`` (default: the class's ``default_model``). ``batch_size`` texts
    are encoded at once (sorted by length); ``device`` is ``auto`` (the first GPU where torch
    sees one, else the CPU), ``cpu`` or ``cuda[:N]``; ``precision`` ``fp32`` (the reference
    numbers), ``bf16`` or ``fp16``. ``cache`` is where scores are kept between runs:
    ``"default"`` (understudy's cache folder), a file, a :class:`ScoreCache`, or ``None``. The
    model is read on first use, and only when some score is not in the cache.
    """

    default_model: ClassVar[str]
    marker: ClassVar[str | None] = "hparams.yaml"
    weights: ClassVar[str] = WEIGHTS
    reads: ClassVar[tuple[str, ...]] = (WEIGHTS, "hparams.yaml")
    """The checkpoint's files the model reads: a local folder's revision hashes them all
    (hparams.yaml names the model's class, its encoder and CometKiwi's input segments)."""

    @classmethod
    def names_beside(cls, folder: Path, tokenizer: str) -> tuple[str, list[str]]:
        """The encoder ``hparams.yaml`` names (a hub name), whose config and tokenizer the
        checkpoint does not hold."""
        needed = declared_encoder(folder)
        if Path(needed).expanduser().is_absolute() or needed.startswith("."):
            raise ModelError(
                f"{folder}: its hparams.yaml names the encoder as a folder ({needed}), not a hub name"
            )
        return needed, ENCODER_FILES

    def __init__(
        self,
        model: str | PathLike[str] | None = None,
        *,
        batch_size: int = 16,
        device: str = "auto",
        precision: str = "fp32",
        cache: ScoreCache | str | PathLike[str] | None = "default",
    ) -> None:
        checkpoint = self.find_checkpoint(self.default_model if model is None else model)
        super().__init__(checkpoint, batch_size=batch_size, device=device, precision=precision, cache=cache)
        self.encoder = find_encoder(declared_encoder(checkpoint.folder), checkpoint.folder)
        """The encoder's config and tokenizer, found as :func:`~understudy.neural.xlmr.find_encoder` says."""

    @classmethod
    def from_config(cls, config: NeuralConfig, pair: str | None = None) -> Self:
        """The metric as its command-line configuration says (a ``model`` and how it runs;
        :mod:`understudy.computed.comet`); the language pair is not read."""
        return cls(getattr(config, "model"), **config.running())  # noqa: B009 (each metric's own)

    def _embed(self, model: RegressionModel, texts: list[str], progress: Progress | None) -> dict[str, Any]:
        """Sentence embeddings of ``texts``, batched by token length."""
        tokenized = model.tokenizer(texts)
        self.truncated += tokenized.truncated
        out: dict[str, Any] = {}
        for chosen in self.batches([len(row) for row in tokenized.ids]):
            embedded = model.embed([tokenized.ids[k] for k in chosen])
            out.update((texts[k], row) for k, row in zip(chosen, embedded, strict=True))
            if progress is not None:
                progress(len(chosen))
        return out

    def computed_by(self) -> dict[str, str]:
        """As every neural metric's, with the encoder's revision (its config and tokenizer,
        which the checkpoint names but does not hold) after the checkpoint's."""
        pinned = super().computed_by()
        pinned["revision"] += f"+{self.encoder.revision}" if self.encoder.revision else ""
        return pinned


class COMET(CometCheckpoint):
    """COMET's regression metric (default ``Unbabel/wmt22-comet-da``); the options are
    :class:`CometCheckpoint`'s."""

    kind = "comet-regression"
    default_model = DEFAULT_MODEL
    _model: RegressionModel | None = None
    _embedded: dict[str, Any]

    @property
    def name(self) -> str:
        """``COMET-22`` for wmt22-comet-da, else ``COMET``."""
        return "COMET-22" if self.checkpoint.name == DEFAULT_MODEL else "COMET"

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """The source, hypothesis and reference: COMET's regression metric needs all three."""
        if source is None:
            raise InputError("COMET needs the source of every segment (--source FILE, or sources=...)")
        if reference is None:
            raise InputError("COMET's regression metric needs a reference for every segment")
        return (source, hypothesis, reference)

    def begin(self) -> None:
        """Read the model (once) and start a call's embeddings afresh."""
        if self._model is None:
            self._model = RegressionModel(self.checkpoint.folder, device_of(self.device), self.dtype())
        self._embedded = {}

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        """Embed the block's texts not yet embedded in this call, then estimate each triple."""
        torch = need("torch")
        model = self._model
        assert model is not None
        wanted = [t for t in dict.fromkeys(t for item in items for t in item) if t not in self._embedded]
        self._embedded |= self._embed(model, wanted, progress)
        rows = [torch.stack([self._embedded[item[part]] for item in items]) for part in range(3)]
        scores: list[float] = model.estimate(*rows).float().cpu().tolist()
        return scores
