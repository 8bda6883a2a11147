"""A significance-aware quality gate: does a candidate system keep up with its baseline?

The candidate fails a metric when it is worse than the baseline and the paired test (bootstrap
by default, from the statistics rows) says the difference is significant at ``alpha``; when it
is worse by more than ``max_drop`` points whatever the test says; or when its score is beyond
``min_score`` (below it; above it for a metric where lower is better, such as TER). A gate of
several metrics passes when every metric passes. The two must be comparable: the same metric,
signature and segments (else :class:`~understudy.errors.IncomparableError`).

>>> from understudy import BLEU
>>> refs = [["the cat sat on the mat", "a dog barked loudly", "it rains"] * 20]
>>> base = BLEU().segment_stats(["the cat sat on the mat", "a dog barked", "it rains"] * 20, refs)
>>> same = BLEU().segment_stats(["the cat sat on the mat", "a dog barked", "it rains"] * 20, refs)
>>> worse = BLEU().segment_stats(["a cat sat", "a dog", "rain"] * 20, refs)
>>> gate(base, same).passed, gate(base, worse).passed
(True, False)
>>> gate(base, worse).reasons[0].startswith("significantly worse")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from understudy.config import check_number
from understudy.errors import ConfigError, IncomparableError
from understudy.significance import DEFAULT_SEED, Test, paired_test
from understudy.stats import Stats


@dataclass(frozen=True)
class GateResult:
    """One metric's verdict: both scores, the paired test's p-value, and why it failed (if so)."""

    metric: str
    baseline: float
    candidate: float
    p_value: float
    alpha: float
    higher_is_better: bool
    signature: str
    reasons: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        """Whether the candidate passes this metric."""
        return not self.reasons

    @property
    def change(self) -> float:
        """The candidate's score minus the baseline's."""
        return self.candidate - self.baseline


@dataclass(frozen=True)
class GateVerdict:
    """Every metric's :class:`GateResult`; the gate passes when each passes."""

    results: tuple[GateResult, ...] = field(default_factory=tuple)

    @property
    def passed(self) -> bool:
        """Whether every metric passes."""
        return all(r.passed for r in self.results)


def check_comparable(baseline: Stats[Any, Any], candidate: Stats[Any, Any]) -> None:
    """Refuse two systems' statistics that cannot be compared, naming what differs."""
    if len(baseline) != len(candidate):
        raise IncomparableError(
            f"the baseline has {len(baseline)} segments and the candidate {len(candidate)}: "
            "score both on the same test set"
        )
    left, right = dict(baseline.signature.items()), dict(candidate.signature.items())
    for key in dict.fromkeys([*left, *right]):
        if left.get(key) != right.get(key):
            raise IncomparableError(
                f"the baseline and the candidate differ in the signature's {key}: "
                f"{left.get(key, '(none)')} against {right.get(key, '(none)')}; "
                "score both with the same options"
            )


def gate(
    baseline: Stats[Any, Any],
    candidate: Stats[Any, Any],
    alpha: float = 0.05,
    max_drop: float | None = None,
    min_score: float | None = None,
    test: Test = "bs",
    n: int | None = None,
    seed: int = DEFAULT_SEED,
) -> GateResult:
    """One metric's verdict on ``candidate`` against ``baseline`` (see the module's documentation)."""
    check_comparable(baseline, candidate)
    alpha = check_number(alpha, "alpha")
    if not 0 < alpha < 1:
        raise ConfigError(f"alpha must be between 0 and 1, got {alpha}")
    result = paired_test([baseline, candidate], ["baseline", "candidate"], test, n, seed)
    better = baseline.config.higher_is_better
    base, cand = result.baseline.score, result.systems[0].score
    p = result.systems[0].p_value
    assert p is not None  # a paired test's systems always have one
    worse_by = (base - cand) if better else (cand - base)
    reasons = []
    if worse_by > 0 and p <= alpha:
        reasons.append(f"significantly worse than the baseline (p = {p:.4f} <= {alpha})")
    if max_drop is not None and worse_by > check_number(max_drop, "max_drop"):
        reasons.append(f"worse by {worse_by:.4g}, more than the {max_drop:g} allowed")
    if min_score is not None and (cand < min_score if better else cand > min_score):
        bound = "below the minimum" if better else "above the maximum"
        reasons.append(f"{cand:.4g} is {bound} of {min_score:g}")
    signature = result.signature.format()
    return GateResult(baseline.config.name, base, cand, p, alpha, better, signature, tuple(reasons))


__all__ = ["GateResult", "GateVerdict", "check_comparable", "gate"]
