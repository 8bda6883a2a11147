"""TER (Snover et al., 2006): the family's configuration, its one scoring function, its result, its
statistics and its metric object (``TER``, sacrebleu's ``corpus_ter`` and ``sentence_ter``).

Translation edit rate: the fewest word edits (insertions, deletions, substitutions
and shifts of word blocks) that turn the hypothesis into a reference, per reference
word, times 100; lower is better. Every number is sacrebleu 2.6.0's Tercom
re-implementation's, beam search and shift limits included. A statistics row is
``[edits, ref_length * length_scale]``: the average reference length is stored times the
least common multiple of 1..16, so averages over up to 16 references sum exactly.

>>> corpus_ter(["the cat sat on mat"], [["the cat sat on the mat"]]).score
16.666666666666664
>>> sentence_ter("on the mat the cat sat", ["the cat sat on the mat"]).num_edits
1
"""

from __future__ import annotations

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
from understudy.metrics.arithmetic import Weak
from understudy.registry import Family
from understudy.result import Result
from understudy.signature import Signature
from understudy.stats import Stats

# -- configuration ---------------------------------------------------------------------------

TER_TOKENIZERS: tuple[str, ...] = ("tercom", "tercom-fixed")
"""TER's tokenizers: sacrebleu's (references tokenized twice), and the fix (once)."""


@dataclass(frozen=True)
class TERConfig(TextConfig):
    """Every parameter that can change a TER score, with sacrebleu's (Tercom's) defaults.

    TER is case-insensitive unless ``case_sensitive``; ``normalized`` applies Tercom's
    tokenization (and, with ``asian_support``, splits CJK characters); ``no_punct``
    removes punctuation.

    ``tokenizer="tercom"`` is sacrebleu's behaviour, bug included: it tokenizes every
    reference twice, which with ``normalized`` changes some references (``Nima's,``
    becomes ``Nima 's``), so a hypothesis equal to its reference can score above 0.
    ``"tercom-fixed"`` tokenizes references once, as hypotheses are.

    >>> TERConfig(normalized=True).signature_pairs()[2]
    ('norm', 'yes')
    """

    metric: ClassVar[str] = "ter"
    title: ClassVar[str] = "TER"
    higher_is_better: ClassVar[bool] = False
    score_range: ClassVar[tuple[float, float | None]] = (0.0, None)
    names_metric: ClassVar[bool] = False
    cli_group: ClassVar[str | None] = "TER (-m ter; defaults are Tercom's)"
    signature_order: ClassVar[tuple[str, ...]] = ("case", "tok", "norm", "punct", "asian")
    length_scale: ClassVar[int] = _core.families.family_constants("ter")["length_scale"]
    """The average reference length is stored times this (lcm of 1..16), to sum exactly."""

    normalized: bool = option(
        False,
        flags=("--ter-normalized",),
        help="Tercom's normalization and tokenization",
        text_only=True,
        key="norm",
        short="nr",
        text=("yes", "no"),
    )
    no_punct: bool = option(
        False,
        flags=("--ter-no-punct",),
        help="remove punctuation",
        text_only=True,
        key="punct",
        short="pn",
        text=("no", "yes"),
    )
    asian_support: bool = option(
        False,
        flags=("--ter-asian-support",),
        help="split CJK characters and punctuation",
        text_only=True,
        key="asian",
        short="as",
        text=("yes", "no"),
    )
    case_sensitive: bool = option(
        False,
        flags=("--ter-case-sensitive",),
        help="do not lowercase",
        lowers_tokens=(False, "unicode"),
        key="case",
        short="c",
        text=("mixed", "lc"),
    )
    tokenizer: str = option(
        "tercom",
        flags=("--ter-tokenizer",),
        choices=TER_TOKENIZERS,
        help="tercom: sacrebleu's, which tokenizes references twice (with --ter-normalized an exact copy "
        "can score above 0); tercom-fixed: once (default: tercom)",
        key="tok",
        short="t",
        absent="tercom",  # sacrebleu's signatures lack it: its tokenizer
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        check_bool(self, "normalized", "no_punct", "asian_support", "case_sensitive")
        if self.tokenizer not in TER_TOKENIZERS:
            raise ConfigError(f"unknown TER tokenizer {self.tokenizer!r}; known: {', '.join(TER_TOKENIZERS)}")

    @property
    def row_width(self) -> int:
        """Columns of a statistics row: ``[edits, ref_length * length_scale]``."""
        return 2

    def core_config(self) -> dict[str, Any]:
        """Every field the core tokenizes and aligns with (``fixed``: references tokenized once)."""
        keys = ("normalized", "no_punct", "asian_support", "case_sensitive")
        return {key: getattr(self, key) for key in keys} | {"fixed": self.fixed}

    @property
    def fixed(self) -> bool:
        """Whether references are tokenized once (``tercom-fixed``), not twice as sacrebleu does."""
        return self.tokenizer == "tercom-fixed"


# -- scoring: the one place TER's arithmetic lives -------------------------------------------


def score_ter_rows(
    rows: NDArray[np.integer],
    config: TERConfig,
    float32: bool = False,
    ref_length: NDArray[np.float64] | None = None,
) -> NDArray[np.floating[Any]]:
    """TER (0-100 and above) of each statistics row ``[edits, ref_length * length_scale]``.

    Edits over the (average) reference length; 100 when the reference is empty and
    the hypothesis is not, 0 when both are empty. ``ref_length``, when given, replaces the
    rows' exact lengths (sacrebleu's float sums, :func:`sacrebleu_length`).

    >>> scale = TERConfig.length_scale
    >>> score_ter_rows(np.array([[1, 4 * scale], [3, 0], [0, 0]]), TERConfig()).tolist()
    [25.0, 100.0, 0.0]
    """
    rows = np.atleast_2d(np.asarray(rows))
    if rows.shape[1] != config.row_width:
        raise ConfigError(f"rows have {rows.shape[1]} columns; TER needs {config.row_width}")
    n = len(rows)
    edits = rows[:, 0].astype(np.float64)
    ref_len = rows[:, 1] / config.length_scale if ref_length is None else np.asarray(ref_length, np.float64)
    if float32:
        edits, ref_len = (
            edits.astype(np.float32).astype(np.float64),
            ref_len.astype(np.float32).astype(np.float64),
        )
    ratio = Weak.of(edits, float32, n).op(Weak.of(ref_len, float32, n), np.divide)
    fallback = Weak.of(np.where(edits > 0, 1.0, 0.0), False, n)
    return ratio.where(ref_len > 0, fallback).op(100, lambda s, h: h * s).array()


def sacrebleu_length(rows: NDArray[np.integer]) -> float:
    """The corpus reference length as sacrebleu 2.6.0 sums it: each segment's average reference
    length as a float, added in segment order. With 3, 5, 6, ... references per segment that sum
    carries rounding error, which understudy's exact one does not; ``understudy.sacrebleu`` uses
    this one, so that its numbers are sacrebleu's to the bit.

    >>> scale = TERConfig.length_scale
    >>> sacrebleu_length(np.array([[0, 10 * scale // 3], [0, 1 * scale // 3]])) == 10 / 3 + 1 / 3
    True
    """
    total = 0.0
    # Each quotient is the correctly rounded one, as sacrebleu's own division gives it.
    for length in (np.asarray(rows)[:, 1] / TERConfig.length_scale).tolist():
        total += length
    return total


# -- result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TERResult(Result):
    """One TER score: edits per reference word, times 100 (lower is better).

    ``num_edits`` is the summed fewest edits; ``ref_length`` the summed average
    reference length (as sacrebleu's ``TERScore`` has them).

    >>> from understudy import corpus_ter
    >>> r = corpus_ter(["a b c x"], [["a b c d"]])
    >>> r.score, r.num_edits, r.ref_length
    (25.0, 1, 4.0)
    """

    score: float
    num_edits: int
    ref_length: float
    signature: Signature

    def numbers(self) -> dict[str, Any]:
        """The summed edits and average reference length."""
        return {"num_edits": self.num_edits, "ref_length": self.ref_length}


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class TERStats(Stats[TERConfig, TERResult]):
    """TER rows ``[edits, ref_length * TERConfig.length_scale]``."""

    metric: ClassVar[str] = "ter"

    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        """TER of each row."""
        return score_ter_rows(rows, self.config, float32)

    sums_as_sacrebleu: ClassVar[bool] = True

    def sacrebleu_score(self) -> TERResult:
        """The corpus TER as sacrebleu sums it: the segments' average reference lengths added as
        floats, in order (:func:`sacrebleu_length`); with 1, 2 or 4 references, :meth:`score`.

        >>> from understudy import TER
        >>> stats = TER().segment_stats(["a b", "c"], [["a b c", "c"], ["a b", "d"], ["a", "c d"]])
        >>> stats.sacrebleu_score().ref_length == 6 / 3 + 4 / 3  # (3 + 2 + 1) / 3, then (1 + 1 + 2) / 3
        True
        """
        total = self.total()
        length = sacrebleu_length(self.rows)
        score = float(score_ter_rows(total[None, :], self.config, ref_length=np.array([length]))[0])
        return TERResult(score, int(total[0]), length, self.signature)

    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[TERResult]:
        scores = score_ter_rows(rows, self.config)
        scale = self.config.length_scale
        return [
            TERResult(float(score), int(row[0]), float(row[1] / scale), sig)
            for score, row, sig in zip(scores, rows, signatures, strict=True)
        ]


# -- the metric object -------------------------------------------------------------------------


class TER(Metric[TERStats, TERResult]):
    """A TER scorer with a fixed configuration and, optionally, cached references.

    Keyword arguments and defaults are sacrebleu's (Tercom's): case-insensitive,
    no normalization, punctuation kept, no special treatment of Asian scripts.
    Up to 16 references per segment (so that averaged reference lengths sum exactly).
    ``tokenizer="tercom-fixed"`` fixes sacrebleu's double tokenization of references
    (see :class:`~understudy.config.TERConfig`); it matters only with ``normalized``.

    >>> TER(normalized=True).sentence_score("Nima's, x", ["Nima's, x"]).score  # sacrebleu: 50.0
    50.0
    >>> TER(normalized=True, tokenizer="tercom-fixed").sentence_score("Nima's, x", ["Nima's, x"]).score
    0.0

    >>> ter = TER(references=[["a b c d", "e f"]])
    >>> [r.score for r in ter.corpus_scores([["a b c d", "e f"], ["a b d c", "e"]])]
    [0.0, 33.33333333333333]
    >>> TER().pairwise(["a b", "c"], ["a b", "a c"]).tolist()
    [[0.0, 50.0], [100.0, 50.0]]
    """

    stats_type = TERStats
    config_type = TERConfig
    config: TERConfig

    def __init__(
        self,
        normalized: bool = TERConfig.normalized,
        no_punct: bool = TERConfig.no_punct,
        asian_support: bool = TERConfig.asian_support,
        case_sensitive: bool = TERConfig.case_sensitive,
        references: Refs | None = None,
        threads: int | None = None,
        tokenizer: str = TERConfig.tokenizer,
        *,
        normalize_unicode: str = TextConfig.normalize_unicode,
    ) -> None:
        config = TERConfig(
            normalized,
            no_punct,
            asian_support,
            case_sensitive,
            tokenizer,
            normalize_unicode=normalize_unicode,
        )
        self._setup(config, references, threads)


def corpus_ter(
    hyps: Sequence[str],
    refs: RefStreams,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERResult:
    """Corpus TER with sacrebleu's ``corpus_ter`` arguments.

    >>> corpus_ter(["A B"], [["a b"]]).score, corpus_ter(["A B"], [["a b"]], case_sensitive=True).score
    (0.0, 100.0)
    """
    return TER(normalized, no_punct, asian_support, case_sensitive).corpus_score(hyps, refs)


def sentence_ter(
    hyp: str,
    refs: Sequence[str | None],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERResult:
    """Sentence TER with sacrebleu's ``sentence_ter`` arguments.

    >>> sentence_ter("a b c", ["a b c d"]).score
    25.0
    """
    return TER(normalized, no_punct, asian_support, case_sensitive).sentence_score(hyp, refs)


FAMILY = Family(config=TERConfig, stats=TERStats, metric=TER)
"""TER's entry in the registry (:mod:`understudy.metrics`)."""
