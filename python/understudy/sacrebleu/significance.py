"""sacrebleu's ``PairedTest`` and ``Result``, computed by :func:`understudy.significance.paired_test`.

The seed is ``$SACREBLEU_SEED`` (12345 by default) and p-values are counted as
sacrebleu counts them, so the numbers are sacrebleu's. ``n_jobs`` is accepted and
ignored: understudy's resampling is vectorised and multi-threaded in one process.

>>> from understudy.sacrebleu.metrics import BLEU
>>> systems = [("base", ["a b c d", "e f g h"]), ("other", ["a b c x", "e f g h"])]
>>> sigs, scores = PairedTest(systems, {"BLEU": BLEU()}, [["a b c d", "e f g h"]], "bs", 100)()
>>> scores["System"], round(scores["BLEU"][1].score, 2)
(['base', 'other'], 72.31)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from understudy.errors import ConfigError
from understudy.inputs.tokens import RefStreams
from understudy.sacrebleu.metrics.base import CompatMetric, Signature, seed_from_env
from understudy.significance import paired_test


class Result:
    """One system's score, and (when computed) its p-value against the baseline, mean and 95% half-width."""

    def __init__(
        self, score: float, p_value: float | None = None, mean: float | None = None, ci: float | None = None
    ) -> None:
        self.score, self.p_value, self.mean, self.ci = score, p_value, mean, ci

    def __repr__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in vars(self).items())


class PairedTest:
    """Each system against the first, by approximate randomization (``ar``) or paired bootstrap (``bs``).

    Calling it returns ``(signatures, scores)``: a signature per metric, and a dict with
    the system names under ``"System"`` and a list of :class:`Result` per metric name.
    """

    _DEFAULT_SAMPLES: ClassVar[dict[str, int]] = {"ar": 10000, "bs": 1000}

    def __init__(
        self,
        named_systems: Sequence[tuple[str, Sequence[str]]],
        metrics: Mapping[str, CompatMetric],
        references: RefStreams | None,
        test_type: str = "ar",
        n_samples: int = 0,
        n_ar_confidence: int = -1,
        n_jobs: int = 1,
    ) -> None:
        if test_type not in self._DEFAULT_SAMPLES:
            raise ConfigError(f"unknown test type {test_type!r}; known: ar, bs")
        del n_jobs
        self.test_type = test_type
        self.named_systems = list(named_systems)
        self.metrics = dict(metrics)
        self.references = references
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else self._DEFAULT_SAMPLES["bs"]
        self._seed = seed_from_env()

    def __call__(self) -> tuple[dict[str, Signature], dict[str, list[Any]]]:
        """Run the test for every metric."""
        names = [name for name, _ in self.named_systems]
        signatures: dict[str, Signature] = {}
        scores: dict[str, list[Any]] = {"System": names}
        for metric in self.metrics.values():
            stats = metric.segment_stats_many([hyps for _, hyps in self.named_systems], self.references)
            result = paired_test(
                stats,
                names,
                "bs" if self.test_type == "bs" else "ar",
                self.n_samples,
                self._seed,
                p_values="sacrebleu",
                ar_confidence=max(self.n_ar_confidence, 0),
            )
            key = stats[0].score().name
            base = result.baseline
            scores[key] = [Result(base.score, None, base.mean, base.ci)]
            scores[key] += [Result(s.score, s.p_value, s.mean, s.ci) for s in result.systems]
            signature = metric.get_signature()
            signature.update("seed", self._seed)
            signature.update(self.test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                signature.update("bs", self.n_ar_confidence)
            signatures[key] = signature
        return signatures, scores


__all__ = ["PairedTest", "Result"]
