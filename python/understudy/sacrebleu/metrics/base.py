"""sacrebleu's ``Score``, ``Signature`` and metric behaviour, as a thin layer over understudy's metrics.

A compat metric is an understudy metric (:class:`understudy.BLEU` and friends) whose
methods take sacrebleu's argument names and return sacrebleu's score classes. Every
number comes from understudy's statistics and scoring functions.

>>> score = BLEUScore(30.0, [3, 2, 1, 0], [4, 3, 2, 1], [75.0, 66.7, 50.0, 0.0], 1.0, 4, 4)
>>> score.format(width=1)
'BLEU = 30.0 75.0/66.7/50.0/0.0 (BP = 1.000 ratio = 1.000 hyp_len = 4 ref_len = 4)'
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from typing import Any

from understudy.inputs.tokens import RefStreams, TokenSegment
from understudy.metric import Metric
from understudy.metrics.bleu import BLEUResult
from understudy.metrics.chrf import CHRFConfig, CHRFResult
from understudy.metrics.ter import TERResult
from understudy.result import sacrebleu_text
from understudy.signature import Signature as _Signature
from understudy.significance import bootstrap_ci
from understudy.stats import Stats

SEED_ENV = "SACREBLEU_SEED"
"""The environment variable sacrebleu reads its resampling seed from (``none``: random)."""


def seed_from_env() -> int:
    """``$SACREBLEU_SEED`` as sacrebleu reads it: 12345 by default; ``none`` or 0 draw a random seed."""
    text = os.environ.get(SEED_ENV, "12345")
    seed = None if text.lower() == "none" else int(text)
    return seed if seed else secrets.randbits(32)


class Score:
    """A score with sacrebleu's ``format`` (text or JSON) and ``repr``."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(
        self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False
    ) -> str:
        """The score line, the score alone, or the JSON document sacrebleu prints."""
        interval = (self._mean, self._ci) if self._mean > 0 else None
        return sacrebleu_text(
            self.name, self.score, width, signature, self._verbose, interval, score_only, is_json
        )

    def _set_interval(self, mean: float | None, half_width: float | None) -> None:
        if mean is not None and half_width is not None:
            self._mean, self._ci = mean, half_width

    def __repr__(self) -> str:
        return self.format()


class BLEUScore(Score):
    """sacrebleu's BLEU score: lists of counts, totals and precisions, and the lengths."""

    def __init__(
        self,
        score: float,
        counts: list[float],
        totals: list[float],
        precisions: list[float],
        bp: float,
        sys_len: float,
        ref_len: float,
    ) -> None:
        super().__init__("BLEU", score)
        self.counts, self.totals, self.precisions = list(counts), list(totals), list(precisions)
        self.bp, self.sys_len, self.ref_len = bp, sys_len, ref_len
        self.prec_str = "/".join(f"{p:.1f}" for p in self.precisions)
        self.ratio = sys_len / ref_len if ref_len else 0
        lengths = f"hyp_len = {_length(sys_len)} ref_len = {_length(ref_len)}"
        self._verbose = f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} {lengths})"

    @classmethod
    def of(cls, result: BLEUResult) -> BLEUScore:
        """The sacrebleu form of an understudy result."""
        return cls(
            result.score,
            list(result.counts),
            list(result.totals),
            list(result.precisions),
            result.bp,
            result.sys_len,
            result.ref_len,
        )


def _length(value: float) -> str:
    # sacrebleu formats lengths with "d", which fails on averaged (float) lengths; a whole
    # float prints as sacrebleu prints the int, a fraction as itself.
    return f"{int(value):d}" if float(value).is_integer() else f"{value}"


class CHRFScore(Score):
    """sacrebleu's chrF score: named ``chrF<beta>`` with a ``+`` per word order."""

    def __init__(self, score: float, char_order: int, word_order: int, beta: int) -> None:
        self.beta, self.char_order, self.word_order = beta, char_order, word_order
        super().__init__(f"chrF{beta}" + "+" * word_order, score)

    @classmethod
    def of(cls, result: CHRFResult) -> CHRFScore:
        """The sacrebleu form of an understudy result."""
        config = result.signature.config
        assert isinstance(config, CHRFConfig)
        return cls(result.score, config.char_order, config.word_order, int(config.beta))


class TERScore(Score):
    """sacrebleu's TER score: the edits and the average reference length."""

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length

    @classmethod
    def of(cls, result: TERResult) -> TERScore:
        """The sacrebleu form of an understudy result."""
        return cls(result.score, result.num_edits, result.ref_length)


_EXTRA_ORDER = ("bs", "ar", "seed")
"""Where sacrebleu prints the entries its tests add, whatever order they were added in."""


class Signature:
    """sacrebleu's mutable signature: ``format(short)`` and ``update(key, value)``."""

    def __init__(self, signature: _Signature) -> None:
        self._signature = signature
        self._extra: dict[str, str] = {}

    def update(self, key: str, value: Any) -> None:
        """Add or change one entry (sacrebleu adds ``seed``, ``bs``, ``ar`` so)."""
        self._extra[key] = str(value).lower() if value is None else str(value)

    def format(self, short: bool = False) -> str:
        """The signature string, with abbreviated keys when ``short``."""
        order = {key: k for k, key in enumerate(_EXTRA_ORDER)}
        extras = sorted(self._extra.items(), key=lambda kv: order.get(kv[0], len(order)))
        return self._signature.with_extras(extras).format(short)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


def as_score(result: Any) -> Score:
    """The sacrebleu score class of an understudy result."""
    if isinstance(result, BLEUResult):
        return BLEUScore.of(result)
    if isinstance(result, CHRFResult):
        return CHRFScore.of(result)
    return TERScore.of(result)


class CompatMetric(Metric[Any, Any]):
    """sacrebleu's metric methods on an understudy metric (mixed in before it)."""

    def corpus_score(  # type: ignore[override]
        self, hypotheses: Sequence[str], references: RefStreams | None, n_bootstrap: int = 1
    ) -> Any:
        """The corpus score; with ``n_bootstrap > 1`` also its mean and 95% interval by resampling."""
        stats = self.segment_stats(hypotheses, references)
        score = self._score_of(stats)
        if n_bootstrap > 1:
            system = bootstrap_ci(stats, n_bootstrap, seed_from_env()).system
            score._set_interval(system.mean, system.ci)
        return score

    def _score_of(self, stats: Stats[Any, Any]) -> Score:
        """The sacrebleu score of these statistics (TER sums lengths as sacrebleu does)."""
        return as_score(stats.score())

    def sentence_score(
        self, hypothesis: str | TokenSegment, references: Sequence[str | TokenSegment | None]
    ) -> Any:
        """The score of one hypothesis against its references (a list of strings)."""
        # Metric.sentence_score checks the arguments and calls corpus_score above.
        return Metric.sentence_score(self, hypothesis, references)

    def get_signature(self) -> Signature:
        """The signature of this metric's configuration (references cached: their count)."""
        nrefs = len(self._references) if self._references is not None else 1
        return Signature(_Signature(nrefs, self.config))
