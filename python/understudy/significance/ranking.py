"""How ``understudy compare`` ranks systems, declared as the families declare their options (the
command line's flags are derived from it): all pairs by paired bootstrap (the default) or
approximate randomization, grouped into clusters, or the BLEU paper's block t-test.

>>> from understudy import BLEU
>>> refs = [["the cat sat on the mat", "a dog barked"] * 10]
>>> a = BLEU().segment_stats(["the cat sat on the mat", "a dog barked"] * 10, refs)
>>> b = BLEU().segment_stats(["a cat sat", "the dog"] * 10, refs)
>>> [s.name for s in Ranking(n=100).rank([b, a], ["B", "A"]).ranking]
['A', 'B']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from understudy.config import Declared, option
from understudy.significance.resampling import p_values_option, seed_option

if TYPE_CHECKING:
    from understudy.significance import AllPairsResult, BlockTestResult, Test
    from understudy.stats import Stats


@dataclass(frozen=True)
class Ranking(Declared):
    """How ``compare`` tests every system against every other: all pairs by paired bootstrap
    (the default) or approximate randomization, grouped into clusters at ``alpha``, or the BLEU
    paper's block t-test (``blocks``); with the count, seed and p-value counting."""

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
    pairs: str = option(
        "list",
        flags=("--pairs",),
        choices=("list", "matrix"),
        help="the pairs' p-values in text: a row a pair, in the ranking's order (list, the default),"
        " or a matrix of ranks",
    )

    def rank(
        self, stats: Sequence[Stats[Any, Any]], names: Sequence[str]
    ) -> AllPairsResult | BlockTestResult:
        """The systems of ``stats`` (one metric's, named ``names``) ranked and tested."""
        from understudy.significance import all_pairs, block_ttest

        if self.blocks is not None:
            return block_ttest(stats, names, self.blocks)
        test: Test = "ar" if self.paired_ar else "bs"
        return all_pairs(stats, names, test, self.n, self.seed, self.p_values, self.alpha)  # type: ignore[arg-type]
