"""MetricX-24 (``google/metricx-24-hybrid-*-v2p6``) as a metric object: lower is better, 0 to 25.

The score is MetricX's ``predict.py`` score: the input string ``source: S candidate: H
reference: R`` (QE drops the reference), tokenized with the mT5 tokenizer (``tokenizer``, its
own argument as in ``predict.py``), cut to 1536 tokens with the final ``</s>`` then removed;
one decoder step from token 0; the logit of token 250089, clamped to [0, 25]. The model is
transformers' mT5 read from the checkpoint's folder (its dtype as saved, ``torch_dtype="auto"``,
unless a precision is asked for). Work is shared as COMET's is: distinct inputs once, a cache.

>>> MetricX.name_of("google/metricx-24-hybrid-xl-v2p6", qe=True)
'MetricX-24-QE'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from os import PathLike, fspath
from pathlib import Path
from typing import Any, Self

from understudy.computed.cache import ScoreCache
from understudy.computed.metric import Item, Progress
from understudy.computed.metricx import DEFAULT_MODEL, DEFAULT_TOKENIZER, MetricXConfig
from understudy.errors import InputError, ModelError
from understudy.neural._extra import need, quietly
from understudy.neural.base import NeuralMetric, device_of
from understudy.neural.checkpoints import named_by
from understudy.neural.spm import t5_tokenizer

MAX_INPUT = 1536
"""predict.py's ``max_input_length`` for MetricX-24 (1024 for MetricX-23)."""
SCORE_TOKEN = 250089
"""The output row MetricX reads (``<extra_id_10>`` in mT5's vocabulary)."""
TOKENIZER_FILES = ["spiece.model", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"]


def metricx_input(source: str, hypothesis: str, reference: str | None) -> str:
    """MetricX-24's input string (empty fields leave their spaces, as predict.py's do).

    >>> metricx_input("Hallo", "Hello", None)
    'source: Hallo candidate: Hello'
    """
    text = "source: " + source + " candidate: " + hypothesis
    return text if reference is None else text + " reference: " + reference


class _Model:
    """mT5 (transformers') with MetricX's head: one decoder step, one output row."""

    def __init__(self, folder: Any, tokenizer: Any, device: str, dtype: Any) -> None:
        transformers, torch = need("transformers"), need("torch")
        config = transformers.AutoConfig.from_pretrained(str(folder))
        if config.model_type not in ("mt5", "t5") or config.vocab_size <= SCORE_TOKEN:
            raise ModelError(
                f"{folder}: a {config.model_type!r} model of {config.vocab_size} rows; MetricX-24 is mT5 with"
                f" more than {SCORE_TOKEN}"
            )
        # Eager attention, as transformers 4.30.2 computes it: SDPA's other order of sums moves
        # a 1535-token input's score by up to 1e-4, eager's by under 6e-6.
        kwargs: dict[str, Any] = {
            "dtype": dtype if dtype is not None else "auto",
            "attn_implementation": "eager",
        }
        # dtype is None where the precision asked is the file's: transformers maps the file then.
        model = (lean_mt5(folder, config, dtype) if dtype is not None else None) or quietly(
            lambda: transformers.MT5ForConditionalGeneration.from_pretrained(str(folder), **kwargs)
        )
        self.model = model.to(device).eval()
        self.row = self.model.lm_head.weight[SCORE_TOKEN : SCORE_TOKEN + 1].detach()
        # As config.json says it (transformers 5 reports mT5's tie_word_embeddings as true even
        # where the file says false): the reference code rescales only for a tied head.
        tied = _raw_config(folder).get("tie_word_embeddings", True)
        self.scale = config.d_model**-0.5 if tied else None
        self.tokenizer, self.device, self.torch = tokenizer, device, torch
        self.pad_id = int(config.pad_token_id or 0)

    def tokenize(self, texts: Sequence[str]) -> tuple[list[list[int]], int]:
        """Ids as predict.py feeds them: cut to 1536 with ``</s>`` kept, then ``</s>`` removed."""
        rows, cut = [], 0
        for encoding in self.tokenizer.encode_batch(list(texts)):
            ids = encoding.ids
            if len(ids) > MAX_INPUT:
                ids, cut = [*ids[: MAX_INPUT - 1], ids[-1]], cut + 1
            rows.append(ids[:-1])
        return rows, cut

    def predict(self, rows: Sequence[Sequence[int]]) -> list[float]:
        """Scores of token-id rows (padded on the right, masked)."""
        torch = self.torch
        width = max(1, max(len(r) for r in rows))
        ids = torch.tensor([[*r, *[self.pad_id] * (width - len(r))] for r in rows], device=self.device)
        mask = torch.tensor([[1] * len(r) + [0] * (width - len(r)) for r in rows], device=self.device)
        start = torch.zeros((len(rows), 1), dtype=torch.long, device=self.device)
        with torch.inference_mode():
            encoded = self.model.encoder(input_ids=ids, attention_mask=mask).last_hidden_state
            hidden = self.model.decoder(
                input_ids=start, encoder_hidden_states=encoded, encoder_attention_mask=mask, use_cache=False
            ).last_hidden_state
            if self.scale is not None:
                hidden = hidden * self.scale
            logits = torch.nn.functional.linear(hidden[:, 0], self.row)[:, 0]
            return [float(v) for v in torch.clamp(logits, 0, 25).float().cpu().tolist()]


class MetricX(NeuralMetric):
    """MetricX-24 of a checkpoint (a hub name, ``NAME@REVISION`` or a local folder: config.json
    and the weights) and the mT5 tokenizer ``tokenizer`` (likewise); ``qe`` scores without
    references. Lower is better. Options as :class:`~understudy.neural.COMET`'s.
    """

    kind = "metricx-24"
    higher_is_better = False
    block = 256
    marker = "config.json"
    weights = "config.json"
    reads = ("config.json", "*.safetensors", "*.safetensors.index.json", "*.bin", "*.bin.index.json")

    @classmethod
    def recognises(cls, folder: Path) -> bool:
        """A ``config.json`` of an mT5 (other models' checkpoints hold one too)."""
        return super().recognises(folder) and _model_type(folder) == "mt5"

    @classmethod
    def names_beside(cls, folder: Path, tokenizer: str) -> tuple[str, list[str]]:
        """The mT5 ``tokenizer``, which a MetricX checkpoint does not name (predict.py's ``--tokenizer``)."""
        return tokenizer, TOKENIZER_FILES

    def __init__(
        self,
        model: str | PathLike[str] = DEFAULT_MODEL,
        *,
        tokenizer: str | PathLike[str] = DEFAULT_TOKENIZER,
        qe: bool = False,
        batch_size: int = 1,
        device: str = "auto",
        precision: str | None = None,
        cache: ScoreCache | str | PathLike[str] | None = "default",
    ) -> None:
        checkpoint = self.find_checkpoint(model)
        saved = _saved_precision(checkpoint.folder)
        super().__init__(
            checkpoint, batch_size=batch_size, device=device, precision=precision or saved, cache=cache
        )
        # Beside or inside the checkpoint's folder first (fetch-model --to puts it there).
        self.tokenizer_checkpoint = named_by(
            fspath(tokenizer), checkpoint.folder, TOKENIZER_FILES, "--metricx-tokenizer"
        )
        self.qe = bool(qe)
        self._model: _Model | None = None
        self._as_saved = precision is None or precision == saved

    @classmethod
    def from_config(cls, config: MetricXConfig, pair: str | None = None) -> Self:
        """The metric as its command-line configuration says (:mod:`understudy.computed.metricx`;
        its precision: as the checkpoint was saved, unless asked)."""
        running = config.running() | {"precision": config.precision}
        return cls(config.model, tokenizer=config.tokenizer, qe=config.qe, **running)

    @staticmethod
    def name_of(model: str, qe: bool) -> str:
        """``MetricX-24`` (``-QE`` without references) for a MetricX-24 checkpoint, else ``MetricX``."""
        base = "MetricX-24" if "metricx-24" in model.lower() else "MetricX"
        return f"{base}-QE" if qe else base

    @property
    def name(self) -> str:
        """``MetricX-24`` or ``MetricX-24-QE`` (``MetricX`` for another checkpoint)."""
        return self.name_of(self.checkpoint.name, self.qe)

    def remote(self) -> tuple[type, dict[str, Any]]:
        """The class and options that make this metric again on a Dask worker."""
        return type(self), {
            "model": self.checkpoint.spec(),
            "tokenizer": self.tokenizer_checkpoint.spec(),
            "qe": self.qe,
            "batch_size": self.batch_size,
            "device": self.requested_device,
            "precision": self.precision,
        }

    def uses_reference(self) -> bool:
        """Whether references are read (not in QE)."""
        return not self.qe

    def reads_references(self) -> bool:
        """Not in QE."""
        return not self.qe

    def computed_by(self) -> dict[str, str]:
        """As every neural metric's, the tokenizer's name and revision in the model's."""
        pinned = super().computed_by()
        tokenizer = self.tokenizer_checkpoint
        pinned["model"] += f"+{tokenizer.name}"
        pinned["revision"] += f"+{tokenizer.revision}" if tokenizer.revision else ""
        return pinned

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """MetricX's input string."""
        if source is None:
            raise InputError("MetricX-24 needs the source of every segment (--source FILE, or sources=...)")
        if not self.qe and reference is None:
            raise InputError("MetricX-24 with references needs one per segment (or qe=True)")
        return (metricx_input(source, hypothesis, None if self.qe else reference),)

    def begin(self) -> None:
        """Read the model and the tokenizer (once)."""
        if self._model is None:
            tokenizer = t5_tokenizer(self.tokenizer_checkpoint.folder)
            dtype = None if self._as_saved else self.dtype()
            self._model = _Model(self.checkpoint.folder, tokenizer, device_of(self.device), dtype)

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        """Score the block's inputs, batched by token length."""
        model = self._model
        assert model is not None
        rows, cut = model.tokenize([item[0] for item in items])
        self.truncated += cut
        scores = [0.0] * len(items)
        for chosen in self.batches([len(r) for r in rows]):
            for k, score in zip(chosen, model.predict([rows[k] for k in chosen]), strict=True):
                scores[k] = score
            if progress is not None:
                progress(len(chosen))
        return scores


SLICE_BYTES = 1 << 20
"""At most this much of one tensor is read from the file at a time (1 MiB)."""


def lean_mt5(folder: Path, config: Any, dtype: Any) -> Any | None:
    """The mT5 model of ``folder``'s safetensors files in ``dtype``, read straight into that
    precision: laid out without memory, each tensor the model holds (a tied
    one once) filled from the file a slice at a time, so host memory holds the weights once at
    that precision and a slice; ``None`` where the folder has no safetensors (transformers then
    reads its ``.bin``). Used where the precision asked is not the file's: where it is,
    transformers maps the file and copies nothing."""
    files = sorted(folder.glob("*.safetensors"))
    if not files:
        return None
    transformers, torch = need("transformers"), need("torch")
    safe_open = need("safetensors").safe_open
    config._attn_implementation = "eager"
    # transformers 5 ties the encoder's and decoder's embeddings and the output layer to
    # `shared` all or none; mT5 ties the embeddings, and the output layer as config.json says.
    tied = bool(_raw_config(folder).get("tie_word_embeddings", True))
    config.tie_word_embeddings = True
    with torch.device("meta"):
        model = transformers.MT5ForConditionalGeneration(config)
        if not tied:
            model.lm_head.weight = torch.nn.Parameter(torch.empty_like(model.lm_head.weight))
    config.tie_word_embeddings = tied
    aliases = _aliases(model)  # a tied tensor is read once, under its first name
    wanted = {**dict(model.named_parameters()), **dict(model.named_buffers())}
    state: dict[str, Any] = {}
    for file in files:
        with safe_open(str(file), framework="pt") as opened:
            for key in opened.keys():  # noqa: SIM118 (safe_open is no mapping)
                if key in wanted and key not in state:
                    state[key] = _read(opened.get_slice(key), dtype, torch)
    absent = sorted(set(wanted) - set(state))
    if absent:
        raise ModelError(f"{folder}: the checkpoint lacks {', '.join(absent[:3])}")
    model.load_state_dict(state, strict=False, assign=True)
    for name, canonical in aliases.items():  # loading assigned the first name only
        owner, _, leaf = name.rpartition(".")
        setattr(model.get_submodule(owner), leaf, model.get_parameter(canonical))
    return model


def _aliases(model: Any) -> dict[str, str]:
    """Each other name of a tied parameter, to its first name."""
    first: dict[int, str] = {}
    other: dict[str, str] = {}
    for name, parameter in model.named_parameters(remove_duplicate=False):
        canonical = first.setdefault(id(parameter), name)
        if canonical != name:
            other[name] = canonical
    return other


def _read(part: Any, dtype: Any, torch: Any) -> Any:
    """One tensor of a safetensors file in ``dtype``, its rows read :data:`SLICE_BYTES` at a time."""
    shape = part.get_shape()
    out = torch.empty(shape, dtype=dtype)
    if not shape:
        out.copy_(part[...])
        return out
    row = max(1, int(torch.Size(shape[1:]).numel()) * 4)
    step = max(1, SLICE_BYTES // row)
    for start in range(0, shape[0], step):
        out[start : start + step] = part[start : start + step].to(dtype)
    return out


def _raw_config(folder: Any) -> dict[str, Any]:
    """The checkpoint's config.json as written."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ModelError(f"{folder / 'config.json'}: not a readable JSON file ({err})") from None
    if not isinstance(config, dict):
        raise ModelError(f"{folder / 'config.json'}: not a JSON object")
    return config


def _saved_precision(folder: Any) -> str:
    """The precision the checkpoint was saved in (its config's dtype): the ``-bfloat16``
    variants load as bf16, as ``torch_dtype="auto"`` loads them."""
    config = _raw_config(folder)
    saved = str(config.get("torch_dtype") or config.get("dtype") or "float32")
    names = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}
    if saved not in names:
        raise ModelError(f"{folder / 'config.json'}: unknown dtype {saved!r}")
    return names[saved]


def _model_type(folder: Path) -> str | None:
    """The ``model_type`` of the folder's ``config.json`` (``None``: unreadable or absent)."""
    try:
        return str(_raw_config(folder).get("model_type"))
    except ModelError:
        return None
