"""COMET's unified metric, reference-free: CometKiwi (``Unbabel/wmt22-cometkiwi-da`` by default).

Each segment is one sequence, ``<s> mt </s></s> src </s>``, scored from the layer mix at
``<s>``. A unified checkpoint that also reads references (``input_segments`` holding ``ref``),
given references, scores three sequences, ``[mt, src]``, ``[mt, ref]`` and ``[mt, src, ref]``,
and takes their mean, as the reference code does. CometKiwi's checkpoints are CC BY-NC-SA and
gated on the hub: accept the licence there first.

>>> CometKiwi.kind
'comet-unified'
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from understudy.computed.cometkiwi import DEFAULT_MODEL
from understudy.computed.metric import Item, Progress
from understudy.errors import InputError
from understudy.neural._extra import need
from understudy.neural.base import device_of
from understudy.neural.comet import CometCheckpoint
from understudy.neural.comet_model import UnifiedModel

NAMES = {
    "Unbabel/wmt22-cometkiwi-da": "CometKiwi-22",
    "Unbabel/wmt23-cometkiwi-da-xl": "CometKiwi-23-XL",
    "Unbabel/wmt23-cometkiwi-da-xxl": "CometKiwi-23-XXL",
}


def _declared_segments(folder: Any) -> list[str]:
    """``input_segments`` as the checkpoint's hparams.yaml declares them (the default: all three)."""
    yaml = need("yaml")
    try:
        declared = yaml.safe_load((folder / "hparams.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        declared = None
    segments = declared.get("input_segments") if isinstance(declared, dict) else None
    return [str(s) for s in segments] if isinstance(segments, list) else ["mt", "src", "ref"]


class CometKiwi(CometCheckpoint):
    """COMET's unified metric (default ``Unbabel/wmt22-cometkiwi-da``), scored without references
    unless the checkpoint reads them and they are given; the options are
    :class:`~understudy.neural.comet.CometCheckpoint`'s.
    """

    kind = "comet-unified"
    default_model = DEFAULT_MODEL
    _with_reference = False
    _model: UnifiedModel | None = None
    _tokens: dict[str, list[int]]

    @cached_property
    def segments(self) -> list[str]:
        """The inputs the checkpoint reads (``input_segments``): ``mt`` and ``src``, maybe ``ref``."""
        return _declared_segments(self.checkpoint.folder)

    @property
    def name(self) -> str:
        """CometKiwi-22 (-23-XL, -23-XXL) for the published checkpoints, else CometKiwi."""
        return NAMES.get(self.checkpoint.name, "CometKiwi")

    def uses_reference(self) -> bool:
        """Whether the last inputs held references the checkpoint reads."""
        return self._with_reference

    def reads_references(self) -> bool:
        """Whether the checkpoint reads references at all (its ``input_segments`` hold ``ref``)."""
        return "ref" in self.segments

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """``(mt, src)``, or ``(mt, src, ref)`` where the checkpoint reads references too."""
        if source is None:
            raise InputError("CometKiwi needs the source of every segment (--source FILE, or sources=...)")
        self._with_reference = reference is not None and "ref" in self.segments
        if self._with_reference and reference is not None:
            return (hypothesis, source, reference)
        return (hypothesis, source)

    def begin(self) -> None:
        """Read the model (once) and start a call's tokens afresh."""
        if self._model is None:
            self._model = UnifiedModel(self.checkpoint.folder, device_of(self.device), self.dtype())
        self._tokens = {}

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        """Each item's passes, batched by length; with three, their mean (float32, as COMET's)."""
        model = self._model
        assert model is not None
        texts = [t for t in dict.fromkeys(t for item in items for t in item) if t not in self._tokens]
        tokenized = model.tokenizer(texts)
        self.truncated += tokenized.truncated
        self._tokens |= dict(zip(texts, tokenized.ids, strict=True))
        ids = [[self._tokens[t] for t in item] for item in items]
        passes = [[p[0], p[1]] for p in ids] if len(ids[0]) == 2 else None
        sequences = (
            [[model.sequence([p[0], p[1]])] for p in ids]
            if passes is not None
            else [
                [model.sequence([p[0], p[1]]), model.sequence([p[0], p[2]]), model.sequence(p)] for p in ids
            ]
        )
        flat = [seq for per in sequences for seq in per]
        scores = self._run(model, flat, progress).view(len(items), -1)
        return [float(v) for v in (scores[:, 0] if passes is not None else scores.t().mean(dim=0)).tolist()]

    def _run(self, model: UnifiedModel, sequences: list[list[int]], progress: Progress | None) -> Any:
        torch = need("torch")
        out = torch.empty(len(sequences), dtype=torch.float32)
        for chosen in self.batches([len(s) for s in sequences]):
            out[torch.as_tensor(chosen)] = model.scores([sequences[k] for k in chosen]).float().cpu()
            if progress is not None:
                progress(len(chosen))
        return out
