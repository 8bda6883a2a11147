"""torchmetrics' formulas, operation by operation in float32 tensors, from understudy's exact
integer counts: the numbers torchmetrics prints where it only differs in convention.

One of torchmetrics' results here is a known bug and is corrected (the difference is measured in
README): its ``smooth=True`` BLEU returns 0 when any order has no match, although smoothing exists
to score exactly that case. Counts reach
these functions as int64 and become float32 only here, so sums beyond 2**24 stay exact until the
last division, where torchmetrics' float32 sums have drifted.

>>> float(bleu(3, 3, [3, 2], [3, 2], [0.5, 0.5], smooth=False))
1.0
>>> float(edit_rate(1, 3))
0.3333333432674408
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import Tensor

_EPS = torch.tensor(1e-16)
Count = int | float | Tensor


def _f32(value: Count | Sequence[int]) -> Tensor:
    return torch.as_tensor(value).to(torch.float32)


def bleu(
    preds_len: Count,
    target_len: Count,
    numerator: Sequence[int] | Tensor,
    denominator: Sequence[int] | Tensor,
    weights: Sequence[float],
    smooth: bool,
) -> Tensor:
    """BLEU on a 0-1 scale as torchmetrics' ``BLEUScore`` computes it: ``smooth`` adds one to the
    matches and totals of every order but the first (Lin and Och), the brevity penalty is
    ``exp(1 - ref/hyp)`` up to equal lengths. Unsmoothed, an order without matches gives 0;
    smoothed, only unigrams without a match do (torchmetrics gives 0 for any order).

    >>> float(bleu(2, 3, [1, 0], [2, 1], [0.5, 0.5], smooth=True))
    0.3032653331756592
    """
    num, den = _f32(numerator), _f32(denominator)
    if float(num[0] if smooth else num.min()) == 0.0:
        return torch.tensor(0.0)
    if smooth:
        precision = torch.div(torch.add(num, torch.ones(len(num))), torch.add(den, torch.ones(len(den))))
        precision[0] = num[0] / den[0]
    else:
        precision = num / den
    geometric_mean = torch.exp(torch.sum(torch.tensor(weights) * torch.log(precision)))
    hyp, ref = _f32(preds_len), _f32(target_len)
    brevity_penalty = torch.tensor(1.0) if hyp > ref else torch.exp(1 - (ref / hyp))
    return brevity_penalty * geometric_mean


def chrf(hyp: Tensor, ref: Tensor, matches: Tensor, n_char_order: int, beta: float) -> Tensor:
    """chrF on a 0-1 scale as torchmetrics' ``CHRFScore`` computes it from each order's n-gram
    counts (characters first, then words): an F-score per order, the sum divided by the number
    of orders (orders without n-grams count as 0).

    >>> float(chrf(torch.tensor([3, 2]), torch.tensor([3, 2]), torch.tensor([3, 1]), 2, 2.0))
    0.75
    """
    hyp, ref, matches = _f32(hyp), _f32(ref), _f32(matches)
    scores = []
    for n in range(len(hyp)):
        precision = matches[n] / hyp[n] if hyp[n] > 0 else torch.tensor(0.0)
        recall = matches[n] / ref[n] if ref[n] > 0 else torch.tensor(0.0)
        denominator = torch.max(beta**2 * precision + recall, _EPS)
        scores.append((1 + beta**2) * precision * recall / denominator)
    # Two float32 sums, characters' then words', added: torchmetrics' order of rounding.
    total = sum(scores[:n_char_order]) + sum(scores[n_char_order:])
    return torch.as_tensor(total) / torch.tensor(float(len(hyp)))


def ter(num_edits: Count, tgt_length: Count) -> Tensor:
    """TER on a 0-1 scale as torchmetrics' ``TranslationEditRate``: edits over the mean reference
    length, 1 for edits against an empty reference, 0 without edits.

    >>> float(ter(1, 4)), float(ter(2, 0)), float(ter(0, 0))
    (0.25, 1.0, 0.0)
    """
    edits, length = _f32(num_edits), _f32(tgt_length)
    if length > 0 and edits > 0:
        return edits / length
    return torch.tensor(1.0) if length == 0 and edits > 0 else torch.tensor(0.0)


def edit_rate(errors: Count, total: Count) -> Tensor:
    """``errors / total`` in float32, as torchmetrics' WER, CER and MER divide (an empty total
    gives ``nan`` or ``inf``, as there).

    >>> float(edit_rate(2, 4))
    0.5
    """
    return _f32(errors) / _f32(total)


def word_information(hits: Count, target_total: Count, preds_total: Count) -> Tensor:
    """torchmetrics' word information preserved, ``(H/N_ref) * (H/N_hyp)``, with its signs: it
    keeps ``-H`` (edits minus the longer lengths) and squares it away.

    >>> float(word_information(2, 3, 3))
    0.444444477558136
    """
    errors = -_f32(hits)
    return (errors / _f32(target_total)) * (errors / _f32(preds_total))


__all__ = ["bleu", "chrf", "edit_rate", "ter", "word_information"]
