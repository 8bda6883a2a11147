"""BLEURT-20 as a metric object: bleurt-pytorch's scores of a hypothesis against its reference.

A checkpoint is ``lucadiliello/BLEURT-20``'s layout: ``config.json`` (``model_type`` ``bleurt``:
a BERT whose embeddings, narrower than its layers, are projected up, as RemBERT's),
``pytorch_model.bin`` (or ``model.safetensors``) and a SentencePiece ``spm.model`` with its
configs. The text is tokenized as bleurt-pytorch's tokenizer falls back to doing for such a
folder (transformers 4's slow DeBERTa-v2 tokenizer): the special tokens written in the text
(``[CLS]``, ``[SEP]``, ``[PAD]``, ``[MASK]``, ``[UNK]``) are their own ids, every other stretch
is SentencePiece's pieces. The input is ``[CLS] reference [SEP] hypothesis [SEP]`` (the
reference first, as its README calls it; token types 0 then 1), cut to 512 positions as HF's
``longest_first`` cuts a pair: without the cut the port crashes on such rows, its tokenizer's
saved limit being 1e30. The score is the classifier's output over the pooled ``[CLS]`` state.

>>> BLEURT.kind, BLEURT.higher_is_better
('bleurt', True)
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any, NamedTuple, Self

from understudy.computed.bleurt import DEFAULT_MODEL, BleurtConfig
from understudy.computed.cache import ScoreCache
from understudy.computed.metric import Item, Progress
from understudy.errors import InputError, ModelError
from understudy.neural._extra import need, quietly
from understudy.neural.base import NeuralMetric, device_of

TOKENIZER_FILES = ("spm.model", "tokenizer_config.json", "special_tokens_map.json")
WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin")
LIMIT = 512
"""Positions the model has, the special tokens included."""
SPECIALS = {
    "cls_token": "[CLS]",
    "sep_token": "[SEP]",
    "pad_token": "[PAD]",
    "unk_token": "[UNK]",
    "mask_token": "[MASK]",
}


class Pair(NamedTuple):
    """One input: its ids, their token types, and whether it was cut to fit."""

    ids: list[int]
    types: list[int]
    cut: bool


class BLEURT(NeuralMetric):
    """BLEURT of the checkpoint ``model`` (a hub name, ``NAME@REVISION`` or a local folder in
    ``lucadiliello/BLEURT-20``'s layout; default: BLEURT-20). Other options as
    :class:`~understudy.neural.COMET`'s.
    """

    kind = "bleurt"
    marker = "config.json"
    weights = "config.json"
    reads = ("config.json", *TOKENIZER_FILES, *WEIGHT_FILES)

    @classmethod
    def recognises(cls, folder: Path) -> bool:
        """A ``config.json`` of ``model_type`` ``bleurt``."""
        return super().recognises(folder) and _config(folder / "config.json").get("model_type") == "bleurt"

    @classmethod
    def names_beside(cls, folder: Path, tokenizer: str) -> None:
        """Nothing: the checkpoint's folder holds its tokenizer."""
        return None

    def __init__(
        self,
        model: str | PathLike[str] | None = None,
        *,
        batch_size: int = 16,
        device: str = "auto",
        precision: str = "fp32",
        cache: ScoreCache | str | PathLike[str] | None = "default",
    ) -> None:
        checkpoint = self.find_checkpoint(DEFAULT_MODEL if model is None else model)
        super().__init__(checkpoint, batch_size=batch_size, device=device, precision=precision, cache=cache)
        if not self.recognises(checkpoint.folder):
            raise ModelError(
                f"{checkpoint.folder}: not a BLEURT checkpoint (its config.json's model_type is not bleurt)"
            )
        self.tokenizer = BleurtTokenizer(checkpoint.folder)
        self._model: BleurtModel | None = None

    @property
    def name(self) -> str:
        """``BLEURT-20`` for the default checkpoint, else ``BLEURT``."""
        return "BLEURT-20" if self.checkpoint.name == DEFAULT_MODEL else "BLEURT"

    @classmethod
    def from_config(cls, config: BleurtConfig, pair: str | None = None) -> Self:
        """The metric as its command-line configuration says (:mod:`understudy.computed.bleurt`)."""
        return cls(config.model, **config.running())

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """The reference and the hypothesis, in the order the model reads them."""
        if reference is None:
            raise InputError("BLEURT scores a hypothesis against its reference: give one for every segment")
        return (reference, hypothesis)

    def begin(self) -> None:
        """Read the model (once)."""
        if self._model is None:
            self._model = BleurtModel(self.checkpoint.folder, device_of(self.device), self.dtype())

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        """Each (reference, hypothesis)'s score, batched by the input's length."""
        model = self._model
        assert model is not None
        pairs = [self.tokenizer.pair(reference, hypothesis) for reference, hypothesis in items]
        self.truncated += sum(p.cut for p in pairs)
        scores = [0.0] * len(items)
        for chosen in self.batches([len(p.ids) for p in pairs]):
            for k, value in zip(chosen, model.scores([pairs[k] for k in chosen]), strict=True):
                scores[k] = value
            if progress is not None:
                progress(len(chosen))
        return scores


class BleurtTokenizer:
    """A BLEURT checkpoint's ``spm.model`` as transformers 4's slow DeBERTa-v2 tokenizer reads it."""

    def __init__(self, folder: Path) -> None:
        sentencepiece = need("sentencepiece")
        path = folder / "spm.model"
        if not path.is_file():
            raise ModelError(f"{folder}: no spm.model (BLEURT-20's SentencePiece tokenizer)")
        try:
            self._sp = sentencepiece.SentencePieceProcessor(model_file=str(path))
        except (OSError, RuntimeError) as err:
            raise ModelError(f"{path}: not a SentencePiece model ({err})") from None
        config = _config(folder / "tokenizer_config.json")
        if config.get("split_by_punct"):
            raise ModelError(
                f"{folder}: split_by_punct is set; understudy reads BLEURT-20's tokenizer, which has it off"
            )
        self.lower = bool(config.get("do_lower_case", False))
        tokens = {key: _content(config.get(key), default) for key, default in SPECIALS.items()}
        self._strip = _strips(config)
        self._ids = {token: self._piece(folder, token) for token in tokens.values()}
        self.cls, self.sep, self.pad = (self._ids[tokens[k]] for k in ("cls_token", "sep_token", "pad_token"))
        alternatives = "|".join(re.escape(t) for t in sorted(self._ids, key=len, reverse=True))
        self._split = re.compile(f"({alternatives})")

    def _piece(self, folder: Path, token: str) -> int:
        found = int(self._sp.piece_to_id(token))
        if self._sp.id_to_piece(found) != token:
            raise ModelError(f"{folder}: spm.model has no {token} piece")
        return found

    def encode(self, text: str) -> list[int]:
        """The ids of one text, without the special tokens around it."""
        parts = self._split.split(text)
        for k in range(1, len(parts), 2):  # the special tokens, at the odd places
            left, right = self._strip.get(parts[k], (False, False))
            if left:
                parts[k - 1] = parts[k - 1].rstrip()
            if right:
                parts[k + 1] = parts[k + 1].lstrip()
        ids: list[int] = []
        for k, part in enumerate(parts):
            if k % 2:
                ids.append(self._ids[part])
            elif part:
                pieces = self._sp.encode(part.lower() if self.lower else part, out_type=str)
                ids += [int(self._sp.piece_to_id(p)) for p in pieces]
        return ids

    def pair(self, first: str, second: str) -> Pair:
        """``[CLS] first [SEP] second [SEP]``, cut to :data:`LIMIT` positions as HF's
        ``longest_first`` cuts (the longer side first, the rest shared)."""
        a, b = self.encode(first), self.encode(second)
        over = len(a) + len(b) + 3 - LIMIT
        if over > 0:
            gap = min(abs(len(a) - len(b)), over)
            shared = over - gap
            cut_a = gap + shared // 2 if len(a) > len(b) else shared // 2
            a, b = a[: len(a) - cut_a], b[: len(b) - (over - cut_a)]
        ids = [self.cls, *a, self.sep, *b, self.sep]
        return Pair(ids, [0] * (len(a) + 2) + [1] * (len(b) + 1), over > 0)


class BleurtModel:
    """A BLEURT checkpoint's weights in transformers' RemBERT encoder (the same layers, pooler and
    embeddings' projection) and its classifier."""

    def __init__(self, folder: Path, device: str, dtype: Any) -> None:
        torch, transformers = need("torch"), need("transformers")
        config = _config(folder / "config.json")
        hidden = int(config["hidden_size"])
        width = config.get("embedding_size") or hidden
        names: tuple[str, ...] = (
            "vocab_size",
            "num_hidden_layers",
            "num_attention_heads",
            "intermediate_size",
        )
        names += (
            "hidden_act",
            "max_position_embeddings",
            "type_vocab_size",
            "layer_norm_eps",
            "pad_token_id",
        )
        settings = {k: config[k] for k in names if k in config}
        rembert = transformers.RemBertConfig(
            hidden_size=hidden, input_embedding_size=width, **settings, bos_token_id=None, eos_token_id=None
        )
        self.encoder = quietly(lambda: transformers.RemBertModel(rembert, add_pooling_layer=True))
        state = _weights(folder)
        own = {k.removeprefix("bleurt."): v for k, v in state.items() if k.startswith("bleurt.")}
        projection = {
            k.replace("encoder.embedding_projection.", ""): own.pop(k)
            for k in list(own)
            if "embedding_projection." in k
        }
        if projection:
            own |= {f"encoder.embedding_hidden_mapping_in.{k}": v for k, v in projection.items()}
        else:
            self.encoder.encoder.embedding_hidden_mapping_in = torch.nn.Identity()
        own.pop("embeddings.position_ids", None)
        self.classifier = torch.nn.Linear(hidden, int(config.get("num_labels", 1)))
        try:
            self.encoder.load_state_dict(own)
            self.classifier.load_state_dict(
                {k.removeprefix("classifier."): state[k] for k in ("classifier.weight", "classifier.bias")}
            )
        except (RuntimeError, KeyError) as err:
            raise ModelError(f"{folder}: not BLEURT's weights ({str(err).splitlines()[0]})") from None
        self.encoder = self.encoder.to(device, dtype).eval()
        self.classifier = self.classifier.to(device, dtype).eval()
        self.device, self.pad = device, int(config.get("pad_token_id", 0))

    def scores(self, pairs: Sequence[Pair]) -> list[float]:
        """The scores of one batch of inputs (right-padded)."""
        torch = need("torch")
        width = max(len(p.ids) for p in pairs)
        ids = torch.tensor([p.ids + [self.pad] * (width - len(p.ids)) for p in pairs], device=self.device)
        types = torch.tensor([p.types + [0] * (width - len(p.types)) for p in pairs], device=self.device)
        mask = torch.tensor(
            [[1] * len(p.ids) + [0] * (width - len(p.ids)) for p in pairs], device=self.device
        )
        with torch.inference_mode():
            pooled = self.encoder(input_ids=ids, attention_mask=mask, token_type_ids=types).pooler_output
            values: list[float] = self.classifier(pooled)[:, 0].float().cpu().tolist()
        return values


def _config(path: Path) -> dict[str, Any]:
    """A JSON config of the checkpoint (``{}`` where the folder has none)."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    except (OSError, ValueError) as err:
        raise ModelError(f"{path}: not a readable JSON file ({err})") from None
    return loaded if isinstance(loaded, dict) else {}


def _content(declared: Any, default: str) -> str:
    """A special token as a config declares it: a string, or an AddedToken's ``content``."""
    if isinstance(declared, dict):
        declared = declared.get("content")
    return str(declared) if declared else default


def _strips(config: dict[str, Any]) -> dict[str, tuple[bool, bool]]:
    """Each added token's ``lstrip`` and ``rstrip`` as a saved config declares them (none: neither)."""
    added = config.get("added_tokens_decoder") or {}
    return {
        str(t["content"]): (bool(t.get("lstrip")), bool(t.get("rstrip")))
        for t in added.values()
        if isinstance(t, dict) and "content" in t
    }


def _weights(folder: Path) -> dict[str, Any]:
    """The checkpoint's state dict: ``model.safetensors``, else ``pytorch_model.bin``."""
    if (folder / "model.safetensors").is_file():
        return dict(need("safetensors.torch").load_file(str(folder / "model.safetensors")))
    path = folder / "pytorch_model.bin"
    if not path.is_file():
        raise ModelError(f"{folder}: neither model.safetensors nor pytorch_model.bin (BLEURT's weights)")
    try:
        loaded = need("torch").load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # torch's unpickling errors, or an unreadable file
        raise ModelError(f"{path}: not a readable state dict ({type(err).__name__})") from None
    return dict(loaded)
