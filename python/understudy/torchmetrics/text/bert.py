"""``torchmetrics.text.bert`` as users import it: torchmetrics' ``BERTScore``, computed by
understudy (:class:`~understudy.neural.bertscore_torchmetrics.TorchmetricsBERTScore`: torchmetrics'
arithmetic, which is not bert-score's). Needs the ``neural`` extra beside ``torch``.

One bug of torchmetrics 1.9 is not repeated: it sorts the predictions and the targets by length
apart and then indexes each by its sorting permutation instead of inverting it, so that in a
batch whose two sides sort differently a prediction is scored against another segment's target
(torchmetrics PR 2347, issue 2728). Here each prediction meets its own targets, as torchmetrics
scores one pair alone.
"""

# No `from __future__ import annotations`, as the other classes here (TorchScript).
from collections.abc import Sequence
from typing import Any

import torch
from torch import Tensor
from torchmetrics import Metric

from understudy.errors import ConfigError

UNSUPPORTED = ("model", "user_tokenizer", "user_forward_fn", "baseline_url")


class BERTScore(Metric):
    """torchmetrics' ``BERTScore`` with its arguments: ``model_name_or_path`` (default
    ``roberta-large``), ``num_layers`` (default: the last), ``idf``, ``device``, ``max_length``,
    ``batch_size``, ``truncation``, ``rescale_with_baseline`` with ``baseline_path``; ``verbose``,
    ``num_threads`` and ``lang`` are accepted and change nothing. ``compute`` gives
    ``{"precision", "recall", "f1"}``, a float32 tensor each, one value a prediction.
    Predictions and targets are kept as texts in the process that updates (not gathered across
    DDP processes).

    >>> # BERTScore(model_name_or_path="FOLDER")(["hello there"], ["hello there"])["f1"]
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False

    def __init__(
        self,
        model_name_or_path: str | None = None,
        num_layers: int | None = None,
        all_layers: bool = False,
        verbose: bool = False,
        idf: bool = False,
        device: str | torch.device | None = None,
        max_length: int = 512,
        batch_size: int = 64,
        num_threads: int = 0,
        return_hash: bool = False,
        lang: str = "en",
        rescale_with_baseline: bool = False,
        baseline_path: str | None = None,
        truncation: bool = False,
        **kwargs: Any,
    ) -> None:
        refused = [name for name in UNSUPPORTED if kwargs.get(name) is not None]
        refused += ["all_layers"] * all_layers + ["return_hash"] * return_hash
        if refused:
            raise ConfigError(
                f"BERTScore here takes a model by name or folder; not supported: {', '.join(refused)}"
            )
        if rescale_with_baseline and baseline_path is None:
            raise ConfigError("rescale_with_baseline needs baseline_path here (no baseline is downloaded)")
        super().__init__(**{k: v for k, v in kwargs.items() if k not in UNSUPPORTED})
        self.options: dict[str, Any] = {
            "model": model_name_or_path,
            "num_layers": num_layers,
            "idf": idf,
            "baseline": baseline_path if rescale_with_baseline else None,
            "truncation": truncation,
            "max_length": max_length,
            "batch_size": batch_size,
            "device": "auto" if device is None else str(device),
        }
        self._scorer: Any = None
        self.texts: tuple[list[str], list[str | list[str]]] = ([], [])

    def update(
        self, preds: str | Sequence[str], target: str | Sequence[str] | Sequence[Sequence[str]]
    ) -> None:
        """Keep predictions and their targets (a string, or a list of strings, a prediction)."""
        preds_list = [preds] if isinstance(preds, str) else list(preds)
        target_list = (
            [target] if isinstance(target, str) else [t if isinstance(t, str) else list(t) for t in target]
        )
        if len(preds_list) != len(target_list):
            raise ValueError(
                "Expected number of predicted and reference sentences to be the same, but got"
                f"{len(preds_list)} and {len(target_list)}"
            )
        self.texts[0].extend(preds_list)
        self.texts[1].extend(target_list)

    def compute(self) -> dict[str, Tensor]:
        """Precision, recall and F1 of every prediction kept."""
        return self._scored(*self.texts)

    def forward(self, preds: Any, target: Any) -> dict[str, Tensor]:
        """Keep the batch (:meth:`update`) and give its own scores."""
        self.update(preds, target)
        count = 1 if isinstance(preds, str) else len(preds)
        return self._scored(self.texts[0][-count:], self.texts[1][-count:])

    def _scored(self, preds: list[str], targets: list[Any]) -> dict[str, Tensor]:
        """Precision, recall and F1 of ``preds`` against ``targets``."""
        if not preds:
            zero = [0.0]
            return {"precision": torch.tensor(zero), "recall": torch.tensor(zero), "f1": torch.tensor(zero)}
        if self._scorer is None:
            from understudy.neural.bertscore_torchmetrics import TorchmetricsBERTScore

            self._scorer = TorchmetricsBERTScore(**self.options)
        scored = self._scorer.sentence_scores(preds, targets)
        columns = list(zip(*scored, strict=True))
        return {
            key: torch.tensor(column, dtype=torch.float32).squeeze()
            for key, column in zip(("precision", "recall", "f1"), columns, strict=True)
        }

    def reset(self) -> None:
        """Forget the predictions and targets kept."""
        super().reset()
        self.texts = ([], [])


__all__ = ["BERTScore"]
