"""How a command's significance tests and intervals resample, declared as the families declare
their options (the command line's flags are derived from it): the paired test against the first
system (bootstrap or approximate randomization) and its count, the bootstrap interval and its
count, the seed, and how p-values count. Light: ``score`` reads it before any test runs.

>>> options = Resampling(paired_ar=True)
>>> options.test, options.paired_n, options.seed
('ar', 10000, 12345)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from understudy.config import Declared, option
from understudy.seeding import DEFAULT_SEED, seed_value

if TYPE_CHECKING:
    from understudy.significance import Test


def seed_option() -> Any:
    """``--seed``, as ``score`` and ``compare`` declare it."""
    return option(
        DEFAULT_SEED,
        flags=("--seed",),
        type=seed_value,
        help=f"random seed (default: {DEFAULT_SEED}); 0 is a seed",
    )


def p_values_option() -> Any:
    """``--p-values``: how a test's p-value counts the resamples."""
    return option(
        "at-least",
        flags=("--p-values",),
        choices=("at-least", "sacrebleu"),
        help="count resamples at least as extreme (default; identical systems get p = 1) or, as "
        "sacrebleu, strictly more extreme",
    )


@dataclass(frozen=True)
class Resampling(Declared):
    """sacrebleu's significance options, with ``--seed`` and ``--p-values``: what ``score``
    tests and which interval it draws."""

    confidence: bool = option(
        False, flags=("-ci", "--confidence"), help="95%% interval by bootstrap (one system)"
    )
    confidence_n: int = option(
        1000, flags=("-cin", "--confidence-n"), type=int, metavar="N", help="resamples (1000)"
    )
    paired_bs: bool = option(
        False,
        flags=("-pbs", "--paired-bs"),
        exclusive="paired",
        help="paired bootstrap against the first system",
    )
    paired_ar: bool = option(
        False, flags=("-par", "--paired-ar"), exclusive="paired", help="paired approximate randomization"
    )
    paired_bs_n: int = option(
        1000, flags=("-pbsn", "--paired-bs-n"), type=int, metavar="N", help="resamples (1000)"
    )
    paired_ar_n: int = option(
        10000, flags=("-parn", "--paired-ar-n"), type=int, metavar="N", help="trials (10000)"
    )
    seed: int = seed_option()
    p_values: str = p_values_option()

    @property
    def test(self) -> Test | None:
        """The paired test asked for: ``bs``, ``ar`` or none."""
        return "bs" if self.paired_bs else "ar" if self.paired_ar else None

    @property
    def paired_n(self) -> int:
        """The paired test's resamples (bootstrap) or trials (approximate randomization)."""
        return self.paired_ar_n if self.paired_ar else self.paired_bs_n
