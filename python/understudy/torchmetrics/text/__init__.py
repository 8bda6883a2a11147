"""torchmetrics' text metrics as ``torchmetrics.Metric`` subclasses, with torchmetrics' arguments,
state names and outputs, counted by understudy into int64 states summed across processes (exact
under DDP, where torchmetrics sums float32).

>>> bleu = BLEUScore()
>>> bleu(["the cat is on the mat"], [["there is a cat on the mat", "a cat is on the mat"]])
tensor(0.7598)
>>> bleu.numerator.dtype
torch.int64
"""

# No `from __future__ import annotations`: TorchScript (torch.jit.script, which torchmetrics'
# tests apply to every metric) reads the state annotations as types, not strings.
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import Tensor
from torchmetrics import Metric
from torchmetrics.utilities import dim_zero_cat

from understudy.errors import ConfigError
from understudy.metrics.bleu import BLEU
from understudy.metrics.chrf import CHRF
from understudy.metrics.ter import TER, TERConfig
from understudy.torchmetrics import counts, formulas


def _zeros(size: int = 0) -> Tensor:
    return torch.zeros(size, dtype=torch.int64) if size else torch.tensor(0, dtype=torch.int64)


def _sum(rows: counts.Rows, start: int, stop: int | None = None) -> Tensor:
    """The column sums of ``rows[:, start:stop]`` (one column when ``stop`` is None) as int64."""
    if stop is None:
        return torch.tensor(int(rows[:, start].sum()), dtype=torch.int64)
    return torch.from_numpy(np.ascontiguousarray(rows[:, start:stop].sum(axis=0, dtype=np.int64)))


def uniform_weights(weights: Sequence[float] | None, n_gram: int) -> list[float]:
    """``weights``, or ``1/n_gram`` for each order; a length other than ``n_gram`` is refused.

    >>> uniform_weights(None, 2)
    [0.5, 0.5]
    """
    if n_gram < 1:
        raise ConfigError(f"n_gram must be at least 1, not {n_gram}")
    if weights is not None and len(weights) != n_gram:
        raise ConfigError(f"List of weights has different weights than `n_gram`: {len(weights)} != {n_gram}")
    return list(weights) if weights is not None else [1.0 / n_gram] * n_gram


class _TextMetric(Metric):
    """What every class here shares: torchmetrics' ``plot``."""

    def plot(self, val: Tensor | Sequence[Tensor] | None = None, ax: Any = None) -> Any:
        """Plot one result, several, or (``val=None``) the current one, as torchmetrics does
        (needs matplotlib); returns the figure and the axes."""
        return self._plot(val, ax)


class BLEUScore(_TextMetric):
    """torchmetrics' ``BLEUScore``: corpus BLEU on a 0-1 scale over whitespace-split words, any
    ``n_gram`` and ``weights``, ``smooth`` adding one to the counts of orders 2 and up.

    Differences from torchmetrics, both its bugs: the closest reference length goes to the shorter
    reference on a tie (torchmetrics takes the first listed), and smoothing scores a corpus in
    which some higher order has no match (torchmetrics returns 0).

    >>> BLEUScore(n_gram=2, smooth=True)(["the cat sat"], [["a cat sat down"]])
    tensor(0.4777)
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    preds_len: Tensor
    target_len: Tensor
    numerator: Tensor
    denominator: Tensor

    def __init__(
        self, n_gram: int = 4, smooth: bool = False, weights: Sequence[float] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.n_gram, self.smooth = n_gram, smooth
        self.weights = uniform_weights(weights, n_gram)
        # The `none` tokenizer splits text as str.split does (sacrebleu's parity holds it to that).
        self._bleu = BLEU(max_ngram_order=n_gram, tokenize="none")
        self.add_state("preds_len", _zeros(), dist_reduce_fx="sum")
        self.add_state("target_len", _zeros(), dist_reduce_fx="sum")
        self.add_state("numerator", _zeros(n_gram), dist_reduce_fx="sum")
        self.add_state("denominator", _zeros(n_gram), dist_reduce_fx="sum")

    def update(self, preds: str | Sequence[str], target: Sequence[str | Sequence[str]]) -> None:
        """Count ``preds`` (predictions) against ``target`` (each prediction's references)."""
        hyps, refs = counts.corpus(preds, target, spread_one=False)
        rows = counts.bleu_rows(self._bleu, hyps, refs)
        n = self.n_gram
        self.preds_len += _sum(rows, 0)
        self.target_len += _sum(rows, 1)
        self.numerator += _sum(rows, 2, 2 + n)
        self.denominator += _sum(rows, 2 + n, 2 + 2 * n)

    def compute(self) -> Tensor:
        """BLEU of everything counted so far (0 before any update)."""
        return formulas.bleu(
            self.preds_len, self.target_len, self.numerator, self.denominator, self.weights, self.smooth
        )


AVAILABLE_TOKENIZERS = ("none", "13a", "zh", "intl", "char", "ja-mecab", "ko-mecab", "flores101", "flores200")
"""The ``tokenize`` values :class:`SacreBLEUScore` takes, as torchmetrics lists them."""


class SacreBLEUScore(BLEUScore):
    """torchmetrics' ``SacreBLEUScore``: :class:`BLEUScore` over sacrebleu's tokenizers
    (``tokenize``: ``13a``, ``none``, ``zh``, ``intl``, ``char``, ``ja-mecab``, ``ko-mecab``,
    ``flores101``, ``flores200``) and ``lowercase``. Lowercasing comes before tokenizing, as in
    sacrebleu (torchmetrics lowercases the tokens, which differs where case changes a token).

    >>> SacreBLEUScore()(["The cat, on the mat."], [["The cat, on the mat."]])
    tensor(1.)
    """

    def __init__(
        self,
        n_gram: int = 4,
        smooth: bool = False,
        tokenize: str = "13a",
        lowercase: bool = False,
        weights: Sequence[float] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(n_gram, smooth, weights, **kwargs)
        self.tokenize, self.lowercase = tokenize, lowercase
        # Built once: an unknown tokenizer is refused here, and MeCab is loaded once.
        self._bleu = BLEU(max_ngram_order=n_gram, tokenize=tokenize, lowercase=lowercase)


class CHRFScore(_TextMetric):
    """torchmetrics' ``CHRFScore``: chrF (``n_word_order=2``, the default, is chrF++) on a 0-1
    scale, each order's F-score averaged over all orders; with ``return_sentence_level_score`` the
    scores of the sentences too, in a tensor.

    Differences from torchmetrics, its bugs: without ``whitespace``, every Unicode space is left
    out of the character n-grams, as in sacrebleu (torchmetrics leaves out only ASCII spaces); a
    prediction matching none of its references counts its first reference's n-grams, as in
    sacrebleu (torchmetrics counts no reference n-grams, raising the corpus recall).

    >>> CHRFScore()(["the cat sat"], [["the cat sat"]])
    tensor(1.)
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    preds_n_grams: Tensor
    target_n_grams: Tensor
    matching_n_grams: Tensor
    sentence_chrf_score: list[Tensor]

    def __init__(
        self,
        n_char_order: int = 6,
        n_word_order: int = 2,
        beta: float = 2.0,
        lowercase: bool = False,
        whitespace: bool = False,
        return_sentence_level_score: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if n_char_order < 1 or n_word_order < 0 or beta < 0:
            raise ConfigError("n_char_order must be at least 1, n_word_order and beta at least 0")
        self.n_char_order, self.n_word_order, self.beta = n_char_order, n_word_order, beta
        self.lowercase, self.whitespace = lowercase, whitespace
        self.return_sentence_level_score = return_sentence_level_score
        # eps_smoothing picks the best reference by the F-score averaged over every order, as here.
        self._chrf = CHRF(
            char_order=n_char_order,
            word_order=n_word_order,
            beta=beta,
            lowercase=lowercase,
            whitespace=whitespace,
            eps_smoothing=True,
        )
        for state in ("preds_n_grams", "target_n_grams", "matching_n_grams"):
            self.add_state(state, _zeros(n_char_order + n_word_order), dist_reduce_fx="sum")
        if return_sentence_level_score:
            self.add_state("sentence_chrf_score", [], dist_reduce_fx="cat")

    def update(self, preds: str | Sequence[str], target: Sequence[str | Sequence[str]]) -> None:
        """Count ``preds`` against ``target`` (each prediction's references)."""
        rows = counts.chrf_rows(self._chrf, *counts.corpus(preds, target))
        orders = rows.shape[1] // 3
        self.preds_n_grams += _sum(rows[:, 0::3], 0, orders)
        self.target_n_grams += _sum(rows[:, 1::3], 0, orders)
        self.matching_n_grams += _sum(rows[:, 2::3], 0, orders)
        if self.return_sentence_level_score:
            table = torch.from_numpy(np.array(rows, dtype=np.int64))
            self.sentence_chrf_score.extend(
                self._score(row[0::3], row[1::3], row[2::3]).unsqueeze(0) for row in table
            )

    def _score(self, hyp: Tensor, ref: Tensor, matches: Tensor) -> Tensor:
        return formulas.chrf(hyp, ref, matches, self.n_char_order, self.beta)

    def compute(self) -> Tensor | tuple[Tensor, Tensor]:
        """chrF of everything counted so far, and the sentences' scores when asked for."""
        score = self._score(self.preds_n_grams, self.target_n_grams, self.matching_n_grams)
        if self.return_sentence_level_score:
            return score, dim_zero_cat(self.sentence_chrf_score)  # synced: one tensor
        return score


class TranslationEditRate(_TextMetric):
    """torchmetrics' ``TranslationEditRate``: sacrebleu's TER on a 0-1 scale, case-insensitive by
    default (``lowercase=True``), with ``normalize``, ``no_punctuation`` and ``asian_support``;
    with ``return_sentence_level_score`` the sentences' TER too.

    Differences from torchmetrics: the shifts are sacrebleu's (torchmetrics searches them its own
    way and sometimes finds other edits), and the mean reference lengths are summed exactly.

    >>> TranslationEditRate()(["the cat sat"], [["the cat sat down"]])
    tensor(0.2500)
    """

    is_differentiable = False
    higher_is_better = False
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    total_num_edits: Tensor
    total_tgt_len: Tensor
    sentence_ter: list[Tensor]

    def __init__(
        self,
        normalize: bool = False,
        no_punctuation: bool = False,
        lowercase: bool = True,
        asian_support: bool = False,
        return_sentence_level_score: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self._ter = TER(
            normalized=normalize,
            no_punct=no_punctuation,
            case_sensitive=not lowercase,
            asian_support=asian_support,
        )
        self.return_sentence_level_score = return_sentence_level_score
        self.add_state("total_num_edits", _zeros(), dist_reduce_fx="sum")
        # The sum of mean reference lengths, times TERConfig.length_scale: an integer.
        self.add_state("total_tgt_len", _zeros(), dist_reduce_fx="sum")
        if return_sentence_level_score:
            self.add_state("sentence_ter", [], dist_reduce_fx="cat")

    def update(self, preds: str | Sequence[str], target: Sequence[str | Sequence[str]]) -> None:
        """Count ``preds`` against ``target`` (each prediction's references)."""
        # A prediction given no reference adds nothing, as in torchmetrics (whose test asserts 0).
        pairs = [(hyp, refs) for hyp, refs in zip(*counts.corpus(preds, target), strict=True) if refs]
        rows = counts.ter_rows(self._ter, [hyp for hyp, _ in pairs], [refs for _, refs in pairs])
        self.total_num_edits += _sum(rows, 0)
        self.total_tgt_len += _sum(rows, 1)
        if self.return_sentence_level_score:
            scale = TERConfig.length_scale
            self.sentence_ter.extend(formulas.ter(int(e), float(n) / scale).unsqueeze(0) for e, n in rows)

    def compute(self) -> Tensor | tuple[Tensor, Tensor]:
        """TER of everything counted so far, and the sentences' TER when asked for."""
        score = formulas.ter(self.total_num_edits, float(self.total_tgt_len) / TERConfig.length_scale)
        if self.return_sentence_level_score:
            return score, dim_zero_cat(self.sentence_ter)
        return score


def edit_sums(rows: counts.Rows) -> dict[str, Tensor]:
    """From edit rows ``[S, D, I, hits, ref_len]``: the summed edit distance, reference and
    prediction lengths, and the longer of the two lengths summed (torchmetrics' MER total), each
    independent of which minimal alignment was chosen.

    >>> {k: int(v) for k, v in edit_sums(np.array([[1, 0, 1, 1, 2]])).items()}
    {'edits': 2, 'target': 2, 'preds': 3, 'longer': 3}
    """
    preds = rows[:, 0] + rows[:, 2] + rows[:, 3]
    sums = {
        "edits": rows[:, 0] + rows[:, 1] + rows[:, 2],
        "target": rows[:, 4],
        "preds": preds,
        "longer": np.maximum(rows[:, 4], preds),
    }
    return {key: torch.tensor(int(value.sum()), dtype=torch.int64) for key, value in sums.items()}


class _EditMetric(_TextMetric):
    is_differentiable = False
    higher_is_better = False
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0
    chars = False

    errors: Tensor
    total: Tensor

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_state("errors", _zeros(), dist_reduce_fx="sum")
        self.add_state("total", _zeros(), dist_reduce_fx="sum")

    def _sums(self, preds: str | Sequence[str], target: str | Sequence[str]) -> dict[str, Tensor]:
        return edit_sums(counts.edit_rows(preds, target, self.chars))

    def update(self, preds: str | Sequence[str], target: str | Sequence[str]) -> None:
        """Count ``preds`` against ``target`` (one reference each)."""
        sums = self._sums(preds, target)
        self.errors += sums["edits"]
        self.total += sums["target"]

    def compute(self) -> Tensor:
        """The rate of everything counted so far."""
        return formulas.edit_rate(self.errors, self.total)


class WordErrorRate(_EditMetric):
    """torchmetrics' ``WordErrorRate``: word edits over reference words, words split on whitespace.

    >>> WordErrorRate()(["this is the prediction", "there is an other sample"],
    ...                 ["this is the reference", "there is another one"])
    tensor(0.5000)
    """


class CharErrorRate(_EditMetric):
    """torchmetrics' ``CharErrorRate``: character edits over reference characters, spaces included.

    >>> CharErrorRate()(["this is the prediction", "there is an other sample"],
    ...                 ["this is the reference", "there is another one"])
    tensor(0.3415)
    """

    chars = True


class MatchErrorRate(_EditMetric):
    """torchmetrics' ``MatchErrorRate``: word edits over the longer of the two lengths.

    >>> MatchErrorRate()(["this is the prediction", "there is an other sample"],
    ...                  ["this is the reference", "there is another one"])
    tensor(0.4444)
    """

    def update(self, preds: str | Sequence[str], target: str | Sequence[str]) -> None:
        """Count ``preds`` against ``target`` (one reference each)."""
        sums = self._sums(preds, target)
        self.errors += sums["edits"]
        self.total += sums["longer"]


class WordInfoPreserved(_TextMetric):
    """torchmetrics' ``WordInfoPreserved``, ``(H/N_ref) * (H/N_pred)`` over summed counts, with
    its state names (``errors`` holds ``-H``).

    >>> WordInfoPreserved()(["this is the prediction", "there is an other sample"],
    ...                     ["this is the reference", "there is another one"])
    tensor(0.3472)
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    errors: Tensor
    target_total: Tensor
    preds_total: Tensor

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for state in ("errors", "target_total", "preds_total"):
            self.add_state(state, _zeros(), dist_reduce_fx="sum")

    def update(self, preds: str | Sequence[str], target: str | Sequence[str]) -> None:
        """Count ``preds`` against ``target`` (one reference each)."""
        sums = edit_sums(counts.edit_rows(preds, target))
        self.errors += sums["edits"] - sums["longer"]
        self.target_total += sums["target"]
        self.preds_total += sums["preds"]

    def compute(self) -> Tensor:
        """The measure of everything counted so far."""
        return formulas.word_information(-self.errors, self.target_total, self.preds_total)


class WordInfoLost(WordInfoPreserved):
    """torchmetrics' ``WordInfoLost``: one minus :class:`WordInfoPreserved`.

    >>> WordInfoLost()(["this is the prediction", "there is an other sample"],
    ...                ["this is the reference", "there is another one"])
    tensor(0.6528)
    """

    higher_is_better = False

    def compute(self) -> Tensor:
        """The measure of everything counted so far."""
        return 1 - super().compute()


from understudy.torchmetrics.text.bert import BERTScore as BERTScore  # noqa: E402 (after the classes it sits beside)

__all__ = [
    "AVAILABLE_TOKENIZERS",
    "BERTScore",
    "BLEUScore",
    "CHRFScore",
    "CharErrorRate",
    "MatchErrorRate",
    "SacreBLEUScore",
    "TranslationEditRate",
    "WordErrorRate",
    "WordInfoLost",
    "WordInfoPreserved",
    "edit_sums",
    "uniform_weights",
]
