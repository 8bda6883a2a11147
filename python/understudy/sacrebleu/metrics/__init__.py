"""sacrebleu's ``BLEU``, ``CHRF`` and ``TER`` classes: understudy's metrics with sacrebleu's signatures.

The constructors take sacrebleu's arguments in sacrebleu's order; ``corpus_score``
and ``sentence_score`` return sacrebleu's score classes (lists of counts, ``format``
with a signature string). ``BLEU.compute_bleu`` scores statistics a training loop
accumulated itself, through understudy's one BLEU scoring function.

>>> bleu = BLEU()
>>> bleu.corpus_score(["The cat sat on the mat."], [["The cat sat on the mat."]]).counts
[7, 6, 5, 4]
>>> round(BLEU.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11).score, 4)
83.7592
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

import understudy
from understudy.inputs.tokens import RefStreams
from understudy.metrics.bleu import BLEUConfig, score_rows
from understudy.sacrebleu.metrics.base import BLEUScore, CHRFScore, CompatMetric, Score, Signature, TERScore
from understudy.stats import Stats


class BLEU(CompatMetric, understudy.BLEU):
    """sacrebleu's ``BLEU(lowercase, force, tokenize, smooth_method, smooth_value, max_ngram_order,
    effective_order, trg_lang, references)``."""

    TOKENIZERS = (*understudy.TOKENIZERS, "spm")
    TOKENIZER_DEFAULT = "13a"
    SMOOTH_DEFAULTS: ClassVar[dict[str, float | None]] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

    def __init__(
        self,
        lowercase: bool = False,
        force: bool = False,
        tokenize: str | None = None,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int = 4,
        effective_order: bool = False,
        trg_lang: str = "",
        references: RefStreams | None = None,
    ) -> None:
        understudy.BLEU.__init__(
            self,
            lowercase=lowercase,
            force=force,
            tokenize=tokenize,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=max_ngram_order,
            effective_order=effective_order,
            trg_lang=trg_lang,
            references=references,
        )

    @staticmethod
    def compute_bleu(
        correct: Sequence[float],
        total: Sequence[float],
        sys_len: float,
        ref_len: float,
        smooth_method: str = "none",
        smooth_value: float | None = None,
        effective_order: bool = False,
        max_ngram_order: int = 4,
    ) -> BLEUScore:
        """BLEU of accumulated statistics: matches and hypothesis n-grams per order, and the lengths
        (fractions too, such as counts averaged across ranks, as sacrebleu takes them)."""
        if len(correct) != max_ngram_order or len(total) != max_ngram_order:
            raise understudy.ConfigError(
                f"correct and total need {max_ngram_order} counts each (max_ngram_order), "
                f"got {len(correct)} and {len(total)}"
            )
        config = BLEUConfig(
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            effective_order=effective_order,
            max_ngram_order=max_ngram_order,
        )
        values = [_count(v, name) for v, name in [(sys_len, "sys_len"), (ref_len, "ref_len")]]
        values += [_count(v, "correct") for v in correct] + [_count(v, "total") for v in total]
        # Counts averaged across ranks are fractions: sacrebleu scores them as they are.
        scored = score_rows(np.array([values], dtype=np.float64), config)
        return BLEUScore(
            float(scored.scores[0]),
            list(correct),
            list(total),
            [float(p) for p in scored.precisions[0]],
            float(scored.bp[0]),
            sys_len,
            ref_len,
        )


def _count(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise understudy.InputTypeError(f"{name} holds numbers, got {type(value).__name__}")
    if not np.isfinite(value) or value < 0:
        raise understudy.InputError(f"{name} holds counts, never negative or infinite; got {value}")
    return float(value)


class CHRF(CompatMetric, understudy.CHRF):
    """sacrebleu's ``CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing,
    references)``."""

    CHAR_ORDER, WORD_ORDER, BETA = 6, 0, 2


class TER(CompatMetric, understudy.TER):
    """sacrebleu's ``TER(normalized, no_punct, asian_support, case_sensitive, references)``.

    Its corpus length is sacrebleu's float sum of the segments' average reference lengths
    (:func:`~understudy.metrics.ter.sacrebleu_length`), so that with 3, 5, 6, ... references
    per segment the score is sacrebleu's to the last bit; ``understudy.TER`` sums exactly.
    """

    def _score_of(self, stats: Stats[Any, Any]) -> Score:
        result = stats.sacrebleu_score()
        return TERScore(result.score, result.num_edits, result.ref_length)


METRICS: dict[str, Any] = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}
"""The metric classes by upper-case name, as sacrebleu's command line looks them up."""

__all__ = ["BLEU", "CHRF", "METRICS", "TER", "BLEUScore", "CHRFScore", "Score", "Signature", "TERScore"]
