"""BERTScore as a metric object: bert-score 0.3.13's precision, recall and F1.

A text is stripped (Python's whitespace), then tokenized by its model's ``tokenizer.json`` with
the special tokens and cut at the tokenizer's ``model_max_length`` (the specials kept); a
byte-level tokenizer (RoBERTa, GPT-2) gets the leading space that bert-score's slow tokenizer
adds. The embeddings are the hidden states of layer ``num_layers`` (0: the embeddings' output),
L2-normalised. Each hypothesis token takes its best cosine with any reference token and each
reference token its best with any hypothesis token, the special tokens included on the matched
side; P and R are their weighted means (weight 0 for the first and last special token; with
``idf``, log((M+1)/(df+1)) over the M references given), F = 2PR/(P+R) (NaN as 0). An empty
hypothesis or reference has P = R = 0. Of several references each of P, R and F is the best
one's, apart. A baseline file rescales each as (x-b)/(1-b).

Each segment is matched alone: bert-score pads a batch of segments and floors a padded cosine
at 0, which only a token whose every cosine is negative can feel; understudy's numbers are
bert-score's at ``batch_size=1``. The work is shared as COMET's: each distinct text embedded
once, batched by length, the score cache kept.

>>> BERTScore.name_of(idf=True, rescaled=False)
'BERTScore-idf'
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from os import PathLike, fspath
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Self

from understudy.computed.bertscore import LAYERS, BERTScoreConfig, default_model
from understudy.computed.cache import ScoreCache, segment_key
from understudy.computed.metric import Item, Progress, References
from understudy.errors import InputError, ModelError
from understudy.metrics.scores import ScoresStats
from understudy.neural._extra import need, quietly
from understudy.neural.base import NeuralMetric, batches, device_of
from understudy.neural.checkpoints import Checkpoint
from understudy.neural.xlmr import Tokenized

TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json")
WEIGHT_FILES = ("*.safetensors", "*.safetensors.index.json", "*.bin", "*.bin.index.json")
PAIRS = 64
"""Pairs matched at once (their similarities padded to the longest of each side)."""


class Segment(NamedTuple):
    """One segment's BERTScore: precision, recall and F1."""

    precision: float
    recall: float
    f1: float


@dataclass(frozen=True)
class IdfWeights:
    """Token weights by id from a reference corpus: ``log((M+1)/(df+1))`` each, ``unseen`` for a
    token no reference holds (bert-score's ``get_idf_dict``)."""

    weights: tuple[tuple[int, float], ...]
    unseen: float

    @classmethod
    def of(cls, tokenized: Sequence[Sequence[int]]) -> IdfWeights:
        """The weights of the token ids of the references (each counted once a reference)."""
        counts = Counter(token for ids in tokenized for token in set(ids))
        total = len(tokenized)
        weights = tuple(sorted((t, math.log((total + 1) / (c + 1))) for t, c in counts.items()))
        return cls(weights, math.log(total + 1))

    @cached_property
    def table(self) -> dict[int, float]:
        """The weights as a mapping."""
        return dict(self.weights)

    def digest(self) -> str:
        """What keys the cache beside the texts: the scores depend on the reference corpus."""
        return hashlib.sha256(json.dumps([self.weights, self.unseen]).encode()).hexdigest()[:16]


class BERTScore(NeuralMetric):
    """BERTScore of the model ``model`` (a hub name, ``NAME@REVISION`` or a local folder holding
    ``config.json``, ``tokenizer.json`` and the weights; default: bert-score's for ``lang``) at
    layer ``num_layers`` (default: bert-score's table, :data:`~understudy.computed.bertscore.LAYERS`);
    ``idf`` weights tokens by their idf over the references of each call (or by given
    :class:`IdfWeights`); ``baseline`` is bert-score's baseline file (``LAYER,P,R,F``, its row
    ``num_layers`` by position) to rescale with. The score is F1; :meth:`sentence_scores` gives
    precision, recall and F1. Other options as :class:`~understudy.neural.COMET`'s.

    >>> BERTScore.kind, BERTScore.higher_is_better
    ('bertscore', True)
    """

    kind = "bertscore"
    block = 1024
    unit = "texts"
    detailed = True
    marker = "config.json"
    weights = "config.json"
    reads = ("config.json", *TOKENIZER_FILES, *WEIGHT_FILES)

    @classmethod
    def recognises(cls, folder: Path) -> bool:
        """A model folder with its own ``tokenizer.json`` (BERTScore's model names nothing beside it)."""
        return super().recognises(folder) and (folder / "tokenizer.json").is_file()

    @classmethod
    def names_beside(cls, folder: Path, tokenizer: str) -> None:
        """Nothing: the model's folder holds its tokenizer."""
        return None

    def __init__(
        self,
        model: str | PathLike[str] | None = None,
        *,
        num_layers: int | None = None,
        idf: bool | IdfWeights = False,
        baseline: str | PathLike[str] | None = None,
        lang: str | None = None,
        batch_size: int = 64,
        device: str = "auto",
        precision: str = "fp32",
        cache: ScoreCache | str | PathLike[str] | None = "default",
    ) -> None:
        checkpoint = self.find_checkpoint(default_model(lang) if model is None else model)
        super().__init__(checkpoint, batch_size=batch_size, device=device, precision=precision, cache=cache)
        self.lang = lang
        self.num_layers = self.layer_of(checkpoint, num_layers)
        self.idf = idf
        self.baseline_file = None if baseline is None else Path(baseline)
        self.baseline = None if baseline is None else read_baseline(Path(baseline), self.num_layers)
        self.tokenizer = _Tokenizer(checkpoint.folder)
        self._weights: IdfWeights | None = idf if isinstance(idf, IdfWeights) else None
        self._model: Any = None
        self._embedded: dict[str, Any] = {}

    @classmethod
    def layer_of(cls, checkpoint: Checkpoint, num_layers: int | None) -> int:
        """The layer asked, else bert-score's for the model (its table)."""
        return _layer_of(checkpoint.name, num_layers)

    def fix_idf(self, references: Sequence[str]) -> None:
        """Weight tokens by their idf over ``references`` from now on, whatever each call's
        references are (what HF evaluate's cached scorer does: ``understudy.evaluate``)."""
        self.idf = self._weights = IdfWeights.of(self.tokenizer(list(references)).ids)

    @staticmethod
    def name_of(idf: bool, rescaled: bool) -> str:
        """The name its scores print under: ``BERTScore``, with ``-idf`` and ``-rescaled``."""
        return "BERTScore" + ("-idf" if idf else "") + ("-rescaled" if rescaled else "")

    @property
    def name(self) -> str:
        """``BERTScore``, ``BERTScore-idf``, ``BERTScore-rescaled``, ``BERTScore-idf-rescaled``."""
        return self.name_of(bool(self.idf), self.baseline is not None)

    @classmethod
    def from_config(cls, config: BERTScoreConfig, pair: str | None = None) -> Self:
        """The metric as its command-line configuration says (:mod:`understudy.computed.bertscore`);
        the pair's target language picks the default model."""
        lang = (pair.partition("-")[2] or None) if pair else None
        return cls(
            config.model,
            num_layers=config.layers,
            idf=config.idf,
            baseline=config.baseline,
            lang=lang,
            **config.running(),
        )

    def remote(self) -> tuple[type, dict[str, Any]]:
        """The class and options that make this metric again on a Dask worker (the idf weights
        of the call's references travel with it)."""
        options = {
            "num_layers": self.num_layers,
            "idf": self._weights if self.idf else False,
            "baseline": None if self.baseline_file is None else fspath(self.baseline_file),
            "batch_size": self.batch_size,
            "device": self.requested_device,
            "precision": self.precision,
        }
        return type(self), {"model": self.checkpoint.spec(), **options}

    def computed_by(self) -> dict[str, str]:
        """As every neural metric's, with the layer, the idf weighting, the baseline's digest
        and the language where one was given (the settings)."""
        settings = [f"L{self.num_layers}", "idf" if self.idf else "no-idf"]
        if self.baseline_file is not None:
            settings.append("rescaled:" + hashlib.sha256(self.baseline_file.read_bytes()).hexdigest()[:12])
        if self.lang:
            settings.append(f"lang:{self.lang}")
        return super().computed_by() | {"settings": "+".join(settings)}

    def cache_key(self, item: Item) -> bytes:
        """As every metric's; with idf, the weights' digest too (they come from the references)."""
        extra = self._weights.digest() if self.idf and self._weights is not None else ""
        return segment_key("|".join((self.kind, *self.computed_by().values(), extra)), item)

    def statistics(
        self,
        systems: Mapping[str, Sequence[str]],
        references: Sequence[Sequence[str]] | None,
        sources: Sequence[str] | None = None,
        progress: Progress | None = None,
    ) -> list[ScoresStats]:
        """Each system's F1 as statistics, against every reference stream (the best of them)."""
        per = None if references is None else list(zip(*references, strict=True))
        return self.system_scores(systems, per, sources, progress=progress).segment_stats_many(list(systems))

    def items_of(
        self, systems: Mapping[str, Sequence[str]], refs: References, sources: Sequence[str] | None
    ) -> dict[str, list[Item]]:
        """Each segment's hypothesis and its references: one string a segment, sacrebleu's
        streams, or bert-score's list of references a hypothesis. With idf, the weights come
        from the references (each counted once where it stands)."""
        count = self.check(systems, None, sources)
        per = references_of(refs, count)
        if self.idf is True:
            self._weights = IdfWeights.of(self.tokenizer([r for group in per for r in group]).ids)
        return {system: [(hyps[k], *per[k]) for k in range(count)] for system, hyps in systems.items()}

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """The hypothesis and its reference."""
        if reference is None:
            raise InputError("BERTScore needs a reference for every segment")
        return (hypothesis, reference)

    def begin(self) -> None:
        """Read the model (once, cut at the layer) and start a call's embeddings afresh."""
        if self._model is None:
            self._model = _load(self.checkpoint.folder, self.num_layers, device_of(self.device), self.dtype())
        self._embedded = {}

    def detailed_block(self, items: list[Item], progress: Progress | None) -> tuple[list[float], list[str]]:
        """Each item's F1, with its precision, recall and F1 as JSON."""
        wanted = [t for t in dict.fromkeys(t for item in items for t in item) if t not in self._embedded]
        self._embedded |= self._embed(wanted, progress)
        pairs = list(dict.fromkeys((item[0], ref) for item in items for ref in item[1:]))
        matched = dict(zip(pairs, self._matched(pairs), strict=True))
        scored = [self._best([matched[item[0], ref] for ref in item[1:]]) for item in items]
        return [s.f1 for s in scored], [json.dumps(s._asdict()) for s in scored]

    def batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """``batch_size`` texts at a time, longest first, as bert-score batches them (no cap on
        padded positions: a BERT-sized encoder gains from whole batches on a CPU too)."""
        return batches(lengths, self.batch_size)

    def _embed(self, texts: list[str], progress: Progress | None) -> dict[str, Any]:
        """Each text's token count, normalised embeddings and token weights, batched by length."""
        torch = need("torch")
        tokenized = self.tokenizer(texts)
        self.truncated += tokenized.truncated
        out: dict[str, Any] = {}
        for chosen in self.batches([len(row) for row in tokenized.ids]):
            rows = [tokenized.ids[k] for k in chosen]
            width, pad = len(rows[0]), self.tokenizer.pad_id
            ids = torch.tensor([row + [pad] * (width - len(row)) for row in rows])
            mask = torch.tensor([[1] * len(row) + [0] * (width - len(row)) for row in rows])
            with torch.inference_mode():
                states = self._model(input_ids=ids.to(self.device), attention_mask=mask.to(self.device))[0]
            states = states.float().cpu()
            for n, k in enumerate(chosen):
                emb = states[n, : len(rows[n])]
                out[texts[k]] = (
                    len(rows[n]),
                    emb / torch.norm(emb, dim=-1).unsqueeze(-1),
                    self._scale(rows[n]),
                )
            if progress is not None:
                progress(len(chosen))
        return out

    def _best(self, scored: Sequence[tuple[float, float, float]]) -> Segment:
        """The segment's P, R and F, each the best of its references', rescaled."""
        best = [max(s[k] for s in scored) for k in range(3)]
        if self.baseline is not None:
            best = [rescaled(value, base) for value, base in zip(best, self.baseline, strict=True)]
        return Segment(*best)

    def _matched(self, pairs: Sequence[tuple[str, str]]) -> list[tuple[float, float, float]]:
        """bert-score's greedy matching (``greedy_cos_idf``) of each (hypothesis, reference) pair,
        in float32, :data:`PAIRS` at a time; a padded position never matches (each pair's numbers
        are those of the pair alone)."""
        torch = need("torch")
        out: list[tuple[float, float, float]] = []
        for start in range(0, len(pairs), PAIRS):
            chunk = [(self._embedded[h], self._embedded[r]) for h, r in pairs[start : start + PAIRS]]
            hyp, hyp_mask, hyp_scale = _padded([h for h, _ in chunk])
            ref, ref_mask, ref_scale = _padded([r for _, r in chunk])
            sim = torch.bmm(hyp, ref.transpose(1, 2))
            (hyp_mask, ref_mask), fill = self._matchable(hyp_mask, ref_mask), self.unmatched
            p = (sim.masked_fill(~ref_mask[:, None, :], fill).max(dim=2).values * hyp_scale).sum(dim=1)
            r = (sim.masked_fill(~hyp_mask[:, :, None], fill).max(dim=1).values * ref_scale).sum(dim=1)
            f = 2 * p * r / (p + r)
            for (h, r_), pk, rk, fk in zip(chunk, p.tolist(), r.tolist(), f.tolist(), strict=True):
                empty = self.empty_is_zero and (h[0] == 2 or r_[0] == 2)  # the special tokens alone
                out.append((0.0 if empty else pk, 0.0 if empty else rk, 0.0 if math.isnan(fk) else fk))
        return out

    unmatched: ClassVar[float] = -math.inf
    """The similarity of a position that is not matched (a pad): never the best."""
    empty_is_zero: ClassVar[bool] = True
    """Whether an empty hypothesis or reference has P = R = 0 (bert-score's), not 0/0."""

    def _matchable(self, hyp_mask: Any, ref_mask: Any) -> tuple[Any, Any]:
        """The positions a token may match on each side: every token's, the special ones too."""
        return hyp_mask, ref_mask

    def _scale(self, ids: Sequence[int]) -> Any:
        """Each token's weight over the text's sum (bert-score's ``idf / idf.sum()``, in float32)."""
        torch = need("torch")
        if self.idf and self._weights is not None:
            table, unseen = self._weights.table, self._weights.unseen
            weights = [table.get(t, unseen) for t in ids]
        else:
            weights = [0.0 if t in self.tokenizer.specials else 1.0 for t in ids]
        row = torch.tensor(weights, dtype=torch.float32)
        return row / row.sum()

    def marks(self) -> None:
        """None: BERTScore's details are its precision, recall and F1, not error spans."""
        return None

    def sentence_scores(  # type: ignore[override]
        self, hyps: Sequence[str], refs: References, *, sources: Sequence[str] | None = None
    ) -> list[Segment]:
        """Each segment's precision, recall and F1 (``refs``: one reference a hypothesis, a list
        of them a hypothesis, or sacrebleu's streams).

        >>> # BERTScore(model="FOLDER", num_layers=2).sentence_scores(["Hallo"], ["Hallo Welt"])
        """
        self.system_scores({"system": hyps}, refs, sources)
        return [Segment(**json.loads(detail)) for detail in self.details["system"]]


def _padded(texts: Sequence[tuple[int, Any, Any]]) -> tuple[Any, Any, Any]:
    """Texts' embeddings, their masks and their weights, padded with zeros to the longest."""
    torch = need("torch")
    longest, width = max(t[0] for t in texts), texts[0][1].shape[1]
    emb = torch.zeros((len(texts), longest, width))
    mask = torch.zeros((len(texts), longest), dtype=torch.bool)
    scale = torch.zeros((len(texts), longest))
    for n, (length, vectors, weights) in enumerate(texts):
        emb[n, :length], mask[n, :length], scale[n, :length] = vectors, True, weights
    return emb, mask, scale


def references_of(refs: References, count: int) -> list[tuple[str, ...]]:
    """The references of each of ``count`` segments: one string each, a list of strings each
    (bert-score's), or sacrebleu's streams (a list of ``count`` strings each).

    >>> references_of(["a", "b"], 2), references_of([["a", "c"], ["b"]], 2), references_of([["a", "b"]], 2)
    ([('a',), ('b',)], [('a', 'c'), ('b',)], [('a',), ('b',)])
    """
    if refs is None:
        raise InputError("BERTScore needs a reference for every segment")
    listed = list(refs)
    per: list[tuple[str, ...]]
    if all(isinstance(r, str) for r in listed):
        per = [(str(r),) for r in listed]
    elif len(listed) == count:
        per = [tuple(r) for r in listed]
    else:
        per = [tuple(stream[k] for stream in listed) for k in range(len(listed[0]))]
    if len(per) != count:
        raise InputError(f"{len(per)} references for {count} hypotheses")
    for k, group in enumerate(per, start=1):
        if not group or not all(isinstance(r, str) for r in group):
            raise InputError(f"segment {k}: expected a reference string, or a list of them")
    return per


def read_baseline(path: Path, layer: int) -> tuple[float, float, float]:
    """bert-score's baseline of P, R and F at ``layer``: the file's row ``layer`` by position
    after its header (comma-separated despite the ``.tsv``), as float32."""
    np = need("numpy")
    try:
        rows = [line.split(",") for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    except (OSError, UnicodeDecodeError) as err:
        raise ModelError(f"{path}: cannot read the baseline file ({err})") from None
    if layer >= len(rows):
        raise ModelError(f"{path}: no row for layer {layer} (it has {len(rows)}: LAYER,P,R,F from layer 0)")
    try:
        p, r, f = (float(np.float32(value)) for value in rows[layer][1:4])
    except ValueError:
        raise ModelError(f"{path}, line {layer + 2}: expected LAYER,P,R,F numbers") from None
    return p, r, f


def rescaled(value: float, base: float) -> float:
    """``(value - base) / (1 - base)`` in float32, as bert-score rescales."""
    np = need("numpy")
    return float((np.float32(value) - np.float32(base)) / (np.float32(1) - np.float32(base)))


def _layer_of(name: str, num_layers: int | None) -> int:
    """The layer asked, else bert-score's for the model ``name``."""
    if num_layers is not None:
        if not isinstance(num_layers, int) or num_layers < 0:
            raise ModelError(f"num_layers must be a whole number from 0, got {num_layers!r}")
        return num_layers
    plain = name.partition("@")[0]
    if plain not in LAYERS:
        raise ModelError(
            f"BERTScore: no default layer for {plain} (bert-score's table lacks it): give num_layers"
            " (--bertscore-layers N)"
        )
    return LAYERS[plain]


def _load(folder: Path, layers: int, device: str, dtype: Any) -> Any:
    """The model's encoder from ``folder``, its layers beyond ``layers`` dropped."""
    transformers = need("transformers")
    model = quietly(lambda: transformers.AutoModel.from_pretrained(str(folder), dtype=dtype))
    encoder: Any = getattr(model, "encoder", None)
    stack = getattr(encoder, "layer", None)
    if stack is None:
        raise ModelError(
            f"{folder}: BERTScore here runs BERT-like encoders (BERT, RoBERTa, XLM-R, DeBERTa, ELECTRA)"
        )
    if layers > len(stack):
        raise ModelError(f"{folder}: num_layers {layers} beyond the model's {len(stack)} layers")
    encoder.layer = need("torch").nn.ModuleList(list(stack)[:layers])
    return model.eval().to(device)


class _Tokenizer:
    """A model's ``tokenizer.json`` as bert-score's ``sent_encode`` uses it."""

    def __init__(self, folder: Path) -> None:
        tokenizers = need("tokenizers")
        path = folder / "tokenizer.json"
        if not path.is_file():
            raise ModelError(f"{folder}: no tokenizer.json (understudy reads the fast tokenizer's file)")
        spec = json.loads(path.read_text(encoding="utf-8"))
        _prefix_space(spec.get("pre_tokenizer"))
        self._tokenizer = tokenizers.Tokenizer.from_str(json.dumps(spec))
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        named = _named_tokens(folder)
        self.pad_id = self._id(folder, named.get("pad_token", "<pad>"))
        self.specials = {
            self._id(folder, named.get(k, d)) for k, d in (("cls_token", "<s>"), ("sep_token", "</s>"))
        }
        self.max_length = _max_length(folder)

    def _id(self, folder: Path, token: str) -> int:
        found = self._tokenizer.token_to_id(token)
        if found is None:
            raise ModelError(f"{folder}: the tokenizer has no {token} token")
        return int(found)

    def __call__(self, texts: Sequence[str]) -> Any:
        """The ids of each stripped text with its special tokens, cut at the limit (the end of
        its content goes, the last special token stays)."""
        out, cut = [], 0
        for encoding in self._tokenizer.encode_batch([t.strip() for t in texts]):
            ids = encoding.ids
            if len(ids) > self.max_length:
                ids, cut = [*ids[: self.max_length - 1], ids[-1]], cut + 1
            out.append(ids)
        return Tokenized(out, cut, [])


def _prefix_space(pre: Any) -> None:
    """A byte-level pre-tokenizer adds the leading space (bert-score's ``add_prefix_space=True``
    for RoBERTa and GPT-2)."""
    if isinstance(pre, dict):
        if pre.get("type") == "ByteLevel":
            pre["add_prefix_space"] = True
        for inner in pre.get("pretokenizers") or []:
            _prefix_space(inner)


def _named_tokens(folder: Path) -> dict[str, str]:
    """The special tokens the tokenizer's config files name (``cls_token``, ``pad_token``, ...)."""
    named: dict[str, str] = {}
    for name in ("special_tokens_map.json", "tokenizer_config.json"):
        path = folder / name
        if path.is_file():
            for key, value in json.loads(path.read_text(encoding="utf-8")).items():
                token = value.get("content") if isinstance(value, dict) else value
                if key.endswith("_token") and isinstance(token, str):
                    named.setdefault(key, token)
    return named


def _max_length(folder: Path) -> int:
    """The tokenizer's ``model_max_length`` (bert-score's truncation), else the model's positions."""
    config = folder / "tokenizer_config.json"
    saved = (
        json.loads(config.read_text(encoding="utf-8")).get("model_max_length") if config.is_file() else None
    )
    if isinstance(saved, int | float) and 0 < saved < 1e9:
        return int(saved)
    model = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    offset = 2 if "roberta" in str(model.get("model_type", "")) else 0
    return int(model.get("max_position_embeddings", 512)) - offset
