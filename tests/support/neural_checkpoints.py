"""Tiny randomly initialised COMET checkpoints in the published layout, built alike in the tests
and by scripts/comet_fixtures.py, which runs the reference code (unbabel-comet) on them in an
environment of its own. Nothing here imports understudy.

The layout is what ``comet.load_from_checkpoint`` reads: ``<model>/hparams.yaml`` (its
``class_identifier``) and ``<model>/checkpoints/model.ckpt`` (a Lightning checkpoint: the
state dict and the hyper-parameters), whose ``pretrained_model`` names an encoder folder
(``config.json`` and the tokenizer). Every tensor is drawn from NumPy's generator seeded by the
checkpoint's seed and the tensor's name, so two environments build the same weights.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

TOKENIZER = Path(__file__).parents[1] / "fixtures" / "neural" / "xlmr-tiny"
"""The tiny XLM-R-shaped tokenizer (scripts/tiny_tokenizers.py)."""

HIDDEN, LAYERS, HEADS, FFN = 32, 2, 4, 64
SIZES: dict[str, dict[str, Any]] = {
    "tiny": {
        "hidden_size": HIDDEN,
        "num_hidden_layers": LAYERS,
        "num_attention_heads": HEADS,
        "intermediate_size": FFN,
    },
    # Nine layers, as many as bert-base-multilingual-cased's BERTScore layer: the docs' stand-in.
    "tiny-9": {
        "hidden_size": HIDDEN,
        "num_hidden_layers": 9,
        "num_attention_heads": HEADS,
        "intermediate_size": FFN,
    },
    # xlm-roberta-base's layers on the tests' vocabulary, for BERTScore's benchmark.
    "base": {
        "hidden_size": 768,
        "num_hidden_layers": 12,
        "num_attention_heads": 12,
        "intermediate_size": 3072,
    },
    # xlm-roberta-large's (COMET-22's encoder), for benchmarks: 560M weights, random.
    "large": {
        "hidden_size": 1024,
        "num_hidden_layers": 24,
        "num_attention_heads": 16,
        "intermediate_size": 4096,
        "vocab_size": 250002,
    },
}


def encoder_config(size: str = "tiny", xl: bool = False) -> dict[str, Any]:
    """An XLM-R encoder's config.json: as xlm-roberta-large's (``xl``: xlm-roberta-xl's, xCOMET's
    encoder) but for the sizes of ``size``."""
    vocab = json.loads((TOKENIZER / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
    return {
        "model_type": "xlm-roberta-xl" if xl else "xlm-roberta",
        "architectures": ["XLMRobertaXLForMaskedLM" if xl else "XLMRobertaForMaskedLM"],
        "vocab_size": len(vocab) + 1,  # the <mask> added after the trained pieces
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.1,
        "attention_probs_dropout_prob": 0.1,
        "max_position_embeddings": 514,
        "type_vocab_size": 1,
        "initializer_range": 0.02,
        "layer_norm_eps": 1e-05,
        "pad_token_id": 1,
        "bos_token_id": 0,
        "eos_token_id": 2,
        "position_embedding_type": "absolute",
        **SIZES[size],
    }


def build_encoder(folder: Path, size: str = "tiny", xl: bool = False) -> Path:
    """The encoder folder a checkpoint's ``pretrained_model`` names: config and tokenizer."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copyfile(TOKENIZER / name, folder / name)
    config = encoder_config(size, xl)
    (folder / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    return folder


def _draw(seed: int, name: str, shape: tuple[int, ...]) -> np.ndarray:
    key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")
    rng = np.random.default_rng([seed, key])
    if name.endswith("LayerNorm.weight"):
        return (1.0 + 0.1 * rng.standard_normal(shape)).astype(np.float32)
    if name.endswith("scalar_parameters") or ".scalar_parameters." in name:
        return rng.standard_normal(shape).astype(np.float32)
    scale = 0.02 if name.endswith("bias") else 0.08
    return (scale * rng.standard_normal(shape)).astype(np.float32)


def encoder_shapes(size: str = "tiny", xl: bool = False) -> dict[str, tuple[int, ...]]:
    """The encoder's tensors by name (XLMRobertaModel, or XLMRobertaXLModel, without its
    pooler), from transformers."""
    import torch
    import transformers

    config_class: Any = transformers.XLMRobertaXLConfig if xl else transformers.XLMRobertaConfig
    model_class: Any = transformers.XLMRobertaXLModel if xl else transformers.XLMRobertaModel
    config = config_class(**{k: v for k, v in encoder_config(size, xl).items() if k != "model_type"})
    with torch.device("meta"):
        model = model_class(config, add_pooling_layer=False)
    return {k: tuple(v.shape) for k, v in model.state_dict().items() if v.is_floating_point()}


REGRESSION_HPARAMS: dict[str, Any] = {
    "nr_frozen_epochs": 0.3,
    "keep_embeddings_frozen": True,
    "optimizer": "AdamW",
    "warmup_steps": 0,
    "encoder_learning_rate": 1e-06,
    "learning_rate": 1.5e-05,
    "layerwise_decay": 0.95,
    "encoder_model": "XLM-RoBERTa",
    "pool": "avg",
    "layer": "mix",
    "layer_transformation": "sparsemax",
    "layer_norm": True,
    "loss": "mse",
    "dropout": 0.1,
    "batch_size": 4,
    "train_data": [],
    "validation_data": [],
    "hidden_sizes": [64, 32],
    "activations": "Tanh",
    "final_activation": None,
    "class_identifier": "regression_metric",
}
"""wmt22-comet-da's hyper-parameters (sparsemax, layer norm, average pooling), tiny sizes."""


def regression_state(
    seed: int, hidden_sizes: list[int], size: str = "tiny", features: int = 6, xl: bool = False
) -> dict[str, np.ndarray]:
    """A COMET metric's state dict: the encoder, the layer mix and the estimator, which reads
    ``features`` embeddings side by side (6 for the regression metric, 1 for the unified)."""
    layers, hidden = SIZES[size]["num_hidden_layers"], SIZES[size]["hidden_size"]
    shapes = {f"encoder.model.{k}": v for k, v in encoder_shapes(size, xl).items()}
    shapes |= {f"layerwise_attention.scalar_parameters.{i}": (1,) for i in range(layers + 1)}
    sizes = [features * hidden, *hidden_sizes, 1]
    for k, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        shapes |= {f"estimator.ff.{3 * k}.weight": (n_out, n_in), f"estimator.ff.{3 * k}.bias": (n_out,)}
    state = {name: _draw(seed, name, shape) for name, shape in shapes.items()}
    state["layerwise_attention.gamma"] = np.array([1.0 + 0.2 * (seed % 5)], dtype=np.float32)
    state["layerwise_attention.dropout_mask"] = np.zeros(layers + 1, dtype=np.float32)
    state["layerwise_attention.dropout_fill"] = np.full(layers + 1, -1e20, dtype=np.float32)
    return state


def build_regression(
    folder: Path,
    seed: int = 1,
    size: str = "tiny",
    score_scale: float = 1.0,
    score_shift: float = 0.0,
    **hparams: Any,
) -> Path:
    """A COMET regression checkpoint (wmt22-comet-da's kind) in ``folder``, tiny unless ``size``
    is ``large``, with its encoder in ``folder/encoder``; ``hparams`` override wmt22-comet-da's.
    An xCOMET's estimator is steepened by ``score_scale`` and moved by ``score_shift``, to put
    scores either side of xCOMET's cap at 1."""
    import torch
    import yaml

    xcomet = hparams.get("class_identifier") == "xcomet_metric"
    encoder = build_encoder(folder / "encoder", size, xl=xcomet)
    config = {**REGRESSION_HPARAMS, "pretrained_model": str(encoder.resolve()), **hparams}
    if size == "large" and "hidden_sizes" not in hparams:
        config["hidden_sizes"] = [3072, 1024]  # wmt22-comet-da's estimator
    features = 6 if config["class_identifier"] == "regression_metric" else 1
    state = regression_state(seed, config["hidden_sizes"], size, features, xl=xcomet)
    if xcomet:
        state |= tagger_state(seed, SIZES[size]["hidden_size"])
        last = f"estimator.ff.{3 * len(config['hidden_sizes'])}"
        state[f"{last}.weight"] = np.float32(score_scale) * state[f"{last}.weight"]
        state[f"{last}.bias"] = state[f"{last}.bias"] + np.float32(score_shift)
    tensors = {k: torch.from_numpy(v) for k, v in state.items()}
    (folder / "checkpoints").mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "epoch": 0,
            "global_step": 0,
            "pytorch-lightning_version": "2.5.1",
            "state_dict": tensors,
            "hyper_parameters": config,
        },
        folder / "checkpoints" / "model.ckpt",
    )
    (folder / "hparams.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return folder


SAMPLES: list[dict[str, str]] = [
    {
        "src": "The cat sat on the mat.",
        "mt": "Die Katze saß auf der Matte.",
        "ref": "Die Katze sitzt auf der Matte.",
    },
    {"src": "Hello world.", "mt": "Hallo Welt.", "ref": "Hallo, Welt!"},
    {"src": "", "mt": "Leere Quelle.", "ref": "Eine leere Quelle."},
    {"src": "An empty translation.", "mt": "", "ref": "Eine leere Übersetzung."},
    {"src": "Special tokens in text.", "mt": "<s> Hallo </s> <pad> <unk> <mask>", "ref": "Hallo <pad>"},
    {"src": "Unicode: ﬁ 𝔘 ＡＢＣ", "mt": "Unicode: ﬁ 𝔘 ＡＢＣ", "ref": "Unicode: fi U ABC"},
    {"src": "Repeated.", "mt": "Die Katze saß auf der Matte.", "ref": "Die Katze sitzt auf der Matte."},
    {"src": "Long.", "mt": " ".join(["Das ist ein sehr langer Satz"] * 120), "ref": "Ein kurzer Satz."},
    {"src": " ".join(["A long source sentence"] * 150), "mt": "Kurz.", "ref": "Kurz und gut."},
    {"src": "Spaces  inside\tthe text ", "mt": "  Leerzeichen  ", "ref": "Leerzeichen"},
]
"""Segments of the parity tests: empty ones, literal special tokens, NFKC, lines beyond the
510-token limit, a repeated hypothesis."""

SRC, MT, REF = ([sample[side] for sample in SAMPLES] for side in ("src", "mt", "ref"))
"""The samples' sources, hypotheses and references, each a list in order."""


def comet_fixture() -> dict[str, Any]:
    """unbabel-comet 2.2.7's scores of the samples (tests/fixtures/comet_tiny.json, by
    scripts/comet_fixtures.py)."""
    path = Path(__file__).parents[1] / "fixtures" / "comet_tiny.json"
    fixture: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return fixture


UNIFIED_HPARAMS: dict[str, Any] = {
    "class_identifier": "unified_metric",
    "sent_layer": "mix",
    "word_layer": LAYERS,
    "input_segments": ["mt", "src"],
    "word_level_training": False,
    "loss_lambda": 0.65,
    "error_labels": ["minor", "major"],
    "cross_entropy_weights": None,
    "layer_transformation": "sparsemax_patch",
    "pool": "avg",
    "layer": "mix",
}
"""wmt22-cometkiwi-da's hyper-parameters over the regression metric's (sparsemax_patch: softmax)."""

UNIFIED_VARIANTS: dict[str, tuple[int, dict[str, Any]]] = {
    "kiwi-like": (11, {}),
    "unified-with-ref": (12, {"input_segments": ["mt", "src", "ref"], "layer_transformation": "sparsemax"}),
}
"""The tiny unified checkpoints of the parity tests: CometKiwi's kind, and one that reads
references too (three passes, their mean)."""


def build_unified(folder: Path, seed: int, **hparams: Any) -> Path:
    """A tiny COMET unified checkpoint (CometKiwi's kind) in ``folder``."""
    return build_regression(folder, seed, **{**UNIFIED_HPARAMS, **hparams})


XCOMET_HPARAMS: dict[str, Any] = {
    "class_identifier": "xcomet_metric",
    "encoder_model": "XLM-RoBERTa-XL",
    "sent_layer": "mix",
    "word_layer": LAYERS,
    "word_level_training": True,
    "loss_lambda": 0.055,
    "error_labels": ["minor", "major", "critical"],
    "cross_entropy_weights": [0.08, 0.486, 0.505, 0.533],
    "layer_transformation": "sparsemax",
    "layer_norm": False,
}
"""XCOMET-XL's hyper-parameters over the regression metric's (an XLM-R-XL encoder, word tags
from the last layer), tiny sizes."""

XCOMET_VARIANTS: dict[str, tuple[int, dict[str, Any]]] = {
    "xcomet-like": (21, {"score_scale": 10.0, "score_shift": 0.735}),
    "xcomet-softmax-middle-layer": (22, {"layer_transformation": "softmax", "word_layer": 1}),
}
"""The tiny xCOMET checkpoints of the parity tests: XCOMET-XL's kind, and one tagging from a
middle layer (the residual stream, before the final normalisation) with a softmax mix."""


def tagger_state(seed: int, hidden: int) -> dict[str, np.ndarray]:
    """xCOMET's word tagger (none, minor, major, critical) and its loss's class weights. The
    bias leans towards "none" (and build_regression's estimator towards 1), so that the tiny
    model's spans come and go within a hypothesis and some scores pass the cap at 1."""
    state = {"hidden2tag.weight": 4 * _draw(seed, "hidden2tag.weight", (4, hidden))}
    state["hidden2tag.bias"] = np.array([0.6, 0.0, 0.1, -0.1], dtype=np.float32)
    state["wordloss.weight"] = np.array([0.08, 0.486, 0.505, 0.533], dtype=np.float32)
    return state


def build_xcomet(folder: Path, seed: int, **hparams: Any) -> Path:
    """A tiny xCOMET checkpoint (an XLM-R-XL encoder, the unified metric with word tags)."""
    return build_regression(folder, seed, **{**XCOMET_HPARAMS, **hparams})


REGRESSION_VARIANTS: dict[str, tuple[int, dict[str, Any]]] = {
    "wmt22-like": (1, {}),
    "softmax-no-norm-sigmoid": (
        2,
        {
            "layer_transformation": "softmax",
            "layer_norm": False,
            "final_activation": "Sigmoid",
            "hidden_sizes": [48],
        },
    ),
    "sparsemax-patch": (3, {"layer_transformation": "sparsemax_patch"}),
}
"""The tiny regression checkpoints of the parity tests, by name: seed and hyper-parameters."""


# -- MetricX-24 -------------------------------------------------------------------------------

MT5_TOKENIZER = Path(__file__).parents[1] / "fixtures" / "neural" / "mt5-tiny"
"""The tiny mT5-shaped SentencePiece tokenizer (scripts/tiny_tokenizers.py)."""
MT5_VOCAB, MT5_DIM, MT5_KV, MT5_FF, MT5_HEADS, MT5_LAYERS = 250112, 32, 8, 64, 4, 2
SCORE_ROW = 250089
MT5_SIZES: dict[str, tuple[int, int, int, int, int]] = {
    "tiny": (MT5_DIM, MT5_KV, MT5_FF, MT5_HEADS, MT5_LAYERS),
    # mt5-large's (metricx-24-hybrid-large's), for benchmarks: 1.2B weights, random.
    "large": (1024, 64, 2816, 16, 24),
}
"""d_model, d_kv, d_ff, heads and layers (each stack) by size."""


def metricx_config(size: str = "tiny") -> dict[str, Any]:
    """A MetricX-24 config.json: mT5's shape (gated GELU, untied head, 250112 rows), tiny unless
    ``size`` is ``large``."""
    d_model, d_kv, d_ff, heads, layers = MT5_SIZES[size]
    return {
        "architectures": ["MT5ForRegression"],
        "model_type": "mt5",
        "vocab_size": MT5_VOCAB,
        "d_model": d_model,
        "d_kv": d_kv,
        "d_ff": d_ff,
        "num_layers": layers,
        "num_decoder_layers": layers,
        "num_heads": heads,
        "relative_attention_num_buckets": 32,
        "relative_attention_max_distance": 128,
        "dropout_rate": 0.1,
        "layer_norm_epsilon": 1e-06,
        "initializer_factor": 1.0,
        "feed_forward_proj": "gated-gelu",
        "dense_act_fn": "gelu_new",
        "is_gated_act": True,
        "is_encoder_decoder": True,
        "tie_word_embeddings": False,
        "use_cache": True,
        "pad_token_id": 0,
        "eos_token_id": 1,
        "decoder_start_token_id": 0,
        "tokenizer_class": "T5Tokenizer",
        "torch_dtype": "float32",
    }


def _mt5_shapes(size: str = "tiny") -> dict[str, tuple[int, ...]]:
    d, d_kv, ff, heads, layers = MT5_SIZES[size]
    inner = d_kv * heads
    shapes: dict[str, tuple[int, ...]] = {"shared.weight": (MT5_VOCAB, d), "lm_head.weight": (MT5_VOCAB, d)}

    def attention(prefix: str, bias: bool) -> None:
        shapes.update(
            {f"{prefix}.{m}.weight": (inner, d) for m in "qkv"} | {f"{prefix}.o.weight": (d, inner)}
        )
        if bias:
            shapes[f"{prefix}.relative_attention_bias.weight"] = (32, heads)

    def ffn(prefix: str) -> None:
        shapes.update(
            {
                f"{prefix}.wi_0.weight": (ff, d),
                f"{prefix}.wi_1.weight": (ff, d),
                f"{prefix}.wo.weight": (d, ff),
            }
        )

    for stack, ffn_layer in (("encoder", 1), ("decoder", 2)):
        for i in range(layers):
            block = f"{stack}.block.{i}.layer"
            attention(f"{block}.0.SelfAttention", i == 0)
            if stack == "decoder":
                attention(f"{block}.1.EncDecAttention", False)
            ffn(f"{block}.{ffn_layer}.DenseReluDense")
            shapes.update({f"{block}.{k}.layer_norm.weight": (d,) for k in range(ffn_layer + 1)})
        shapes[f"{stack}.final_layer_norm.weight"] = (d,)
    return shapes


def metricx_state(seed: int, size: str = "tiny") -> dict[str, np.ndarray]:
    """A MetricX-24's tensors. The decoder's start token (id 0) has a large embedding, so that
    the residual stream carries it to the output row, whose weights make the score land inside
    MetricX's [0, 25] for every input (a clamped score would hide any difference). A larger
    model's inner weights shrink with its width, as the tiny one's dynamics ask."""
    inner = 0.3 * float(np.sqrt(MT5_DIM / MT5_SIZES[size][0]))
    state = {}
    for name, shape in _mt5_shapes(size).items():
        if name.endswith("layer_norm.weight"):
            state[name] = (1.0 + 0.1 * _generator(seed, name).standard_normal(shape)).astype(np.float32)
        elif name in ("shared.weight", "lm_head.weight"):
            state[name] = (0.5 * _generator(seed, name).standard_normal(shape)).astype(np.float32)
        else:
            state[name] = (inner * _generator(seed, name).standard_normal(shape)).astype(np.float32)
    state["shared.weight"][0] = 4.0 + state["shared.weight"][0]
    state["lm_head.weight"][SCORE_ROW] = 0.5 + 0.4 * state["lm_head.weight"][SCORE_ROW]
    # The stacks' embeddings are the shared one, saved under their names too (as torch saves
    # a tied tensor): without them, transformers 4.30.2 re-initialises the shared module.
    state["encoder.embed_tokens.weight"] = state["decoder.embed_tokens.weight"] = state["shared.weight"]
    return state


def _generator(seed: int, name: str) -> np.random.Generator:
    key = int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "little")
    return np.random.default_rng([seed, key])


def build_metricx(folder: Path, seed: int = 1, size: str = "tiny", **config: Any) -> Path:
    """A MetricX-24 checkpoint in ``folder`` (config.json and model.safetensors), tiny unless
    ``size`` is ``large``."""
    from safetensors.numpy import save_file

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(
        json.dumps({**metricx_config(size), **config}, indent=1) + "\n", encoding="utf-8"
    )
    state = {
        name: np.array(tensor) for name, tensor in metricx_state(seed, size).items()
    }  # safetensors: no sharing
    save_file(state, str(folder / "model.safetensors"), metadata={"format": "pt"})
    return folder


METRICX_SAMPLES: list[dict[str, str]] = [
    *SAMPLES,
    {"src": "Tokens </s> <pad> <s> <unk>", "mt": "Tokens </s> <pad> <s>", "ref": "Tokens"},
    {"src": " ".join(["Ein sehr langer Quelltext"] * 400), "mt": "Kurz.", "ref": "Kurz und gut."},
]
"""The COMET samples and MetricX's own edges: T5's special tokens in the text, a source that
fills the 1536-token budget by itself (the candidate is cut away)."""


BERTSCORE_SEED = 21
"""The tiny BERTScore model's seed."""


def build_bertscore(folder: Path, seed: int = BERTSCORE_SEED, size: str = "tiny") -> Path:
    """A tiny XLM-R model folder as BERTScore reads one (``AutoModel.from_pretrained``): the
    encoder's config and tokenizer, its weights (the pooler's too) in ``model.safetensors``."""
    from safetensors.numpy import save_file

    build_encoder(folder, size)
    hidden = SIZES[size]["hidden_size"]
    pooler = {"pooler.dense.weight": (hidden, hidden), "pooler.dense.bias": (hidden,)}
    shapes = encoder_shapes(size) | pooler
    save_file(
        {name: _draw(seed, name, shape) for name, shape in shapes.items()}, folder / "model.safetensors"
    )
    return folder


def bertscore_baseline(folder: Path) -> Path:
    """A baseline file in bert-score's layout (comma-separated despite its ``.tsv``: ``LAYER,P,R,F``,
    one row per layer from 0) for the tiny model's layers."""
    rows = ["LAYER,P,R,F"] + [
        f"{layer},{0.5 + 0.01 * layer:.4f},{0.45 + 0.02 * layer:.4f},{0.48 + 0.015 * layer:.4f}"
        for layer in range(LAYERS + 1)
    ]
    path = folder / "baseline.tsv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def bertscore_fixture() -> dict[str, Any]:
    """bert-score 0.3.13's scores of the tiny model (tests/fixtures/bertscore_tiny.json, by
    scripts/bertscore_fixtures.py)."""
    path = Path(__file__).parents[1] / "fixtures" / "bertscore_tiny.json"
    fixture: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return fixture


PEAR_SEED = 31
PEAR_HPARAMS: dict[str, Any] = {
    "class_identifier": "pairwise_metric",
    "encoder_model": "XLM-RoBERTa",
    "blend": "last",
    "task": "regression",
    "use_antisymmetric_head": True,
    "learn_score_scale": True,
    "layer_norm_before_head": False,
    "hidden_sizes": [64, 32, 16],
    "activations": "GELU",
    "dropout": 0.1,
    "final_activation": None,
    "keep_embeddings_frozen": False,
}
"""The released PEAR checkpoints' hyper-parameters (an antisymmetric regression head over the
last layer's token states), tiny sizes."""


def pear_state(seed: int, size: str = "tiny") -> dict[str, np.ndarray]:
    """A PEAR model's state dict: the encoder, the span projection (its LayerNorm at index 2),
    the pair head and the score scale's raw parameter."""
    hidden = SIZES[size]["hidden_size"]
    shapes = {f"encoder.model.{k}": v for k, v in encoder_shapes(size).items()}
    shapes |= {"span_proj.0.weight": (hidden, 3 * hidden), "span_proj.0.bias": (hidden,)}
    shapes |= {"span_proj.2.LayerNorm.weight": (hidden,), "span_proj.2.bias": (hidden,)}
    sizes = [hidden, *PEAR_HPARAMS["hidden_sizes"], 1]
    for k, (n_in, n_out) in enumerate(itertools.pairwise(sizes)):
        shapes |= {f"pair_head.ff.{3 * k}.weight": (n_out, n_in), f"pair_head.ff.{3 * k}.bias": (n_out,)}
    state = {name: _draw(seed, name, shape) for name, shape in shapes.items()}
    state["span_proj.2.weight"] = state.pop("span_proj.2.LayerNorm.weight")  # drawn as a LayerNorm's
    last = f"pair_head.ff.{3 * len(PEAR_HPARAMS['hidden_sizes'])}.weight"
    state[last] = np.float32(25.0) * state[last]  # scores of a size the comparison can see
    state["_alpha_raw"] = np.array(1.5 + 0.1 * (seed % 3), dtype=np.float32)
    return state


def build_pear(folder: Path, seed: int = PEAR_SEED, pretrained_model: str | None = None) -> Path:
    """A tiny PEAR checkpoint in pear-mt's layout: ``hparams.yaml`` and ``checkpoints/model.ckpt``
    (a Lightning checkpoint of plain types, as ``weights_only`` loading wants), naming its
    encoder folder (config and tokenizer), built in ``folder/encoder`` (``pretrained_model``: named
    so instead, as a published checkpoint names a hub encoder)."""
    import torch
    import yaml

    encoder = build_encoder(folder / "encoder")
    config = {**PEAR_HPARAMS, "pretrained_model": pretrained_model or str(encoder.resolve())}
    tensors = {k: torch.from_numpy(np.asarray(v)) for k, v in pear_state(seed).items()}
    (folder / "checkpoints").mkdir(parents=True, exist_ok=True)
    saved = {"epoch": 0, "global_step": 0, "pytorch-lightning_version": "2.6.6"}
    torch.save(
        {**saved, "state_dict": tensors, "hyper_parameters": config}, folder / "checkpoints" / "model.ckpt"
    )
    (folder / "hparams.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return folder


BLEURT_SEED = 41
BLEURT_TOKENIZER = Path(__file__).parents[1] / "fixtures" / "neural" / "bleurt-tiny"
"""The tiny SentencePiece tokenizer of BLEURT-20's kind (scripts/tiny_tokenizers.py)."""
BLEURT_CONFIG: dict[str, Any] = {
    "architectures": ["BleurtForSequenceClassification"],
    "model_type": "bleurt",
    "vocab_size": 1000,
    "embedding_size": 16,
    "hidden_size": HIDDEN,
    "num_hidden_layers": LAYERS,
    "num_attention_heads": HEADS,
    "intermediate_size": FFN,
    "hidden_act": "gelu",
    "hidden_dropout_prob": 0.1,
    "attention_probs_dropout_prob": 0.1,
    "max_position_embeddings": 512,
    "type_vocab_size": 2,
    "initializer_range": 0.02,
    "layer_norm_eps": 1e-12,
    "pad_token_id": 0,
    "num_labels": 1,
    "tie_word_embeddings": False,
}
"""lucadiliello/BLEURT-20's config.json (RemBERT's shape: embeddings narrower than the layers,
projected up), tiny sizes."""


def bleurt_shapes(config: dict[str, Any] = BLEURT_CONFIG) -> dict[str, tuple[int, ...]]:
    """bleurt-pytorch's ``BleurtForSequenceClassification`` tensors by name."""
    v, e, h, f = (config[k] for k in ("vocab_size", "embedding_size", "hidden_size", "intermediate_size"))
    shapes: dict[str, tuple[int, ...]] = {
        "bleurt.embeddings.word_embeddings.weight": (v, e),
        "bleurt.embeddings.position_embeddings.weight": (config["max_position_embeddings"], e),
        "bleurt.embeddings.token_type_embeddings.weight": (config["type_vocab_size"], e),
        "bleurt.embeddings.LayerNorm.weight": (e,),
        "bleurt.embeddings.LayerNorm.bias": (e,),
        "bleurt.encoder.embedding_projection.weight": (h, e),
        "bleurt.encoder.embedding_projection.bias": (h,),
    }
    for i in range(config["num_hidden_layers"]):
        layer = f"bleurt.encoder.layer.{i}"
        attention = ("self.query", "self.key", "self.value", "output.dense")
        for part in (f"attention.{name}" for name in attention):
            shapes |= {f"{layer}.{part}.weight": (h, h), f"{layer}.{part}.bias": (h,)}
        shapes |= {f"{layer}.intermediate.dense.weight": (f, h), f"{layer}.intermediate.dense.bias": (f,)}
        shapes |= {f"{layer}.output.dense.weight": (h, f), f"{layer}.output.dense.bias": (h,)}
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            shapes |= {f"{layer}.{norm}.weight": (h,), f"{layer}.{norm}.bias": (h,)}
    shapes |= {"bleurt.pooler.dense.weight": (h, h), "bleurt.pooler.dense.bias": (h,)}
    return shapes | {"classifier.weight": (1, h), "classifier.bias": (1,)}


def build_bleurt(folder: Path, seed: int = BLEURT_SEED) -> Path:
    """A tiny BLEURT-20 checkpoint in lucadiliello/BLEURT-20's layout: ``config.json``,
    ``pytorch_model.bin`` (a plain state dict) and the SentencePiece tokenizer's files."""
    import torch

    folder.mkdir(parents=True, exist_ok=True)
    for name in ("spm.model", "tokenizer_config.json", "special_tokens_map.json"):
        shutil.copyfile(BLEURT_TOKENIZER / name, folder / name)
    (folder / "config.json").write_text(json.dumps(BLEURT_CONFIG, indent=1) + "\n", encoding="utf-8")
    state = {name: _draw(seed, name, shape) for name, shape in bleurt_shapes().items()}
    state["classifier.weight"] = np.float32(10.0) * state["classifier.weight"]  # scores of a visible size
    torch.save({k: torch.from_numpy(v) for k, v in state.items()}, folder / "pytorch_model.bin")
    return folder


COMET_POLY_VARIANTS: dict[str, tuple[str, int, int]] = {
    "base": ("polycand_metric", 0, 51),
    "cand1": ("polycand_metric", 1, 52),
    "cand2": ("polycand_metric", 2, 53),
    "ic1": ("polyic_metric", 1, 54),
    "ic3": ("polyic_metric", 3, 55),
}
"""zouharvi/COMET-poly-*-wmt25 by variant: the class, how many other translations (or in-context
examples) it reads, and the tiny stand-in's seed."""
COMET_POLY_HPARAMS: dict[str, Any] = {
    **REGRESSION_HPARAMS,
    "layer_transformation": "sparsemax",
    "layer_norm": False,
    "batch_size": 16,
    "load_pretrained_weights": True,
    "local_files_only": False,
    "backprop_additional_translation": True,
    "use_ref": False,
}
"""The wmt25 configs' hyper-parameters (comet_poly/configs/experimental/wmt25/), tiny sizes."""


def comet_poly_features(variant: str) -> tuple[int, int]:
    """The estimator's input of a variant: how many embeddings side by side, and how many raw
    example scores after them (PolyCand: 4 + 5 a candidate; PolyIC: 4 + 8 an example, and its score)."""
    kind, extra, _ = COMET_POLY_VARIANTS[variant]
    return (4 + 5 * extra, 0) if kind == "polycand_metric" else (4 + 8 * extra, extra)


def build_comet_poly(folder: Path, variant: str, pretrained_model: str | None = None) -> Path:
    """A tiny COMET-poly checkpoint of ``variant`` in the published layout (COMET's), with its
    encoder in ``folder/encoder`` (``pretrained_model``: named so instead, as a published
    checkpoint names xlm-roberta-large)."""
    import torch
    import yaml

    kind, extra, seed = COMET_POLY_VARIANTS[variant]
    flags = [k < extra for k in range(5)]
    config = {**COMET_POLY_HPARAMS, "class_identifier": kind, "additional_translation_in": flags}
    if kind == "polycand_metric":
        config |= {"additional_score_in": [False] * 5, "additional_score_out": [False] * 5}
    encoder = build_encoder(folder / "encoder")
    config["pretrained_model"] = pretrained_model or str(encoder.resolve())
    embeddings, scores = comet_poly_features(variant)
    state = regression_state(seed, config["hidden_sizes"], "tiny", embeddings)
    if scores:  # the raw example scores (0-100), drawn small enough not to saturate the Tanh
        first = state["estimator.ff.0.weight"]
        drawn = 0.01 * _draw(seed, "estimator.ff.0.weight.scores", (first.shape[0], scores))
        state["estimator.ff.0.weight"] = np.concatenate([first, drawn], axis=1)
    (folder / "checkpoints").mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "epoch": 0,
            "global_step": 0,
            "pytorch-lightning_version": "2.5.1",
            "state_dict": {k: torch.from_numpy(v) for k, v in state.items()},
            "hyper_parameters": config,
        },
        folder / "checkpoints" / "model.ckpt",
    )
    (folder / "hparams.yaml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
    return folder
