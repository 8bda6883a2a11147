"""``torchmetrics.functional.text.bert`` as users import it: ``bert_score``, computed by
understudy (see :class:`understudy.torchmetrics.text.bert.BERTScore`, whose arguments it takes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from torch import Tensor

from understudy.torchmetrics.text.bert import BERTScore


def bert_score(
    preds: str | Sequence[str],
    target: str | Sequence[str] | Sequence[Sequence[str]],
    model_name_or_path: str | None = None,
    **options: Any,
) -> dict[str, Tensor]:
    """torchmetrics' ``bert_score``: precision, recall and F1 of each prediction.

    >>> # bert_score(["hello there"], ["hello there"], model_name_or_path="FOLDER")["f1"]
    """
    metric = BERTScore(model_name_or_path, **options)
    metric.update(preds, target)
    return BERTScore.compute(metric)


__all__ = ["bert_score"]
