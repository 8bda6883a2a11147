"""PEAR as a metric object: pear-mt 1.1.1's pairwise scores of two translations of one source.

A checkpoint is pear-mt's layout: ``hparams.yaml`` (its ``class_identifier``,
``pairwise_metric``, and the encoder it names) and ``checkpoints/model.ckpt``, COMET's layout, so
``fetch-model`` and the offline lookup treat it as COMET's. The source and both translations are
each tokenized (cut at the encoder's 512 positions) and their contents joined as ``<s> src
</s></s> a </s></s> b </s>`` within 506 content tokens, split equally (168 each, at most a
segment's own length) and the rest handed out a token at a time, round robin, to the segments
that still have tokens. The last layer's token states are averaged over each segment's content;
``f = [h, h*h_src, |h-h_src|]`` goes through the span projection (Linear, GELU, LayerNorm) and
the pair head (a GELU MLP); the score is ``(softplus(alpha) + 1e-6) * (head(a) - head(b))``:
positive when ``a`` is better. Scored against a reference, a hypothesis's score is its
difference from the reference (pear-mt's reference-anchored mode).

>>> Pear.kind, Pear.higher_is_better
('pear', True)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from os import PathLike
from pathlib import Path
from typing import Any, Self

from understudy.computed.cache import ScoreCache
from understudy.computed.metric import Item, Progress
from understudy.computed.pear import DEFAULT_MODEL, PearConfig
from understudy.errors import ConfigError, InputError, ModelError
from understudy.neural._extra import need
from understudy.neural.base import device_of
from understudy.neural.comet import CometCheckpoint
from understudy.neural.comet_model import _part, read_checkpoint
from understudy.neural.xlmr import XLMRTokenizer, build_encoder, find_encoder

BUDGET = 6
"""The special tokens of a joined input: ``<s>``, two ``</s></s>`` and the last ``</s>``."""
MODES = ("full", "half")


class Pear(CometCheckpoint):
    """PEAR of the checkpoint ``model`` (a hub name, ``NAME@REVISION`` or a local folder in
    pear-mt's layout); ``mbr`` is how MBR fills a source's utility matrix: every ordered pair of
    distinct candidates (``full``) or those above the diagonal, the others their negation
    (``half``; the model is not antisymmetric in the pair's order, so ``half`` is an
    approximation). Other options as :class:`~understudy.neural.COMET`'s.
    """

    kind = "pear"
    default_model = DEFAULT_MODEL
    _model: PearModel | None = None

    def __init__(
        self,
        model: str | PathLike[str] | None = None,
        *,
        mbr: str = "full",
        batch_size: int = 16,
        device: str = "auto",
        precision: str = "fp32",
        cache: ScoreCache | str | PathLike[str] | None = "default",
    ) -> None:
        if mbr not in MODES:
            raise ConfigError(f"mbr must be one of {', '.join(MODES)}, got {mbr!r}")
        super().__init__(model, batch_size=batch_size, device=device, precision=precision, cache=cache)
        self.mbr = mbr

    @property
    def name(self) -> str:
        """``PEAR``."""
        return "PEAR"

    @classmethod
    def from_config(cls, config: PearConfig, pair: str | None = None) -> Self:  # type: ignore[override]
        """The metric as its command-line configuration says (:mod:`understudy.computed.pear`)."""
        return cls(config.model, mbr=config.mbr, **config.running())

    def remote(self) -> tuple[type, dict[str, Any]]:
        """The class and options that make this metric again on a Dask worker."""
        kind, options = super().remote()
        return kind, {**options, "mbr": self.mbr}

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """The source, the translation scored and the one it is compared with."""
        if source is None:
            raise InputError("PEAR needs the source of every segment (--source FILE, or sources=...)")
        if reference is None:
            raise InputError("PEAR compares two translations: give the other (a reference) for every segment")
        return (source, hypothesis, reference)

    def begin(self) -> None:
        """Read the model (once)."""
        if self._model is None:
            self._model = PearModel(self.checkpoint.folder, device_of(self.device), self.dtype())

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        """Each (source, a, b)'s score, batched by the joined input's length."""
        model = self._model
        assert model is not None
        tokenized = [model.tokenizer(list(texts)) for texts in zip(*items, strict=True)]
        self.truncated += sum(t.truncated for t in tokenized)
        sequences = [model.joined([t.ids[k] for t in tokenized]) for k in range(len(items))]
        scores = [0.0] * len(items)
        for chosen in self.batches([len(ids) for ids, _ in sequences]):
            values = model.scores([sequences[k] for k in chosen])
            for k, value in zip(chosen, values, strict=True):
                scores[k] = value
            if progress is not None:
                progress(len(chosen))
        return scores

    def pairwise(self, sources: Sequence[str], a: Sequence[str], b: Sequence[str]) -> list[float]:
        """Each source's score of ``a`` against ``b`` (positive: ``a`` is better), as pear-mt's
        ``score_pairwise``."""
        scored = self.system_scores({"a": list(a)}, list(b), list(sources))
        values: list[float] = scored.sentence_scores("a").tolist()
        return values

    def utilities(
        self,
        candidates: Sequence[Sequence[str]],
        pseudo_references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> Iterator[Any]:
        """Each source's utility matrix as pear-mt's ``pear_utility_matrix`` makes it: row ``i``,
        column ``j`` is candidate ``i`` against pseudo-reference ``j``, 0 where a candidate meets
        itself; with ``mbr="half"``, the pairs below the diagonal are those above negated."""
        np = need("numpy")
        if sources is None:
            raise InputError("PEAR reads the source of every segment: give the sources")
        cells = [self._cells(c, p) for c, p in zip(candidates, pseudo_references, strict=True)]
        wanted = [(k, i, j) for k, per in enumerate(cells) for i, j in per]
        scored = self.pairwise(
            [sources[k] for k, _, _ in wanted],
            [candidates[k][i] for k, i, _ in wanted],
            [pseudo_references[k][j] for k, _, j in wanted],
        )
        values = dict(zip(wanted, scored, strict=True))
        for k, (listed, pseudo) in enumerate(zip(candidates, pseudo_references, strict=True)):
            matrix = np.zeros((len(listed), len(pseudo)), dtype=np.float64)
            for i, j in cells[k]:
                matrix[i, j] = values[k, i, j]
                if self.mbr == "half":
                    matrix[j, i] = -values[k, i, j]
            yield matrix

    def _cells(self, listed: Sequence[str], pseudo: Sequence[str]) -> list[tuple[int, int]]:
        """The cells scored of one source's matrix."""
        square = list(listed) == list(pseudo)
        if self.mbr == "half" and not square:
            raise ConfigError("PEAR's half matrix needs the candidates as their own pseudo-references")
        return [
            (i, j)
            for i in range(len(listed))
            for j in range(len(pseudo))
            if not (square and i == j) and not (self.mbr == "half" and j < i)
        ]


class PearModel:
    """A PEAR checkpoint read: its encoder and tokenizer, span projection, pair head and scale."""

    def __init__(self, folder: Path, device: str, dtype: Any) -> None:
        torch, nn = need("torch"), need("torch.nn")
        kind, hparams, state = read_checkpoint(folder)
        _check(folder, kind, hparams)
        encoder = find_encoder(str(hparams["pretrained_model"]), folder).folder
        self.encoder = build_encoder(encoder, _part(state, "encoder.model.")).to(device, dtype)
        self.budget = int(self.encoder.config.max_position_embeddings) - 2
        self.tokenizer = XLMRTokenizer(encoder, max_length=self.budget)
        self.cls, self.sep = self.tokenizer.token_id(encoder, "<s>"), self.tokenizer.token_id(encoder, "</s>")
        hidden = int(self.encoder.config.hidden_size)
        self.span = nn.Sequential(nn.Linear(3 * hidden, hidden), nn.GELU(), nn.LayerNorm(hidden))
        layers: list[Any] = []
        sizes = [hidden, *hparams.get("hidden_sizes", [512, 256, 128]), 1]
        for n_in, n_out in itertools.pairwise(sizes):  # Linear, GELU, (Dropout): pear-mt's indices
            layers += [nn.Linear(n_in, n_out), nn.GELU(), nn.Identity()]
        layers = layers[:-2]
        self.head = nn.Sequential(*layers)
        try:
            self.span.load_state_dict(_part(state, "span_proj."))
            self.head.load_state_dict(
                {k.replace("ff.", "", 1): v for k, v in _part(state, "pair_head.").items()}
            )
            alpha = state["_alpha_raw"]
        except (RuntimeError, KeyError) as err:
            raise ModelError(
                f"{folder}: the checkpoint lacks PEAR's head ({str(err).splitlines()[0]})"
            ) from None
        self.span, self.head = self.span.to(device, dtype).eval(), self.head.to(device, dtype).eval()
        self.scale = (torch.nn.functional.softplus(alpha.float()) + 1e-6).to(device, dtype)
        self.device, self.pad = device, self.tokenizer.pad_id

    def joined(self, parts: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
        """The source's and both translations' ids joined within the budget, and each token's
        segment (1, 2, 3; 0 for the special tokens)."""
        contents = [list(ids[1:-1]) for ids in parts]
        lengths = [len(c) for c in contents]
        budget = max(self.budget - BUDGET, 0)
        alloc = [min(budget // len(contents), n) for n in lengths]
        left = budget - sum(alloc)
        while left > 0 and any(n > a for n, a in zip(lengths, alloc, strict=True)):
            for k in range(len(contents)):
                if left and lengths[k] > alloc[k]:
                    alloc[k], left = alloc[k] + 1, left - 1
        ids, segments = [self.cls], [0]
        for k, (content, size) in enumerate(zip(contents, alloc, strict=True)):
            ends = [self.sep] * (1 if k == len(contents) - 1 else 2)
            ids += content[:size] + ends
            segments += [k + 1] * size + [0] * len(ends)
        return ids, segments

    def scores(self, sequences: Sequence[tuple[list[int], list[int]]]) -> list[float]:
        """The scores of joined inputs, one batch (right-padded)."""
        torch = need("torch")
        width = max(len(ids) for ids, _ in sequences)
        ids = torch.tensor([i + [self.pad] * (width - len(i)) for i, _ in sequences], device=self.device)
        segments = torch.tensor([s + [0] * (width - len(s)) for _, s in sequences], device=self.device)
        mask = torch.tensor([[1] * len(i) + [0] * (width - len(i)) for i, _ in sequences], device=self.device)
        with torch.inference_mode():
            states = self.encoder(
                input_ids=ids, attention_mask=mask, output_hidden_states=True
            ).hidden_states[-1]
            src, a, b = (_masked_mean(states, segments == k) for k in (1, 2, 3))
            a = self.span(torch.cat([a, a * src, (a - src).abs()], dim=-1))
            b = self.span(torch.cat([b, b * src, (b - src).abs()], dim=-1))
            z = self.head(a).squeeze(-1) - self.head(b).squeeze(-1)
            values: list[float] = (self.scale * z).float().cpu().tolist()
        return values


def _masked_mean(states: Any, mask: Any) -> Any:
    """pear-mt's mean over a segment's tokens (an empty segment: zeros)."""
    weights = mask.to(states.dtype)
    return (states * weights.unsqueeze(-1)).sum(dim=1) / weights.sum(dim=1).clamp_min(1e-8).unsqueeze(-1)


def _check(folder: Path, kind: str, hparams: dict[str, Any]) -> None:
    """Refuse what pear-mt refuses, and what understudy does not read."""
    if kind != "pairwise_metric":
        raise ModelError(f"{folder}: a checkpoint of class {kind!r}; PEAR's is pairwise_metric")
    wanted = {
        "blend": "last",
        "task": "regression",
        "use_antisymmetric_head": True,
        "learn_score_scale": True,
    }
    wanted |= {"layer_norm_before_head": False, "activations": "GELU"}
    for key, value in wanted.items():
        if hparams.get(key, value) != value:
            raise ModelError(f"{folder}: {key} is {hparams.get(key)!r}; PEAR here reads {value!r}")
