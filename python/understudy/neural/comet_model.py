"""A COMET regression checkpoint (wmt22-comet-da's kind) read and run: its encoder, layer mix
and estimator, from the published ``hparams.yaml`` + ``checkpoints/model.ckpt`` layout.

As ``comet.load_from_checkpoint`` does, ``hparams.yaml`` gives only the model's class and the
checkpoint's own hyper-parameters the rest; ``sparsemax_patch`` (CometKiwi's) means softmax.
Unlike it, a tensor the checkpoint lacks is an error, not a random weight.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from understudy.errors import ModelError
from understudy.neural._extra import need
from understudy.neural.xlmr import LayerMix, XLMRTokenizer, average_pool, build_encoder, find_encoder

WEIGHTS = "checkpoints/model.ckpt"
DEFAULT_ENCODER = "xlm-roberta-large"
"""The encoder COMET builds when a checkpoint names none."""
KINDS = ("regression_metric",)


def read_checkpoint(folder: Path) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A COMET checkpoint's class, hyper-parameters and state dict."""
    yaml = need("yaml")
    torch = need("torch")
    try:
        declared = yaml.safe_load((folder / "hparams.yaml").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"{folder}: no hparams.yaml (a COMET checkpoint's folder holds it)") from None
    except yaml.YAMLError as err:
        raise ModelError(f"{folder / 'hparams.yaml'}: not YAML ({str(err).splitlines()[0]})") from None
    kind = declared.get("class_identifier") if isinstance(declared, dict) else None
    try:
        saved = torch.load(folder / WEIGHTS, map_location="cpu", weights_only=True, mmap=True)
    except Exception as err:  # torch raises pickle, zip and runtime errors alike
        raise ModelError(
            f"{folder / WEIGHTS}: not a readable checkpoint ({err.__class__.__name__})"
        ) from None
    if not isinstance(saved, dict) or "state_dict" not in saved:
        raise ModelError(f"{folder / WEIGHTS}: no state_dict in the checkpoint")
    hparams = dict(saved.get("hyper_parameters") or declared)
    named, written = hparams.get("pretrained_model"), declared.get("pretrained_model")
    if written is not None and named is not None and written != named:
        raise ModelError(
            f"{folder / 'hparams.yaml'} names the encoder {written!r} but {WEIGHTS} names {named!r}, which"
            " COMET reads: put the encoder's folder beside the checkpoint's, under that name"
        )
    if declared.get("layer_transformation") == "sparsemax_patch":
        hparams["layer_transformation"] = "softmax"  # COMET >= 2.2.4's reading of CometKiwi
    return str(kind), hparams, saved["state_dict"]


def declared_encoder(folder: Path) -> str:
    """The encoder ``hparams.yaml`` names (``pretrained_model``), read without the weights: the
    checkpoint's revision pins it before the model is read (:func:`read_checkpoint` refuses a
    ``model.ckpt`` that names another)."""
    yaml = need("yaml")
    try:
        declared = yaml.safe_load((folder / "hparams.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return DEFAULT_ENCODER  # read_checkpoint says what is wrong with it, when the model is read
    named = declared.get("pretrained_model") if isinstance(declared, dict) else None
    return str(named or DEFAULT_ENCODER)


def _part(state: dict[str, Any], prefix: str) -> dict[str, Any]:
    return {k[len(prefix) :]: v for k, v in state.items() if k.startswith(prefix)}


def _estimator(state: dict[str, Any], hparams: dict[str, Any]) -> Any:
    """COMET's feed-forward: Linear, activation, (dropout), ..., Linear[, final activation]."""
    nn = need("torch.nn")
    layers: list[Any] = []
    sizes = [*hparams.get("hidden_sizes", []), 1]
    for k, _ in enumerate(sizes):
        weight, bias = state.get(f"ff.{3 * k}.weight"), state.get(f"ff.{3 * k}.bias")
        if weight is None or bias is None:
            raise ModelError(f"the checkpoint lacks the estimator's layer {k} (estimator.ff.{3 * k})")
        linear = nn.Linear(weight.shape[1], weight.shape[0])
        linear.load_state_dict({"weight": weight, "bias": bias})
        layers.append(linear)
        activation = (
            hparams.get("activations", "Tanh") if k < len(sizes) - 1 else hparams.get("final_activation")
        )
        if activation:
            layers.append(_activation(nn, activation))
    return nn.Sequential(*layers).eval()


def _activation(nn: Any, name: str) -> Any:
    if not hasattr(nn, name.title()):
        raise ModelError(f"unknown activation {name!r} in the checkpoint")
    return getattr(nn, name.title())()


class CometParts:
    """What every COMET checkpoint holds: the encoder (with its tokenizer), the layer mix and
    the estimator, on ``device`` in ``dtype``; ``kinds`` are the classes the caller reads."""

    def __init__(self, folder: Path, device: str, dtype: Any, kinds: tuple[str, ...]) -> None:
        kind, hparams, state = read_checkpoint(folder)
        if kind not in kinds:
            raise ModelError(
                f"{folder}: a COMET checkpoint of class {kind!r}; this metric reads {', '.join(kinds)}"
            )
        layer = hparams.get("sent_layer", hparams.get("layer", "mix"))
        if layer != "mix":
            raise ModelError(f"{folder}: sentence layer {layer!r}; understudy reads COMET's layer mix")
        encoder = find_encoder(str(hparams.get("pretrained_model", DEFAULT_ENCODER)), folder).folder
        self.encoder = build_encoder(encoder, _part(state, "encoder.model.")).to(device, dtype)
        positions = int(self.encoder.config.max_position_embeddings) - 2
        self.max_positions = positions
        self.tokenizer = XLMRTokenizer(encoder, max_length=positions - 2)
        mix = _part(state, "layerwise_attention.")
        scalars = [
            mix.get(f"scalar_parameters.{i}") for i in range(self.encoder.config.num_hidden_layers + 1)
        ]
        if any(s is None for s in scalars) or "gamma" not in mix:
            raise ModelError(f"{folder}: the checkpoint lacks the layer mix's weights")
        torch = need("torch")
        self.mix = LayerMix(
            torch.cat(scalars).to(device, dtype),
            mix["gamma"].to(device, dtype),
            str(hparams.get("layer_transformation", "softmax")),
            bool(hparams.get("layer_norm", False)),
        )
        self.estimator = _estimator(_part(state, "estimator."), hparams).to(device, dtype)
        self.hparams, self.device = hparams, device
        self.tag_state = _part(state, "hidden2tag.")

    def keep_layers(self, read: int) -> None:
        """Run the encoder only up to the highest layer anything reads (``read``, counting the
        embeddings' output as layer 0): each layer's output depends on the layers below it only,
        so the layers kept give what they gave in the whole encoder. XLM-R XL normalises the
        output of its last layer, so one more layer is kept there (never read); and one layer at
        least, for transformers reports no hidden states from an encoder without layers."""
        layers = self.encoder.encoder.layer
        keep = max(1, read + (1 if self.encoder.config.model_type == "xlm-roberta-xl" else 0))
        if keep < len(layers):
            self.encoder.encoder.layer = layers[:keep]

    def encoded(self, ids: Sequence[Sequence[int]], width: int = 0) -> tuple[Any, Any, Any]:
        """The encoder's every layer over token-id rows padded on the right (to ``width`` at
        least), with the padded ids and the attention mask."""
        torch = need("torch")
        width = max(width, *(len(row) for row in ids))
        pad = self.tokenizer.pad_id
        batch = torch.tensor([[*row, *[pad] * (width - len(row))] for row in ids], device=self.device)
        mask = torch.tensor([[1] * len(row) + [0] * (width - len(row)) for row in ids], device=self.device)
        with torch.inference_mode():
            out = self.encoder(input_ids=batch, attention_mask=mask, output_hidden_states=True)
        return out.hidden_states, batch, mask

    def mixed(self, ids: Sequence[Sequence[int]]) -> tuple[Any, Any, Any]:
        """The layer mix of token-id rows (padded here, on the right), with the padded ids and
        the attention mask."""
        torch = need("torch")
        layers, batch, mask = self.encoded(ids)
        with torch.inference_mode():
            return self.mix(layers, mask), batch, mask


class RegressionModel(CometParts):
    """wmt22-comet-da's computation: src, mt and ref embedded separately (average pooling of
    the layer mix), then ``estimator(mt, ref, mt*ref, |mt-ref|, mt*src, |mt-src|)``. A
    checkpoint class that embeds its texts alike and joins them otherwise (COMET-poly's) names
    its ``kinds`` and says how it estimates."""

    kinds: tuple[str, ...] = KINDS
    """The checkpoint classes read (``class_identifier``)."""

    def __init__(self, folder: Path, device: str, dtype: Any) -> None:
        super().__init__(folder, device, dtype, self.kinds)
        if self.hparams.get("pool", "avg") != "avg":
            raise ModelError(f"{folder}: pool {self.hparams.get('pool')!r}; understudy reads avg")
        self.keep_layers(self.mix.reads - 1)

    def embed(self, ids: Sequence[Sequence[int]]) -> Any:
        """Sentence embeddings of token-id rows: the average of the layer mix."""
        torch = need("torch")
        mixed, batch, mask = self.mixed(ids)
        with torch.inference_mode():
            return average_pool(batch, mixed, mask, self.tokenizer.pad_id)

    def estimate(self, src: Any, mt: Any, ref: Any) -> Any:
        """Segment scores from the three embeddings (one row each)."""
        torch = need("torch")
        features = torch.cat((mt, ref, mt * ref, torch.abs(mt - ref), mt * src, torch.abs(mt - src)), dim=1)
        with torch.inference_mode():
            return self.estimator(features).view(-1)


UNIFIED = ("unified_metric",)
XCOMET = ("xcomet_metric",)


class UnifiedModel(CometParts):
    """COMET's unified metric (CometKiwi, xCOMET): the segments joined into one sequence, mt
    first (``<s> mt </s></s> src </s>``, then ``</s> ref </s>``), scored from the layer mix's
    first position (``<s>``: no pooling, whatever ``pool`` says); a checkpoint trained on word
    tags (xCOMET's) also tags every token from one layer (``word_layer``)."""

    def __init__(self, folder: Path, device: str, dtype: Any, kinds: tuple[str, ...] = UNIFIED) -> None:
        super().__init__(folder, device, dtype, kinds)
        self.cls_id = self.tokenizer.token_id(folder, "<s>")
        self.sep_id = self.tokenizer.token_id(folder, "</s>")
        self.tagger, self.word_layer = None, 0
        if kinds == XCOMET or self.hparams.get("word_level_training"):
            layers = self.encoder.config.num_hidden_layers
            self.tagger, self.word_layer = _tagger(folder, self.tag_state, self.hparams, layers)
            self.tagger = self.tagger.to(device, dtype)
        self.keep_layers(max(self.mix.reads - 1, self.word_layer if self.tagger is not None else 0))

    def sequence(self, parts: Sequence[Sequence[int]]) -> list[int]:
        """One input of COMET's ``concat_sequences``: every pad id dropped (a literal ``<pad>``
        too), the parts joined, and the whole cut to the encoder's 512 positions when the parts'
        insides exceed what their special tokens leave (the final ``</s>`` is then lost)."""
        pad = self.tokenizer.pad_id
        kept = [[t for t in part if t != pad] for part in parts]
        joined = kept[0]
        for other in kept[1:]:
            joined = [self.cls_id, *joined[1:-1], self.sep_id, self.sep_id, *other[1:-1], self.sep_id]
        if sum(len(part) - 2 for part in kept) > self.max_positions - (1 + 2 * len(kept)):
            joined = joined[: self.max_positions]
        return joined

    def scores(self, sequences: Sequence[Sequence[int]]) -> Any:
        """The estimator's score of each sequence, from the mix at its first position."""
        torch = need("torch")
        mixed, _, _ = self.mixed(sequences)
        with torch.inference_mode():
            return self.estimator(mixed[:, 0]).view(-1)

    def tagged(self, sequences: Sequence[Sequence[int]], width: int) -> tuple[Any, Any]:
        """Each sequence's score, and its tokens' label probabilities (softmax of the tagger on
        ``word_layer``) over the first ``width`` positions, pads included."""
        torch = need("torch")
        assert self.tagger is not None
        layers, _, mask = self.encoded(sequences, width)
        with torch.inference_mode():
            scores = self.estimator(self.mix(layers, mask)[:, 0]).view(-1)
            probs = torch.softmax(self.tagger(layers[self.word_layer]), dim=2)[:, :width]
        return scores, probs


def _tagger(folder: Path, state: dict[str, Any], hparams: dict[str, Any], layers: int) -> tuple[Any, int]:
    """The word tagger (``hidden2tag``) and the layer it reads, checked as the reference code
    checks it (``0 <= word_layer <= layers``)."""
    nn = need("torch.nn")
    word_layer = hparams.get("word_layer", 24)
    if not isinstance(word_layer, int) or not 0 <= word_layer <= layers:
        raise ModelError(f"{folder}: word_layer {word_layer!r}; the encoder has layers 0 to {layers}")
    if "weight" not in state or "bias" not in state:
        raise ModelError(f"{folder}: the checkpoint lacks the word tagger (hidden2tag)")
    tagger = nn.Linear(state["weight"].shape[1], state["weight"].shape[0])
    tagger.load_state_dict({"weight": state["weight"], "bias": state["bias"]})
    return tagger.eval(), word_layer
