"""NIST (Doddington 2002), as mteval-v13a.pl scores it: the family's configuration, its one scoring
function, its result, its statistics and its metric object (``NIST``, ``corpus_nist``).

NIST weighs each matched n-gram (orders 1 to 5) by its information in the reference corpus,
``log2(count(w1..wn-1) / count(w1..wn))``, averages per order over the hypothesis's n-grams, sums
the five orders and applies its length penalty (``exp(-beta log^2 ratio)`` below a ratio of 1,
0.5 at a ratio of 2/3). A row is ``[hypothesis n-grams of orders 1..5, information of the matched
n-grams of orders 1..5 in units of 2^-26 bits, reference length times 720720 over the segment's
number of references]``. The weights come from the whole reference corpus, so the references
are read before any segment is counted, and NIST is never summed from parts (chunks, Dask
partitions, accumulator batches): each part would weigh with its own references.

Text is tokenized as mteval-v13a's default ``tokenization`` (sacrebleu's ``13a`` is its port) and
lowercased as it lowercases, ASCII letters only (``tr/[A-Z]/[a-z]/``), unless ``preserve_case``
(mteval's ``-c``). mteval-v13a's one bug is kept: it takes the word ``0`` for false and weighs a
bigram after it against the corpus's word count; ``fix_zero`` weighs it as any other bigram.
mteval prints four decimals; understudy's sums are exact in fixed point, where
mteval sums floats in Perl's hash order, which moves its last bits from run to run.

Four reference words, each once: 2 bits a word; no bigram tells more than its first word. The
hypothesis matches 6 bits in 3 words (2 a word), at 3/4 of the reference length:

>>> corpus_nist(["a b", "c"], [["a b", "c d"]]).score  # 2 * exp(-beta * log(3/4)^2)
1.4108784746627263
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import TextConfig, check_bool, option
from understudy.errors import ConfigError
from understudy.inputs.tokens import Refs, RefStreams
from understudy.metric import Metric
from understudy.registry import Family
from understudy.result import Result
from understudy.signature import Signature
from understudy.stats import Stats

# -- configuration ---------------------------------------------------------------------------

_CONSTANTS = _core.families.family_constants("nist")
ORDERS: int = _CONSTANTS["orders"]
"""The n-gram orders NIST sums (mteval's "NIST score using 5-grams")."""
INFO_UNIT: int = 1 << _CONSTANTS["info_bits"]
"""Information is kept as integers in units of 1/INFO_UNIT bits."""
LENGTH_SCALE: int = _CONSTANTS["length_scale"]
"""Reference lengths are kept times this (the least common multiple of 1..16)."""
BETA = -math.log(0.5) / math.log(1.5) / math.log(1.5)
"""The length penalty's constant: a penalty of 0.5 at a length ratio of 1.5 below the reference."""


@dataclass(frozen=True)
class NISTConfig(TextConfig):
    """Every parameter that can change a NIST score, with mteval-v13a's defaults.

    >>> NISTConfig().signature_pairs()
    [('case', 'lc-ascii'), ('zero', 'mteval')]
    """

    metric: ClassVar[str] = "nist"
    title: ClassVar[str] = "NIST"
    score_range: ClassVar[tuple[float | None, float | None]] = (0.0, None)
    scale: ClassVar[float] = 10.0
    needs_corpus: ClassVar[bool] = True
    cli_group: ClassVar[str | None] = "NIST (-m nist; mteval-v13a.pl's)"
    tokens_refused: ClassVar[str | None] = (
        "mteval-v13a's tokenization is part of it: give each segment as a string"
    )

    preserve_case: bool = option(
        False,
        flags=("--nist-preserve-case",),
        help="keep case (mteval's -c); by default ASCII letters are lowercased, as mteval does",
        key="case",
        short="c",
        text=("mixed", "lc-ascii"),
    )

    fix_zero: bool = option(
        False,
        flags=("--nist-fix-zero",),
        help="weigh a bigram after the word 0 as any other (mteval-v13a takes the word 0 for false "
        "and weighs such bigrams against the corpus's word count; kept by default so that its numbers "
        "stay comparable)",
        key="zero",
        short="z",
        text=("fixed", "mteval"),
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        check_bool(self, "preserve_case", "fix_zero")

    def decimals(self, width: int) -> int:
        """mteval prints four decimals: three more than ``width`` (``-w 1``: 7.1234)."""
        return width + 3

    @property
    def row_width(self) -> int:
        """Columns of a row: five n-gram counts, five information sums, the reference length."""
        return 2 * ORDERS + 1

    def core_config(self) -> dict[str, Any]:
        """What the core tokenizes and counts with."""
        return {"preserve_case": self.preserve_case, "fix_zero": self.fix_zero}


# -- scoring: the one place NIST's arithmetic lives ------------------------------------------


def length_penalty(ratio: NDArray[np.floating[Any]]) -> NDArray[np.floating[Any]]:
    """mteval's ``nist_length_penalty`` of hypothesis-to-reference length ratios.

    >>> length_penalty(np.array([1.2, 1.0, 2 / 3, 0.0])).round(4).tolist()
    [1.0, 1.0, 0.5, 0.0]
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(np.where(ratio > 0, ratio, 1.0))
        return np.where(ratio >= 1, 1.0, np.where(ratio <= 0, 0.0, np.exp(-BETA * logs * logs)))


def score_nist_rows(
    rows: NDArray[np.integer], config: NISTConfig, float32: bool = False
) -> NDArray[np.floating[Any]]:
    """NIST of each row: the information per n-gram of each order, summed over the five orders,
    times the length penalty. With no reference words the ratio is taken as infinite (no penalty);
    with no hypothesis words the score is 0 (mteval divides by zero in both cases).

    >>> b, w = INFO_UNIT, LENGTH_SCALE  # 3 bits in 2 words, 1 in 1 bigram, 2 reference words
    >>> score_nist_rows(np.array([[2, 1, 0, 0, 0, 3 * b, b, 0, 0, 0, 2 * w]]), NISTConfig()).tolist()
    [2.5]
    """
    del float32, config  # sacrebleu has no NIST: the reference arithmetic is mteval's float64
    rows = np.atleast_2d(np.asarray(rows, dtype=np.int64))
    if rows.shape[1] != 2 * ORDERS + 1:
        raise ConfigError(f"rows have {rows.shape[1]} columns; NIST needs {2 * ORDERS + 1}")
    counts, info = rows[:, :ORDERS], rows[:, ORDERS : 2 * ORDERS]
    per_order = (info / INFO_UNIT) / np.maximum(counts, 1)
    score = per_order.sum(axis=1)
    ref_length = rows[:, 2 * ORDERS] / LENGTH_SCALE
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(ref_length > 0, counts[:, 0] / np.where(ref_length > 0, ref_length, 1), np.inf)
    ratio = np.where(counts[:, 0] == 0, 0.0, ratio)
    result: NDArray[np.floating[Any]] = score * length_penalty(ratio)
    return result


# -- result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class NISTResult(Result):
    """One NIST score with its hypothesis and reference lengths.

    >>> r = corpus_nist(["a b"], [["a b c"]])
    >>> r.hyp_length, r.ref_length
    (2, 3.0)
    """

    score: float
    hyp_length: int
    ref_length: float
    signature: Signature

    def numbers(self) -> dict[str, Any]:
        """The hypothesis's words and the references' average length."""
        return {"hyp_length": self.hyp_length, "ref_length": self.ref_length}


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class NISTStats(Stats[NISTConfig, NISTResult]):
    """NIST rows (see the module's documentation)."""

    metric: ClassVar[str] = "nist"

    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        """NIST of each row."""
        return score_nist_rows(rows, self.config, float32)

    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[NISTResult]:
        scores = score_nist_rows(rows, self.config)
        return [
            NISTResult(float(score), int(r[0]), int(r[2 * ORDERS]) / LENGTH_SCALE, sig)
            for score, r, sig in zip(scores, rows, signatures, strict=True)
        ]

    @classmethod
    def impossible(cls, total: NDArray[np.int64]) -> str | None:
        """Each order has no more n-grams than the one below, and nothing is negative."""
        counts = [int(v) for v in total[:ORDERS]]
        if min(int(v) for v in total) < 0:
            return "a negative count"
        if any(a < b for a, b in itertools.pairwise(counts)):
            return f"n-gram counts {counts} grow with the order"
        return None


# -- the metric objects ------------------------------------------------------------------------


class NIST(Metric[NISTStats, NISTResult]):
    """A NIST scorer (mteval-v13a.pl's numbers); its cached references are its corpus.

    >>> NIST().corpus_score(["the cat"], [["the cat"]]).score  # every word once: 1 bit each
    1.0
    """

    stats_type = NISTStats
    config_type = NISTConfig
    config: NISTConfig

    def __init__(
        self,
        preserve_case: bool = NISTConfig.preserve_case,
        fix_zero: bool = NISTConfig.fix_zero,
        references: Refs | None = None,
        threads: int | None = None,
        *,
        normalize_unicode: str = TextConfig.normalize_unicode,
    ) -> None:
        self._setup(
            NISTConfig(preserve_case, fix_zero, normalize_unicode=normalize_unicode), references, threads
        )


def corpus_nist(
    hyps: Sequence[str], refs: RefStreams, preserve_case: bool = False, fix_zero: bool = False
) -> NISTResult:
    """Corpus NIST as mteval-v13a.pl computes it; ``refs`` are streams.

    >>> corpus_nist(["a b"], [["a b"]]).score  # two words, one bit each; "a b" tells nothing more
    1.0
    """
    return NIST(preserve_case, fix_zero).corpus_score(hyps, refs)


FAMILY = Family(config=NISTConfig, stats=NISTStats, metric=NIST)
"""NIST's entry in the registry (:mod:`understudy.metrics`)."""
