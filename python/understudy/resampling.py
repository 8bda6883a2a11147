"""How a command's significance tests and intervals resample, declared as the families declare
their options (the command line's flags are derived from it): the paired test against the first
system (bootstrap or approximate randomization) and its count, the bootstrap interval and its
count, the seed, and how p-values count. Light: ``score`` reads it before any test runs.

>>> options = Resampling(paired_ar=True)
>>> options.test, options.paired_n, options.seed
('ar', 10000, 12345)
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from understudy.config import Declared, option
from understudy.seeding import DEFAULT_SEED

if TYPE_CHECKING:
    from collections.abc import Sequence

    from understudy.significance import AllPairsResult, BlockTestResult, Test
    from understudy.stats import Stats


def seed_value(text: str) -> int:
    """A ``--seed``: a whole number from 0 (NumPy's generators take no negative seed).

    >>> seed_value("0"), seed_value("12345")
    (0, 12345)
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"a seed is a whole number from 0, not {value}")
    return value


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


@dataclass(frozen=True)
class Ranking(Declared):
    """How ``compare`` tests every system against every other: all pairs by paired bootstrap
    (the default) or approximate randomization, grouped into clusters at ``alpha``, or the BLEU
    paper's block t-test (``blocks``); with the count, seed and p-value counting.

    >>> from understudy import BLEU
    >>> refs = [["the cat sat on the mat", "a dog barked"] * 10]
    >>> a = BLEU().segment_stats(["the cat sat on the mat", "a dog barked"] * 10, refs)
    >>> b = BLEU().segment_stats(["a cat sat", "the dog"] * 10, refs)
    >>> [s.name for s in Ranking(n=100).rank([b, a], ["B", "A"]).ranking]
    ['A', 'B']
    """

    paired_bs: bool = option(
        False, flags=("--paired-bs",), exclusive="test", help="paired bootstrap resampling (default)"
    )
    paired_ar: bool = option(
        False, flags=("--paired-ar",), exclusive="test", help="paired approximate randomization"
    )
    blocks: int | None = option(
        None,
        flags=("--blocks",),
        exclusive="test",
        type=int,
        nargs="?",
        const=20,
        metavar="K",
        help="the block t-test with K blocks (default 20)",
    )
    n: int | None = option(
        None,
        flags=("-n",),
        into="n",
        type=int,
        metavar="N",
        help="resamples (bs, 1000) or trials (ar, 10000)",
    )
    alpha: float = option(0.05, flags=("--alpha",), type=float, help="significance level for clusters (0.05)")
    seed: int = seed_option()
    p_values: str = p_values_option()

    def rank(
        self, stats: Sequence[Stats[Any, Any]], names: Sequence[str]
    ) -> AllPairsResult | BlockTestResult:
        """The systems of ``stats`` (one metric's, named ``names``) ranked and tested."""
        from understudy.significance import all_pairs, block_ttest

        if self.blocks is not None:
            return block_ttest(stats, names, self.blocks)
        test: Test = "ar" if self.paired_ar else "bs"
        return all_pairs(stats, names, test, self.n, self.seed, self.p_values, self.alpha)  # type: ignore[arg-type]
