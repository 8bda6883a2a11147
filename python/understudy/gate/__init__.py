"""A significance-aware quality gate: does a candidate system keep up with its baseline?

The candidate fails a metric when it is worse than the baseline and the paired test (bootstrap
by default, from the statistics rows) says the difference is significant at ``alpha`` (with a
non-inferiority ``margin``: when a one-sided bootstrap test against a drop of exactly
``margin`` says it is worse by more than that, :func:`~understudy.significance.drop_beyond`;
a significant drop within the margin passes); when it is worse by more than ``max_drop``
points whatever the test says; or when its score is beyond
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

import math
from dataclasses import dataclass, field
from typing import Any

from understudy.config import Declared, check_number, option
from understudy.errors import ConfigError, IncomparableError
from understudy.seeding import DEFAULT_SEED, seed_value
from understudy.significance import DEFAULT_SAMPLES, Test, drop_beyond, paired_test
from understudy.stats import Stats
from understudy.wording import counted


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
    margin: float | None = None
    """The non-inferiority margin tested, if one was."""
    margin_p_value: float | None = None
    """The one-sided p-value that the drop exceeds :attr:`margin`."""

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
            f"the baseline has {counted(len(baseline), 'segment')} and the candidate {len(candidate)}: "
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


MIN_SEGMENTS = 10
"""The fewest segments the gate tests: with fewer, resampling cannot tell systems apart (one
segment: every bootstrap resample is that segment, so any difference looks significant)."""


def smallest_p_value(n: int) -> float:
    """The smallest p-value ``n`` resamples or trials can give: 1/(n+1), every resample less
    extreme than the observed difference.

    >>> smallest_p_value(19), smallest_p_value(1000) < 0.001
    (0.05, True)
    """
    return 1 / (n + 1)


def check_gate_options(
    alpha: float,
    max_drop: float | None,
    min_score: float | None,
    test: Test,
    n: int | None,
    margin: float | None = None,
) -> float:
    """Refuse what would make a gate that cannot fail, or says nothing: ``alpha`` outside (0, 1),
    an ``n`` too small for any p-value to reach ``alpha``, a negative or NaN ``max_drop`` or
    ``margin``, a margin with randomization, a NaN ``min_score``; ``alpha`` as a float.

    >>> check_gate_options(0.05, None, None, "bs", 10)
    Traceback (most recent call last):
    ...
    understudy.errors.ConfigError: -n 10 cannot reach alpha 0.05: the smallest p-value 10 resamples give \
is 1/11 = 0.0909; give -n 19 or more
    """
    alpha = check_number(alpha, "alpha")
    if not 0 < alpha < 1:
        raise ConfigError(f"alpha must be between 0 and 1, got {alpha}")
    samples = DEFAULT_SAMPLES[test] if n is None else n
    if isinstance(samples, int) and samples >= 1 and smallest_p_value(samples) > alpha:
        needed = math.ceil(1 / alpha - 1 - 1e-9)
        raise ConfigError(
            f"-n {samples} cannot reach alpha {alpha:g}: the smallest p-value {samples} "
            f"{'resamples' if test == 'bs' else 'trials'} give is 1/{samples + 1} = "
            f"{smallest_p_value(samples):.4f}; give -n {needed} or more"
        )
    if max_drop is not None:
        check_number(max_drop, "max_drop")
    if margin is not None:
        check_number(margin, "margin")
        if test != "bs":
            raise ConfigError(
                "a non-inferiority margin is tested by paired bootstrap: --margin goes without --paired-ar"
            )
    if min_score is not None and (isinstance(min_score, bool) or not math.isfinite(min_score)):
        raise ConfigError(f"min_score must be a finite number, got {min_score!r}")
    return alpha


def _check_units(
    config: Any, max_drop: float | None, min_score: float | None, margin: float | None = None
) -> None:
    """``max_drop``, ``margin`` and ``min_score`` are in the metric's own units: a drop as large
    as the whole range (``--max-drop 1.0`` for COMET's 0..1 or WER's fractions) can never trip,
    and a bound outside the range never or always does."""
    low, high = config.score_range
    span = (high - low) if low is not None and high is not None else config.scale
    units = f"{config.name}'s own units (its range is {_range(low, high)})"
    for name, drop in (("max_drop", max_drop), ("margin", margin)):
        if drop is not None and drop >= span:
            raise ConfigError(
                f"{name} {drop:g} is in {units}: a drop of {drop:g} cannot happen; "
                f"for one point of a 0-1 metric give {span / 100:g}"
            )
    if min_score is not None and (
        (low is not None and min_score < low) or (high is not None and min_score > high)
    ):
        raise ConfigError(f"min_score {min_score:g} is outside {units}")


def _range(low: float | None, high: float | None) -> str:
    return f"{'' if low is None else f'{low:g}'}..{'' if high is None else f'{high:g}'}"


@dataclass(frozen=True)
class GateSettings(Declared):
    """What ``understudy gate`` tests with, declared as the families declare their options (the
    command line's flags are derived from it): the significance level, the largest drop and the
    lowest score allowed, the test (approximate randomization, else bootstrap), its count and
    seed.

    >>> settings = GateSettings(paired_ar=True)
    >>> settings.test, settings.alpha
    ('ar', 0.05)
    """

    alpha: float = option(0.05, flags=("--alpha",), type=float, help="significance level (default: 0.05)")
    max_drop: float | None = option(
        None, flags=("--max-drop",), type=float, metavar="X", help="fail when worse by more than X points"
    )
    margin: float | None = option(
        None,
        flags=("--margin",),
        type=float,
        metavar="M",
        help="non-inferiority margin: a significant drop fails only when it is significantly more than M"
        " points (one-sided paired bootstrap against a drop of M)",
    )
    min_score: float | None = option(
        None,
        flags=("--min-score",),
        type=float,
        metavar="Y",
        help="fail below Y (above Y where lower is better)",
    )
    paired_ar: bool = option(
        False, flags=("--paired-ar",), help="approximate randomization (default: bootstrap)"
    )
    n: int | None = option(
        None,
        flags=("-n",),
        into="n",
        type=int,
        metavar="N",
        help="resamples or trials (default: 1000; 10000 for ar)",
    )
    seed: int = option(
        DEFAULT_SEED, flags=("--seed",), type=seed_value, help=f"the tests' seed (default: {DEFAULT_SEED})"
    )

    @property
    def test(self) -> Test:
        """The paired test: ``ar`` or ``bs``."""
        return "ar" if self.paired_ar else "bs"

    def check(self) -> None:
        """Refuse settings that make a gate that cannot fail, or says nothing
        (:func:`check_gate_options`)."""
        check_gate_options(self.alpha, self.max_drop, self.min_score, self.test, self.n, self.margin)

    def verdict(self, baseline: Stats[Any, Any], candidate: Stats[Any, Any]) -> GateResult:
        """One metric's verdict (:func:`gate`) under these settings."""
        return gate(
            baseline,
            candidate,
            self.alpha,
            self.max_drop,
            self.min_score,
            self.test,
            self.n,
            self.seed,
            margin=self.margin,
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
    *,
    margin: float | None = None,
) -> GateResult:
    """One metric's verdict on ``candidate`` against ``baseline`` (see the module's documentation).
    ``max_drop``, ``margin`` and ``min_score`` are in the metric's own units (BLEU points, COMET's
    0-1)."""
    check_comparable(baseline, candidate)
    alpha = check_gate_options(alpha, max_drop, min_score, test, n, margin)
    _check_units(baseline.config, max_drop, min_score, margin)
    if len(baseline) < MIN_SEGMENTS:
        raise ConfigError(
            f"{baseline.config.name}: the gate tests"
            f" at least {counted(MIN_SEGMENTS, 'segment')}, and the test set has "
            f"{len(baseline)}: with so few, resampling cannot tell two systems apart"
        )
    result = paired_test([baseline, candidate], ["baseline", "candidate"], test, n, seed)
    better = baseline.config.higher_is_better
    base, cand = result.baseline.score, result.systems[0].score
    p = result.systems[0].p_value
    assert p is not None  # a paired test's systems always have one
    worse_by = (base - cand) if better else (cand - base)
    reasons = []
    beyond = None
    if margin is not None:  # a significant drop within the margin passes
        beyond = drop_beyond(baseline, candidate, margin, n, seed)
        if worse_by > margin and beyond <= alpha:
            reasons.append(
                f"significantly worse than the baseline by more than the margin of {margin:g}"
                f" (one-sided p = {beyond:.4f} <= {alpha})"
            )
    elif worse_by > 0 and p <= alpha:
        reasons.append(f"significantly worse than the baseline (p = {p:.4f} <= {alpha})")
    if max_drop is not None and worse_by > check_number(max_drop, "max_drop"):
        reasons.append(f"worse by {worse_by:.4g} {baseline.config.name}, more than the {max_drop:g} allowed")
    if min_score is not None and (cand < min_score if better else cand > min_score):
        bound = "below the minimum" if better else "above the maximum"
        reasons.append(f"{cand:.4g} is {bound} of {min_score:g}")
    signature = result.signature.format()
    return GateResult(
        baseline.config.name, base, cand, p, alpha, better, signature, tuple(reasons), margin, beyond
    )


__all__ = [
    "MIN_SEGMENTS",
    "GateResult",
    "GateVerdict",
    "check_comparable",
    "check_gate_options",
    "gate",
    "smallest_p_value",
]
