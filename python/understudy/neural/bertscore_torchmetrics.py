"""BERTScore as torchmetrics 1.9 computes it (``torchmetrics.text.BERTScore``), which is not
bert-score's arithmetic; :mod:`understudy.torchmetrics` gives it under torchmetrics' names.

Where torchmetrics differs from bert-score 0.3.13, and this class follows it: the texts are
tokenized by transformers' ``AutoTokenizer`` of the model (not stripped; nothing is cut unless
``truncation``, and torchmetrics fails on a longer text, which this class refuses by name); the
default layer is the model's last, not bert-score's table; the first and last token of each
text are not matched (their embeddings are zeros), and the padding's zeros floor every best
similarity at 0; an empty hypothesis has precision NaN (0/0) and an empty reference recall NaN,
where bert-score gives 0; the baseline's default row is the file's last. The default model is
``roberta-large``, as torchmetrics'.

>>> TorchmetricsBERTScore.kind, TorchmetricsBERTScore.unmatched
('bertscore-torchmetrics', 0.0)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any, ClassVar

from understudy.computed.cache import ScoreCache
from understudy.errors import InputError
from understudy.neural._extra import need, quietly
from understudy.neural.bertscore import BERTScore, read_baseline
from understudy.neural.checkpoints import Checkpoint
from understudy.neural.xlmr import Tokenized

DEFAULT_MODEL = "roberta-large"


class TorchmetricsBERTScore(BERTScore):
    """BERTScore of ``model`` as torchmetrics computes it; ``num_layers`` (default: the model's
    last), ``idf``, ``baseline`` (torchmetrics' ``baseline_path``), ``truncation`` and
    ``max_length`` as torchmetrics' arguments; other options as :class:`BERTScore`'s."""

    kind = "bertscore-torchmetrics"
    unmatched: ClassVar[float] = 0.0
    empty_is_zero: ClassVar[bool] = False

    def __init__(
        self,
        model: str | PathLike[str] | None = None,
        *,
        num_layers: int | None = None,
        idf: bool = False,
        baseline: str | PathLike[str] | None = None,
        truncation: bool = False,
        max_length: int = 512,
        batch_size: int = 64,
        device: str = "auto",
        precision: str = "fp32",
        cache: ScoreCache | str | PathLike[str] | None = None,
    ) -> None:
        super().__init__(
            DEFAULT_MODEL if model is None else model,
            num_layers=num_layers,
            idf=idf,
            baseline=baseline,
            batch_size=batch_size,
            device=device,
            precision=precision,
            cache=cache,
        )
        if baseline is not None and num_layers is None:
            self.baseline = read_baseline(Path(baseline), -1)  # torchmetrics' row for the last layer
        self.tokenizer = _AutoTokenizer(self.checkpoint.folder, truncation, max_length)  # type: ignore[assignment]

    @classmethod
    def layer_of(cls, checkpoint: Checkpoint, num_layers: int | None) -> int:
        """The layer asked, else the model's last (torchmetrics' ``hidden_states[-1]``)."""
        if num_layers is not None:
            return super().layer_of(checkpoint, num_layers)
        config = json.loads((checkpoint.folder / "config.json").read_text(encoding="utf-8"))
        return int(config["num_hidden_layers"])

    def computed_by(self) -> dict[str, str]:
        """As :class:`BERTScore`'s, the settings marked as torchmetrics' arithmetic."""
        pinned = super().computed_by()
        return pinned | {"settings": pinned["settings"] + "+torchmetrics"}

    def _matchable(self, hyp_mask: Any, ref_mask: Any) -> tuple[Any, Any]:
        """Every position but each text's first and last (its special tokens)."""
        return _inner(hyp_mask), _inner(ref_mask)

    def _scale(self, ids: Sequence[int]) -> Any:
        """Each token's weight (its idf, or 1) over the text's sum, the first and last token's 0."""
        torch = need("torch")
        if self.idf and self._weights is not None:
            table, unseen = self._weights.table, self._weights.unseen
            weights = [table.get(t, unseen) for t in ids]
        else:
            weights = [1.0] * len(ids)
        weights[0] = weights[-1] = 0.0
        row = torch.tensor(weights, dtype=torch.float32)
        return row / row.sum()


def _inner(mask: Any) -> Any:
    """A padded batch's mask without each row's first and last real position."""
    inner = mask.clone()
    inner[:, 0] = False
    lengths = mask.sum(dim=1)
    inner[need("torch").arange(mask.shape[0]), (lengths - 1).clamp_min(0)] = False
    return inner


class _AutoTokenizer:
    """The model's ``AutoTokenizer``, as torchmetrics calls it (no stripping; cut to
    ``max_length`` with ``truncation``, else a longer text refused)."""

    def __init__(self, folder: Path, truncation: bool, max_length: int) -> None:
        transformers = need("transformers")
        self._tokenizer = quietly(lambda: transformers.AutoTokenizer.from_pretrained(str(folder)))
        self.pad_id = int(self._tokenizer.pad_token_id)
        self.specials: set[int] = set()  # by position here, not by id
        self.truncation, self.max_length = truncation, max_length

    def __call__(self, texts: Sequence[str]) -> Tokenized:
        """The ids of each text with its special tokens."""
        out, cut = [], 0
        for k, ids in enumerate(quietly(lambda: self._tokenizer(list(texts))["input_ids"])):
            if len(ids) > self.max_length:
                if not self.truncation:
                    raise InputError(
                        f"text {k + 1} has {len(ids)} tokens, over max_length {self.max_length}, on which"
                        " torchmetrics' BERTScore fails: give truncation=True to cut it"
                    )
                ids, cut = [*ids[: self.max_length - 1], ids[-1]], cut + 1
            out.append(list(ids))
        return Tokenized(out, cut, [])
