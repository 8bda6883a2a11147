"""torchmetrics' inputs counted by understudy: its argument layouts (references grouped by
prediction) read into lists, and each metric's statistics rows, as integers.

torchmetrics counts in Python loops and keeps float32 sums; here the core counts and the sums
stay int64, so they are exact at any corpus size and across processes. Text is split as
torchmetrics splits it: ``str.split`` (the core's ``none`` tokenizer for BLEU; words scored as
tokens, :mod:`understudy.inputs.tokens`, for the error rates) or sacrebleu's tokenizers.

>>> bleu_rows(BLEU(max_ngram_order=2), ["the cat sat"], [["the cat sat", "a cat"]]).tolist()
[[3, 3, 3, 2, 3, 2]]
>>> edit_rows(["a b c"], ["a x c"]).tolist()   # [substitutions, deletions, insertions, hits, ref_len]
[[1, 0, 0, 2, 3]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy.errors import InputTypeError, LengthMismatchError
from understudy.metrics.bleu import BLEU
from understudy.metrics.chrf import CHRF
from understudy.metrics.ter import TER
from understudy.metrics.wer import WER
from understudy.nltk._layout import streams

Rows = NDArray[np.int64]


def _strings(what: str, values: Sequence[Any]) -> list[str]:
    # torchmetrics reads any empty value (an empty list among the strings, say) as empty text.
    if isinstance(values, str) or not isinstance(values, Sequence):
        raise InputTypeError(f"{what} must be a sequence of strings, not {type(values).__name__}")
    if not all(isinstance(value, str) or not value for value in values):
        raise InputTypeError(f"{what} must be a sequence of strings")
    return [value or "" for value in values]


def corpus(
    preds: str | Sequence[str], target: str | Sequence[str | Sequence[str]], spread_one: bool = True
) -> tuple[list[str], list[list[str]]]:
    """Predictions and each prediction's references, from torchmetrics' forms: one prediction or
    many; per prediction a reference string or a list of them. With one prediction and a flat list
    of strings, the strings are that prediction's references when ``spread_one`` (chrF, TER) and
    one per prediction otherwise (BLEU); a different count of predictions and references is refused.

    >>> corpus("a", ["b", "c"])
    (['a'], [['b', 'c']])
    >>> corpus(["a", "b"], ["c", "d"])
    (['a', 'b'], [['c'], ['d']])
    >>> corpus([], [[]])   # nothing to score
    ([], [])
    """
    hyps = [preds] if isinstance(preds, str) else _strings("preds", preds)
    if not hyps:
        return [], []
    targets: Sequence[Any] = [target] if isinstance(target, str) else target
    if not isinstance(targets, Sequence):
        raise InputTypeError(f"target must be a sequence of references, not {type(target).__name__}")
    if all(isinstance(ref, str) for ref in targets):
        refs = [list(targets)] if spread_one and len(hyps) == 1 else [[ref] for ref in targets]
    else:
        refs = [[ref] if isinstance(ref, str) else _strings("each target", ref) for ref in targets]
    if len(hyps) != len(refs):
        raise LengthMismatchError(f"Corpus has different size {len(refs)} != {len(hyps)}")
    return hyps, refs


def bleu_rows(metric: BLEU, preds: list[str], target: list[list[str]]) -> Rows:
    """BLEU rows ``[hyp_len, ref_len, matches..., totals...]`` of each prediction's text under
    ``metric`` (its tokenizer: ``none`` splits as ``str.split``). The reference length is the
    closest, the shorter on a tie."""
    if not preds:
        return np.zeros((0, 2 + 2 * metric.config.max_ngram_order), dtype=np.int64)
    return metric.segment_stats(preds, streams(target, len(preds), convert=str)).rows


def chrf_rows(metric: CHRF, preds: list[str], target: list[list[str]]) -> Rows:
    """chrF rows, ``[hyp, ref, matches]`` per order (characters, then words), against each
    prediction's best reference under ``metric`` (which smooths with ``eps_smoothing``, as
    torchmetrics' average over every order does).

    >>> chrf = CHRF(char_order=3, word_order=0, eps_smoothing=True)
    >>> chrf_rows(chrf, ["abc"], [["ab"]]).tolist()   # 3-grams: 1 in the prediction, none to match
    [[3, 2, 2, 2, 1, 1, 1, 0, 0]]
    """
    if not preds:
        return np.zeros((0, 3 * (metric.config.char_order + metric.config.word_order)), dtype=np.int64)
    rows = metric.segment_stats(preds, streams(target, len(preds), convert=str)).rows.copy()
    # sacrebleu counts no prediction n-grams of an order its reference lacks; torchmetrics counts
    # them all, which a prediction scored against itself gives.
    rows[:, 0::3] = metric.segment_stats(preds, [preds]).rows[:, 0::3]
    return rows


def ter_rows(metric: TER, preds: list[str], target: list[list[str]]) -> Rows:
    """TER rows ``[edits, mean reference length * TERConfig.length_scale]`` under ``metric``."""
    if not preds:
        return np.zeros((0, 2), dtype=np.int64)
    return metric.segment_stats(preds, streams(target, len(preds), convert=str)).rows


def edit_rows(preds: str | Sequence[str], target: str | Sequence[str], chars: bool = False) -> Rows:
    """Edit rows ``[S, D, I, hits, ref_len]`` of each prediction against its one reference, over
    whitespace-split words, or over every character (``chars``, spaces included)."""
    hyps = [preds] if isinstance(preds, str) else _strings("preds", preds)
    refs = [target] if isinstance(target, str) else _strings("target", target)
    if len(hyps) != len(refs):
        raise LengthMismatchError(f"{len(hyps)} predictions but {len(refs)} references")
    if not hyps:
        return np.zeros((0, 5), dtype=np.int64)
    split = list if chars else str.split
    return WER().segment_stats([split(hyp) for hyp in hyps], [[split(ref) for ref in refs]]).rows


__all__ = ["Rows", "bleu_rows", "chrf_rows", "corpus", "edit_rows", "ter_rows"]
