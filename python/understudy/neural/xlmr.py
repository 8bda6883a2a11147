"""XLM-R as COMET uses it: its tokenizer with COMET's truncation, the encoder's every layer,
the learned layer mix and average pooling.

COMET reads an encoder named by its checkpoint (``pretrained_model``: a folder, or a hub
name such as ``xlm-roberta-large``) for its config and tokenizer only; the weights are the
checkpoint's. The tokenizer is read from ``tokenizer.json`` with the ``tokenizers`` library,
exactly as the reference code's fast tokenizer reads it (transformers 5's XLM-R tokenizer class
rebuilds the pipeline without the file's normaliser, and would split text differently).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from understudy.errors import ModelError
from understudy.neural._extra import need
from understudy.neural.checkpoints import Checkpoint, named_by

ENCODER_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"]


@dataclass
class Tokenized:
    """Token ids of texts, each token's character span in its text (``(0, 0)`` for a special
    token), and how many texts were cut at the encoder's limit."""

    ids: list[list[int]]
    truncated: int
    offsets: list[list[tuple[int, int]]]


class XLMRTokenizer:
    """A ``tokenizer.json`` with COMET's limit: at most ``max_length`` ids, ``<s>`` and ``</s>``
    included (510 for XLM-R, whose 514 positions lose two to the padding offset)."""

    def __init__(self, folder: Path, max_length: int) -> None:
        tokenizers = need("tokenizers")
        path = folder / "tokenizer.json"
        if not path.is_file():
            raise ModelError(f"{folder}: no tokenizer.json (understudy reads the fast tokenizer's file)")
        self._tokenizer = tokenizers.Tokenizer.from_file(str(path))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self.max_length = max_length
        self.pad_id = self.token_id(folder, "<pad>")
        self._clean_up = _cleans_up(folder)

    def token_id(self, folder: Path, token: str) -> int:
        """The id of ``token``; a tokenizer without it is an error naming ``folder``."""
        found = self._tokenizer.token_to_id(token)
        if found is None:
            raise ModelError(f"{folder}: the tokenizer has no {token} token")
        return int(found)

    def __call__(self, texts: Sequence[str]) -> Tokenized:
        """The ids of each text, cut as the reference code's ``truncation=True`` cuts a single
        text: the end of its content goes, the special tokens stay."""
        out, offsets, cut = [], [], 0
        for encoding in self._tokenizer.encode_batch(list(texts)):
            ids, spans = encoding.ids, encoding.offsets
            if len(ids) > self.max_length:
                ids, cut = [*ids[: self.max_length - 1], ids[-1]], cut + 1
                spans = [*spans[: self.max_length - 1], spans[-1]]
            out.append(ids)
            offsets.append(spans)
        return Tokenized(out, cut, offsets)

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids`` as the reference code's ``tokenizer.decode`` gives it: special
        tokens kept, spaces cleaned up only where the tokenizer's config asks for it."""
        text: str = self._tokenizer.decode(list(ids), skip_special_tokens=False)
        if self._clean_up:
            for spaced, tight in _CLEAN_UP:
                text = text.replace(spaced, tight)
        return text


# transformers' ``clean_up_tokenization``: English contractions and punctuation re-attached.
_CLEAN_UP = [
    (" .", "."), (" ?", "?"), (" !", "!"), (" ,", ","), (" ' ", "'"),
    (" n't", "n't"), (" 'm", "'m"), (" 's", "'s"), (" 've", "'ve"), (" 're", "'re"),
]  # fmt: skip


def _cleans_up(folder: Path) -> bool:
    """``clean_up_tokenization_spaces`` of the tokenizer's config (transformers 4.57's default,
    false, when the file or the key is absent)."""
    try:
        config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and config.get("clean_up_tokenization_spaces") is True


def sparsemax(scores: Any) -> Any:
    """Sparsemax of a vector (Martins & Astudillo, 2016), in the operations of the ``entmax``
    package COMET calls: sort, cumulative sums, the support, the threshold."""
    torch = need("torch")
    ordered, _ = torch.sort(scores, dim=0, descending=True)
    cumsum = ordered.cumsum(0) - 1
    ranks = torch.arange(1, len(scores) + 1, device=scores.device, dtype=scores.dtype)
    support = (ranks * ordered > cumsum).sum(0, keepdim=True)
    tau = cumsum.gather(0, support - 1) / support.to(scores.dtype)
    return torch.clamp(scores - tau, min=0)


def _layer_norm(tensor: Any, mask: Any) -> Any:
    """COMET's per-sentence normalisation: one mean and one variance over every unpadded
    position and every dimension, no affine parameters."""
    torch = need("torch")
    broadcast = mask.unsqueeze(-1)
    batch, _, dim = tensor.size()
    count = mask.sum(1) * dim
    masked = tensor * broadcast
    mean = (masked.view(batch, -1).sum(1) / count).view(batch, 1, 1)
    variance = (((masked - mean) * broadcast) ** 2).view(batch, -1).sum(1) / count
    return (tensor - mean) / torch.sqrt(variance + 1e-12).view(batch, 1, 1)


class LayerMix:
    """``gamma * sum_k w_k h_k`` over the encoder's layers (the embeddings' output first), with
    ``w`` the softmax (or sparsemax) of the learned scalars, each layer normalised first when
    the checkpoint says ``layer_norm``."""

    def __init__(self, scalars: Any, gamma: Any, transform: str, layer_norm: bool) -> None:
        torch = need("torch")
        self.weights = sparsemax(scalars) if transform == "sparsemax" else torch.softmax(scalars, dim=0)
        self.gamma = gamma
        self.layer_norm = layer_norm

    @property
    def reads(self) -> int:
        """How many layers, from the embeddings' output up, the mix reads: the layers above the
        last one with a nonzero weight (sparsemax gives exact zeros) add nothing to it."""
        nonzero = self.weights.nonzero()
        return int(nonzero.max()) + 1 if len(nonzero) else 1

    def __call__(self, layers: Sequence[Any], mask: Any) -> Any:
        """The mix of ``layers`` (each batch x length x hidden) under the attention ``mask``:
        the first ``reads`` at least, as the encoder's layers were kept.

        A layer of weight zero is left out of the sum, as is every layer above ``reads``:
        the reference code adds its product, a zero, which changes no finite sum."""
        if not self.reads <= len(layers) <= len(self.weights):
            raise ModelError(f"the layer mix has {len(self.weights)} weights for {len(layers)} layers")
        mask = mask.to(layers[0].dtype)
        total: Any = 0
        for weight, layer in zip(self.weights[: self.reads].split(1), layers[: self.reads], strict=True):
            if bool(weight != 0):
                total = total + weight * (_layer_norm(layer, mask) if self.layer_norm else layer)
        return self.gamma * total


def average_pool(ids: Any, embeddings: Any, mask: Any, pad_id: int) -> Any:
    """COMET's average: positions holding the pad id are zeroed (by id, so a literal ``<pad>``
    in the text too), the sum divided by the attention mask's count."""
    zeroed = embeddings.float().masked_fill(ids.eq(pad_id).unsqueeze(-1), 0.0).type_as(embeddings)
    return zeroed.sum(1) / mask.unsqueeze(-1).expand(embeddings.size()).to(embeddings.dtype).sum(1)


def find_encoder(name: str, checkpoint: Path) -> Checkpoint:
    """The encoder (config and tokenizer) a COMET checkpoint names, looked for in order: a folder
    of that name beside the checkpoint's folder, then inside it; a folder as given (relative to
    the working directory, as the reference code reads it); the hub's local cache; the hub
    (:func:`~understudy.neural.checkpoints.named_by`). Its revision is the hub commit, or the hash
    of its files.

    >>> import pathlib, tempfile
    >>> top = pathlib.Path(tempfile.mkdtemp())
    >>> (top / "xlm-roberta-large").mkdir(); (top / "xlm-roberta-large" / "config.json").write_text("{}")
    2
    >>> find_encoder("xlm-roberta-large", top / "wmt22-comet-da").folder == top / "xlm-roberta-large"
    True
    """
    return named_by(name, checkpoint, ENCODER_FILES)


def build_encoder(folder: Path, state: dict[str, Any]) -> Any:
    """transformers' XLM-R encoder (no pooler) of ``folder``'s config with ``state``'s weights;
    a tensor the model needs and the checkpoint lacks is an error (the reference code would
    leave it random).

    The model is laid out without memory and takes the checkpoint's tensors as they are (read
    through a memory map): no random initialisation to throw away, and no second copy of the
    weights while loading."""
    transformers, torch = need("transformers"), need("torch")
    config = transformers.AutoConfig.from_pretrained(str(folder))
    if config.model_type not in ("xlm-roberta", "xlm-roberta-xl"):
        raise ModelError(f"{folder}: an encoder of type {config.model_type!r}; COMET here reads XLM-R")
    kind = (
        transformers.XLMRobertaModel if config.model_type == "xlm-roberta" else transformers.XLMRobertaXLModel
    )
    with torch.device("meta"):
        model = kind(config, add_pooling_layer=False)
    missing, _ = model.load_state_dict(state, strict=False, assign=True)
    missing = [k for k in missing if not k.endswith(("position_ids", "token_type_ids"))]
    if missing:
        raise ModelError(f"the checkpoint lacks the encoder's {', '.join(missing[:3])}")
    _made_buffers(model, config)
    return model.eval()


def _made_buffers(model: Any, config: Any) -> None:
    """The buffers a checkpoint does not hold, made as XLM-R's embeddings make them."""
    torch = need("torch")
    positions = torch.arange(config.max_position_embeddings).expand((1, -1))
    made = {"position_ids": positions, "token_type_ids": torch.zeros(positions.size(), dtype=torch.long)}
    for name, buffer in list(model.named_buffers()):
        if not buffer.is_meta:
            continue
        module_name, _, leaf = name.rpartition(".")
        if leaf not in made:
            raise ModelError(f"this transformers' XLM-R has a buffer {name!r} understudy cannot make")
        model.get_submodule(module_name).register_buffer(leaf, made[leaf].clone(), persistent=False)
    for name, parameter in model.named_parameters():
        if parameter.is_meta:
            raise ModelError(f"the checkpoint lacks the encoder's {name}")
