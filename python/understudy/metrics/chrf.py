"""chrF and chrF++ (Popović 2015, 2017): the family's configuration, its one scoring function, its
result, its statistics and its metric object (``CHRF``, sacrebleu's ``corpus_chrf`` and
``sentence_chrf``).

Character n-gram F-score, with word n-grams for chrF++ (``word_order=2``). Every
number is sacrebleu 2.6.0's. With several references, each segment keeps the
statistics of its reference with the best chrF, as sacrebleu does. A statistics row is
``[hyp, ref, match]`` per order, character orders first.

>>> round(corpus_chrf(["The cat sat on the mat."], [["The cat sat on a mat."]]).score, 2)  # sacrebleu's
71.42
>>> round(sentence_chrf("a cat", ["a cat", "the cat"], word_order=2).score, 1)
100.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import (
    TextConfig,
    check_bool,
    check_int,
    check_number,
    format_number,
    option,
    read_number,
)
from understudy.errors import ConfigError, InputError
from understudy.inputs.tokens import Refs, RefStreams
from understudy.metric import Metric
from understudy.metrics.arithmetic import Weak
from understudy.registry import Family
from understudy.result import Result
from understudy.signature import Signature
from understudy.stats import Stats

# -- configuration ---------------------------------------------------------------------------

MAX_CHRF_ORDER: int = _core.families.family_constants("chrf")["max_order"]
"""The largest character or word n-gram order chrF accepts."""


@dataclass(frozen=True)
class CHRFConfig(TextConfig):
    """Every parameter that can change a chrF score, with sacrebleu's defaults.

    chrF++ is ``word_order=2``. ``eps_smoothing=False`` (sacrebleu's default) averages
    precision and recall over the orders that have n-grams on both sides;
    ``True`` smooths empty orders with a tiny epsilon as chrF++.py, Moses and NLTK do.

    >>> CHRFConfig(beta=1, lowercase=True).name
    'chrF1'
    >>> CHRFConfig(word_order=2).signature_pairs()
    [('case', 'mixed'), ('eff', 'yes'), ('nc', '6'), ('nw', '2'), ('space', 'no'), ('beta', '2')]
    >>> CHRFConfig(char_order=0)
    Traceback (most recent call last):
    ...
    understudy.errors.ConfigError: char_order and word_order must not both be 0
    """

    metric: ClassVar[str] = "chrf"
    title: ClassVar[str] = "chrF"
    names_metric: ClassVar[bool] = False
    cli_group: ClassVar[str | None] = "chrF (-m chrf)"
    tokens_refused: ClassVar[str | None] = "it compares characters: give each segment as a string"
    signature_order: ClassVar[tuple[str, ...]] = ("case", "eff", "nc", "nw", "space", "beta")

    char_order: int = option(
        6, flags=("-cc", "--chrf-char-order"), type=int, metavar="N", help="character order (6)", key="nc"
    )
    word_order: int = option(
        0,
        flags=("-cw", "--chrf-word-order"),
        type=int,
        metavar="N",
        help="word order (0; 2 is chrF++)",
        key="nw",
    )
    beta: float = option(
        2,
        flags=("--chrf-beta",),
        type=int,
        metavar="B",
        help="weight of recall (2)",
        key="beta",
        short="b",
        encode=lambda config: format_number(config.beta),
        decode=lambda text: {"beta": read_number("beta", text)},
        absent="2",  # sacrebleu leaves beta to the name (chrF2)
    )
    lowercase: bool = option(
        False,
        flags=("--chrf-lowercase",),
        help="case-insensitive chrF",
        key="case",
        short="c",
        text=("lc", "mixed"),
    )
    whitespace: bool = option(
        False,
        flags=("--chrf-whitespace",),
        help="count spaces as characters",
        key="space",
        short="s",
        text=("yes", "no"),
    )
    eps_smoothing: bool = option(
        False,
        flags=("--chrf-eps-smoothing",),
        help="epsilon smoothing of chrF++.py, Moses and NLTK",
        key="eff",
        short="e",
        text=("no", "yes"),  # sacrebleu's "effective order" is the absence of smoothing
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        check_int(self, "char_order", 0, MAX_CHRF_ORDER)
        check_int(self, "word_order", 0, MAX_CHRF_ORDER)
        if self.char_order + self.word_order == 0:
            raise ConfigError("char_order and word_order must not both be 0")
        check_number(self.beta, "beta")
        check_bool(self, "lowercase", "whitespace", "eps_smoothing")

    @property
    def name(self) -> str:
        """``chrF<beta>`` with a ``+`` per word order, as sacrebleu names it."""
        return f"chrF{self.beta}" + "+" * self.word_order

    @property
    def orders(self) -> int:
        """Character orders plus word orders."""
        return self.char_order + self.word_order

    @property
    def row_width(self) -> int:
        """Columns of a statistics row: ``[hyp, ref, match]`` per order."""
        return 3 * self.orders

    def core_config(self) -> dict[str, Any]:
        """The core counts n-grams of these orders, case and spaces (beta is arithmetic)."""
        keys = ("char_order", "word_order", "lowercase", "whitespace")
        return {key: getattr(self, key) for key in keys}


# -- scoring: the one place chrF's arithmetic lives ------------------------------------------

_EPS = 1e-16
"""chrF's epsilon (sacrebleu's, as chrF++.py, Moses and NLTK have it)."""


def score_chrf_rows(
    rows: NDArray[np.integer] | NDArray[np.floating[Any]], config: CHRFConfig, float32: bool = False
) -> NDArray[np.floating[Any]]:
    """chrF (0-100) of each statistics row of ``rows`` (shape (k, 3 * orders)) under ``config``.

    Without ``eps_smoothing`` (the default), precision and recall are averaged over
    the orders with n-grams on both sides, and F-beta taken of the averages; with it,
    F-beta is taken per order (epsilon for empty ones) and averaged. With ``float32``
    the scores are float32 where sacrebleu's bootstrap gives float32 (all of them, in
    practice), and the array is float32 then, as sacrebleu's is.

    >>> score_chrf_rows(np.array([[4, 4, 4] * 6, [4, 4, 2] * 6]), CHRFConfig()).tolist()
    [100.0, 50.0]
    """
    rows = np.atleast_2d(np.asarray(rows))
    if rows.shape[1] != config.row_width:
        raise ConfigError(
            f"rows have {rows.shape[1]} columns; chrF with {config.orders} orders needs {config.row_width}"
        )
    n = len(rows)
    counts = rows.astype(np.float32 if float32 else np.float64).astype(np.float64)
    factor = config.beta**2
    score = Weak.of(0.0, False, n)
    avg_prec, avg_rec = Weak.of(0.0, False, n), Weak.of(0.0, False, n)
    effective = np.zeros(n, dtype=np.int64)
    eps = Weak.of(_EPS, False, n)
    for k in range(config.orders):
        hyp, ref, match = (Weak.of(counts[:, 3 * k + i], float32, n) for i in range(3))
        has_hyp, has_ref = rows[:, 3 * k] > 0, rows[:, 3 * k + 1] > 0
        prec = match.op(hyp, np.divide).where(has_hyp, eps)
        rec = match.op(ref, np.divide).where(has_ref, eps)
        if config.eps_smoothing:
            denom = prec.op(factor, lambda p, f: f * p).op(rec, np.add)
            term = prec.op(1 + factor, lambda p, f: f * p).op(rec, np.multiply).op(denom, np.divide)
            score = score.op(term.where(denom.value > 0, eps), np.add)
        else:
            both = has_hyp & has_ref
            avg_prec = avg_prec.op(prec, np.add).where(both, avg_prec)
            avg_rec = avg_rec.op(rec, np.add).where(both, avg_rec)
            effective += both
    if config.eps_smoothing:
        return score.op(100, lambda s, h: h * s).op(config.orders, np.divide).array()
    zero = Weak.of(0.0, False, n)
    divisor = np.maximum(effective, 1)
    avg_prec = avg_prec.op(Weak.of(divisor, False, n), np.divide).where(effective > 0, zero)
    avg_rec = avg_rec.op(Weak.of(divisor, False, n), np.divide).where(effective > 0, zero)
    top = avg_prec.op(1 + factor, lambda p, f: f * p).op(avg_rec, np.multiply)
    bottom = avg_prec.op(factor, lambda p, f: f * p).op(avg_rec, np.add)
    score = top.op(bottom, np.divide).op(100, lambda s, h: h * s)
    return score.where(avg_prec.value + avg_rec.value != 0, zero).array()


# -- result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CHRFResult(Result):
    """One chrF (or chrF++) score, with the summed statistics row it was computed from.

    ``stats`` is ``[hyp, ref, match]`` per order, character orders first.

    >>> from understudy import corpus_chrf
    >>> print(corpus_chrf(["the cat"], [["the cat"]]))
    chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|beta:2|version:understudy-0.1.0 = 100.00
    """

    score: float
    stats: tuple[int, ...]
    signature: Signature

    @property
    def char_order(self) -> int:
        """The character n-gram order."""
        return _chrf(self).char_order

    @property
    def word_order(self) -> int:
        """The word n-gram order (2 for chrF++)."""
        return _chrf(self).word_order

    @property
    def beta(self) -> float:
        """The weight of recall against precision."""
        return _chrf(self).beta

    def numbers(self) -> dict[str, Any]:
        """The orders, beta and the summed statistics row."""
        numbers = {"char_order": self.char_order, "word_order": self.word_order, "beta": self.beta}
        return numbers | {"stats": list(self.stats)}


def _chrf(result: CHRFResult) -> CHRFConfig:
    config = result.signature.config
    assert isinstance(config, CHRFConfig)
    return config


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CHRFStats(Stats[CHRFConfig, CHRFResult]):
    """chrF rows ``[hyp, ref, match]`` per order (character orders, then word orders)."""

    metric: ClassVar[str] = "chrf"

    @classmethod
    def impossible(cls, total: NDArray[np.int64]) -> str | None:
        """More matching n-grams of an order than the hypothesis or the reference has."""
        hyp, ref, match = total[0::3], total[1::3], total[2::3]
        bad = np.flatnonzero(match > np.minimum(hyp, ref))
        if len(bad):
            k = int(bad[0])
            return f"{int(match[k])} matches of order {k + 1} with {int(hyp[k])} and {int(ref[k])} n-grams"
        return None

    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        """chrF of each row."""
        return score_chrf_rows(rows, self.config, float32)

    def scores_of_means(self, rows: NDArray[np.floating[Any]]) -> NDArray[np.floating[Any]]:
        """chrF of each row of mean statistics."""
        return score_chrf_rows(rows, self.config)

    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[CHRFResult]:
        scores = score_chrf_rows(rows, self.config)
        return [
            CHRFResult(float(score), tuple(int(x) for x in row), sig)
            for score, row, sig in zip(scores, rows, signatures, strict=True)
        ]


# -- the metric object -------------------------------------------------------------------------


def best_reference_rows(
    rows: NDArray[np.int64], refs_per_segment: NDArray[np.int64], n_systems: int, config: CHRFConfig
) -> NDArray[np.int64]:
    """Each segment's row of its best reference, as ``(segments, systems, width)``.

    ``rows`` holds, segment by segment and system by system, one row per reference.
    The best is the first with the highest chrF (sacrebleu's choice, strict ``>``).
    """
    width = config.row_width
    if (refs_per_segment == 1).all():
        return rows.reshape(len(refs_per_segment), n_systems, width)
    sizes = np.repeat(refs_per_segment, n_systems)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    f_scores = score_chrf_rows(rows, config)
    group_max = np.maximum.reduceat(f_scores, starts)
    group = np.repeat(np.arange(len(sizes)), sizes)
    candidates = np.flatnonzero(f_scores == group_max[group])
    _, first = np.unique(group[candidates], return_index=True)
    return rows[candidates[first]].reshape(len(refs_per_segment), n_systems, width)


MAX_POSITIONS = 1 << 26
"""The most n-gram positions (characters times orders) one sentence may have: counting
takes about 30 bytes a position, so a sentence stays under 2 GiB; a longer one is refused."""


class CHRF(Metric[CHRFStats, CHRFResult]):
    """A chrF scorer with a fixed configuration and, optionally, cached references.

    Keyword arguments and defaults are sacrebleu's: ``char_order=6``, ``word_order=0``
    (2 for chrF++), ``beta=2``, ``lowercase=False``, ``whitespace=False`` (spaces are
    not characters), ``eps_smoothing=False``. With ``references=``, references are
    prepared once for any number of systems.

    >>> chrf = CHRF(word_order=2, references=[["the cat sat", "a dog"]])
    >>> [round(r.score, 2) for r in chrf.corpus_scores([["the cat sat", "a dog"], ["the cat", "a cat"]])]
    [100.0, 47.12]
    >>> CHRF().pairwise(["abc", "xyz"], ["abc", "abd"]).round(2)  # sacrebleu: 38.89 = sentence_score
    array([[100.  ,  38.89],
           [  0.  ,   0.  ]])
    """

    stats_type = CHRFStats
    config_type = CHRFConfig
    config: CHRFConfig

    def __init__(
        self,
        char_order: int = CHRFConfig.char_order,
        word_order: int = CHRFConfig.word_order,
        beta: float = CHRFConfig.beta,
        lowercase: bool = CHRFConfig.lowercase,
        whitespace: bool = CHRFConfig.whitespace,
        eps_smoothing: bool = CHRFConfig.eps_smoothing,
        references: Refs | None = None,
        threads: int | None = None,
        *,
        normalize_unicode: str = TextConfig.normalize_unicode,
    ) -> None:
        config = CHRFConfig(
            char_order,
            word_order,
            beta,
            lowercase,
            whitespace,
            eps_smoothing,
            normalize_unicode=normalize_unicode,
        )
        self._setup(config, references, threads)

    def _select(
        self, rows: NDArray[np.int64], refs_per_segment: NDArray[np.int64], n_systems: int
    ) -> NDArray[np.int64]:
        return best_reference_rows(rows, refs_per_segment, n_systems, self.config)

    def _check_sizes(self, what: str, streams: Sequence[Sequence[str | None]]) -> None:
        # Characters bound both the character and the word n-grams of a sentence.
        limit = MAX_POSITIONS // self.config.orders
        for k, stream in enumerate(streams):
            if max((len(s) for s in stream if isinstance(s, str)), default=0) > limit:
                i = next(i for i, s in enumerate(stream) if isinstance(s, str) and len(s) > limit)
                where = f"stream {k + 1}, segment {i + 1}" if len(streams) > 1 else f"segment {i + 1}"
                raise InputError(
                    f"{what}, {where}: {len(stream[i] or '')} characters; chrF with {self.config.orders} "
                    f"orders counts at most {limit} characters a sentence (memory); split the segment"
                )


def corpus_chrf(
    hyps: Sequence[str],
    refs: RefStreams,
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFResult:
    """Corpus chrF with sacrebleu's ``corpus_chrf`` arguments.

    >>> round(corpus_chrf(["abc"], [["abd"]], char_order=2).score, 2)  # sacrebleu: 58.33
    58.33
    """
    chrf = CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return chrf.corpus_score(hyps, refs)


def sentence_chrf(
    hyp: str,
    refs: Sequence[str | None],
    char_order: int = 6,
    word_order: int = 0,
    beta: float = 2,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFResult:
    """Sentence chrF with sacrebleu's ``sentence_chrf`` arguments.

    >>> sentence_chrf("abc", ["abc"]).score
    100.0
    """
    chrf = CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return chrf.sentence_score(hyp, refs)


ALIASES: dict[str, dict[str, Any]] = {"chrfpp": {"word_order": 2}}
"""``-m`` names of this family beside ``chrf``: ``chrfpp`` is chrF++ (word bigrams), so that one run
can score chrF and chrF++ together."""

FAMILY = Family(config=CHRFConfig, stats=CHRFStats, metric=CHRF, aliases=ALIASES)
"""chrF's entry in the registry (:mod:`understudy.metrics`)."""
