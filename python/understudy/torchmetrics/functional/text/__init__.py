"""torchmetrics' functional text metrics: each is its class of :mod:`understudy.torchmetrics.text`
updated once and computed, with the same arguments and the same numbers.

>>> word_error_rate(["this is the prediction", "there is an other sample"],
...                 ["this is the reference", "there is another one"])
tensor(0.5000)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from torch import Tensor
from torchmetrics import Metric

from understudy.torchmetrics import text
from understudy.torchmetrics.text import AVAILABLE_TOKENIZERS as AVAILABLE_TOKENIZERS

Preds = str | Sequence[str]
Target = Sequence[str | Sequence[str]]


def _once(metric: Metric, preds: Any, target: Any) -> Any:
    metric.update(preds, target)
    # The class's own compute, unwrapped: torchmetrics' functional forms neither sync across
    # processes nor squeeze one-element results, as Metric.compute does.
    return type(metric).compute(metric)


def bleu_score(
    preds: Preds,
    target: Target,
    n_gram: int = 4,
    smooth: bool = False,
    weights: Sequence[float] | None = None,
) -> Tensor:
    """BLEU on a 0-1 scale (see :class:`~understudy.torchmetrics.text.BLEUScore`).

    >>> bleu_score(["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]])
    tensor(0.7598)
    """
    result: Tensor = _once(text.BLEUScore(n_gram, smooth, weights), preds, target)
    return result


def sacre_bleu_score(
    preds: Sequence[str],
    target: Sequence[Sequence[str]],
    n_gram: int = 4,
    smooth: bool = False,
    tokenize: str = "13a",
    lowercase: bool = False,
    weights: Sequence[float] | None = None,
) -> Tensor:
    """BLEU over sacrebleu's tokenizers (see :class:`~understudy.torchmetrics.text.SacreBLEUScore`).

    >>> sacre_bleu_score(["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]])
    tensor(0.7598)
    """
    metric = text.SacreBLEUScore(n_gram, smooth, tokenize, lowercase, weights)
    result: Tensor = _once(metric, preds, target)
    return result


def chrf_score(
    preds: Preds,
    target: Sequence[str] | Sequence[Sequence[str]],
    n_char_order: int = 6,
    n_word_order: int = 2,
    beta: float = 2.0,
    lowercase: bool = False,
    whitespace: bool = False,
    return_sentence_level_score: bool = False,
) -> Tensor | tuple[Tensor, Tensor]:
    """chrF on a 0-1 scale (see :class:`~understudy.torchmetrics.text.CHRFScore`).

    >>> chrf_score(["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]])
    tensor(0.8640)
    """
    metric = text.CHRFScore(
        n_char_order, n_word_order, beta, lowercase, whitespace, return_sentence_level_score
    )
    result: Tensor | tuple[Tensor, Tensor] = _once(metric, preds, target)
    # As torchmetrics: no sentence scores when there were no sentences.
    return result[0] if isinstance(result, tuple) and not len(result[1]) else result


def translation_edit_rate(
    preds: Preds,
    target: Sequence[str | Sequence[str]],
    normalize: bool = False,
    no_punctuation: bool = False,
    lowercase: bool = True,
    asian_support: bool = False,
    return_sentence_level_score: bool = False,
) -> Tensor | tuple[Tensor, list[Tensor]]:
    """TER on a 0-1 scale (see :class:`~understudy.torchmetrics.text.TranslationEditRate`).

    >>> refs = [["there is a cat on the mat", "a cat is on the mat"]]
    >>> translation_edit_rate(["the cat is on the mat"], refs)
    tensor(0.1538)
    """
    metric = text.TranslationEditRate(
        normalize, no_punctuation, lowercase, asian_support, return_sentence_level_score
    )
    result: Tensor | tuple[Tensor, Tensor] = _once(metric, preds, target)
    if not isinstance(result, tuple):
        return result
    # torchmetrics' functional TER gives the sentences as a list of one-element tensors.
    return (result[0], metric.sentence_ter) if metric.sentence_ter else result[0]


def _rate(cls: type[Metric], name: str) -> Any:
    def rate(preds: str | list[str], target: str | list[str]) -> Tensor:
        result: Tensor = _once(cls(), preds, target)
        return result

    rate.__name__ = rate.__qualname__ = name
    rate.__doc__ = f"torchmetrics' functional form of :class:`~understudy.torchmetrics.text.{cls.__name__}`."
    return rate


word_error_rate = _rate(text.WordErrorRate, "word_error_rate")
char_error_rate = _rate(text.CharErrorRate, "char_error_rate")
match_error_rate = _rate(text.MatchErrorRate, "match_error_rate")
word_information_lost = _rate(text.WordInfoLost, "word_information_lost")
word_information_preserved = _rate(text.WordInfoPreserved, "word_information_preserved")

from understudy.torchmetrics.functional.text.bert import bert_score as bert_score  # noqa: E402

__all__ = [
    "AVAILABLE_TOKENIZERS",
    "bert_score",
    "bleu_score",
    "char_error_rate",
    "chrf_score",
    "match_error_rate",
    "sacre_bleu_score",
    "translation_edit_rate",
    "word_error_rate",
    "word_information_lost",
    "word_information_preserved",
]
