"""GLEU (Google-BLEU, Wu et al. 2016), as NLTK's ``gleu_score`` and HF evaluate's ``google_bleu``
compute it: the family's configuration, its one scoring function, its result, its statistics and
its metric object (``GLEU``, ``corpus_gleu``, ``sentence_gleu``).

Every n-gram of orders ``min_len..max_len`` (1 to 4) is counted in the hypothesis and in the
reference; a sentence's GLEU is the clipped matches over the larger of the two totals (the
minimum of precision and recall). A statistics row is ``[matches, max(hypothesis n-grams,
reference n-grams)]`` against the segment's best reference (highest ratio; the first among
equals), and the corpus GLEU sums both columns, as NLTK's ``corpus_gleu`` does. Scores are
fractions (0..1), as NLTK and HF give them.

Text is tokenized as BLEU tokenizes it, with sacrebleu's ``13a`` by default, which is HF
evaluate's default; NLTK takes token lists: its numbers are ``tokenize="none"`` on the tokens
joined by spaces (tokens without whitespace, as ``str.split`` gives them).

>>> ref = "the cat is on the mat"
>>> round(sentence_gleu("the the the the the the the", [ref], tokenize="none").score, 4)  # NLTK: 0.0909
0.0909
>>> hyp = "It is a guide to action which ensures that the military always obeys the commands of the party"
>>> ref = "It is a guide to action that ensures that the military will forever heed Party commands"
>>> sentence_gleu(hyp, [ref], tokenize="none").score  # NLTK's docstring: 0.4393...
0.4393939393939394
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import TextConfig, check_bool, option
from understudy.errors import ConfigError, SignatureError
from understudy.inputs.tokens import Refs, RefStreams
from understudy.metric import Metric
from understudy.registry import Family
from understudy.result import Result
from understudy.signature import Signature
from understudy.stats import Stats

# -- configuration ---------------------------------------------------------------------------

TOKENIZERS: tuple[str, ...] = tuple(_core.text.tokenizer_names())
"""The tokenizers GLEU takes: the core's (sacrebleu's ``13a`` first)."""

MAX_ORDER: int = _core.families.family_constants("gleu")["max_order"]
"""The longest n-gram order accepted (as BLEU's)."""


def _encode_orders(config: GLEUConfig) -> str:
    return f"{config.min_len}-{config.max_len}"


def _decode_orders(text: str) -> dict[str, Any]:
    low, _, high = text.partition("-")
    if not (low.isdigit() and high.isdigit()):
        raise SignatureError(f"cannot read GLEU's n-gram orders {text!r} (expected MIN-MAX, as 1-4)")
    return {"min_len": int(low), "max_len": int(high)}


@dataclass(frozen=True)
class GLEUConfig(TextConfig):
    """Every parameter that can change a GLEU score, with NLTK's orders and sacrebleu's tokenizer.

    >>> GLEUConfig().signature_pairs()
    [('tok', '13a'), ('case', 'mixed'), ('ngram', '1-4')]
    >>> GLEUConfig(min_len=3, max_len=2)
    Traceback (most recent call last):
    ...
    understudy.errors.ConfigError: GLEU's n-gram orders must satisfy 1 <= min_len <= max_len <= 64, got 3..2
    """

    metric: ClassVar[str] = "gleu"
    title: ClassVar[str] = "GLEU"
    score_range: ClassVar[tuple[float | None, float | None]] = (0.0, 1.0)
    scale: ClassVar[float] = 1.0
    cli_group: ClassVar[str | None] = "GLEU (-m gleu; NLTK's gleu_score, HF evaluate's google_bleu)"

    tokenize: str = option(
        "13a",
        flags=("--gleu-tokenize",),
        choices=TOKENIZERS,
        help="tokenizer (default 13a, as HF evaluate's google_bleu; none: NLTK's tokens, space-separated)",
        key="tok",
        tokens="none",
    )
    lowercase: bool = option(
        False,
        flags=("--gleu-lowercase",),
        help="lowercase first",
        lowers_tokens=(True, "unicode"),
        key="case",
        short="c",
        text=("lc", "mixed"),
    )
    min_len: int = option(
        1, flags=("--gleu-min-len",), type=int, metavar="N", help="shortest n-gram (1)", key="ngram",
        encode=_encode_orders, decode=_decode_orders,
    )  # fmt: skip
    max_len: int = option(4, flags=("--gleu-max-len",), type=int, metavar="N", help="longest n-gram (4)")

    def __post_init__(self) -> None:
        super().__post_init__()
        check_bool(self, "lowercase")
        if self.tokenize not in TOKENIZERS:
            raise ConfigError(f"unknown GLEU tokenizer {self.tokenize!r}; known: {', '.join(TOKENIZERS)}")
        orders = (self.min_len, self.max_len)
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in orders) or not (
            1 <= self.min_len <= self.max_len <= MAX_ORDER
        ):
            raise ConfigError(
                f"GLEU's n-gram orders must satisfy 1 <= min_len <= max_len <= {MAX_ORDER}, "
                f"got {self.min_len}..{self.max_len}"
            )

    def decimals(self, width: int) -> int:
        """Fractions, as NLTK gives them: three more decimals than ``width`` (``-w 1``: 0.4393)."""
        return width + 3

    @property
    def row_width(self) -> int:
        """Columns of a row: matches, the larger n-gram total."""
        return 2

    def core_config(self) -> dict[str, Any]:
        """What the core tokenizes and counts with."""
        return {
            "tokenizer": self.tokenize,
            "lowercase": self.lowercase,
            "min_order": self.min_len,
            "max_order": self.max_len,
        }


# -- scoring: the one place GLEU's arithmetic lives ------------------------------------------


def score_gleu_rows(
    rows: NDArray[np.integer], config: GLEUConfig, float32: bool = False
) -> NDArray[np.floating[Any]]:
    """GLEU of each row ``[matches, total]``: their ratio, 0 where the total is 0 (NLTK's rule).

    >>> score_gleu_rows(np.array([[2, 22], [0, 0]]), GLEUConfig()).tolist()
    [0.09090909090909091, 0.0]
    """
    del float32  # sacrebleu has no GLEU: the reference arithmetic is NLTK's float64
    rows = np.atleast_2d(np.asarray(rows))
    if rows.shape[1] != config.row_width:
        raise ConfigError(f"rows have {rows.shape[1]} columns; GLEU needs {config.row_width}")
    matches, total = rows[:, 0].astype(np.float64), rows[:, 1].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(total == 0, 0.0, matches / total)


# -- result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GLEUResult(Result):
    """One GLEU with its counts.

    >>> r = corpus_gleu(["a b"], [["a c"]])
    >>> r.score, r.matches, r.total
    (0.3333333333333333, 1, 3)
    """

    score: float
    matches: int
    total: int
    signature: Signature

    def numbers(self) -> dict[str, Any]:
        """The matching n-grams and the larger total."""
        return {"matches": self.matches, "total": self.total}


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class GLEUStats(Stats[GLEUConfig, GLEUResult]):
    """GLEU rows ``[matches, max(hypothesis n-grams, reference n-grams)]``."""

    metric: ClassVar[str] = "gleu"

    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        """GLEU of each row."""
        return score_gleu_rows(rows, self.config, float32)

    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[GLEUResult]:
        scores = score_gleu_rows(rows, self.config)
        return [
            GLEUResult(float(score), int(r[0]), int(r[1]), sig)
            for score, r, sig in zip(scores, rows, signatures, strict=True)
        ]

    @classmethod
    def impossible(cls, total: NDArray[np.int64]) -> str | None:
        """Matches never exceed the total."""
        matches, all_ = (int(v) for v in total)
        return None if 0 <= matches <= all_ else f"matches ({matches}) exceed the n-gram total ({all_})"


# -- the metric objects ------------------------------------------------------------------------


class GLEU(Metric[GLEUStats, GLEUResult]):
    """A GLEU scorer with a fixed configuration and, optionally, cached references.

    >>> GLEU(tokenize="none").sentence_score("a b c", ["a b d"]).score  # 3 of 6 n-grams
    0.5
    """

    stats_type = GLEUStats
    config_type = GLEUConfig
    config: GLEUConfig

    def __init__(
        self,
        tokenize: str = GLEUConfig.tokenize,
        lowercase: bool = GLEUConfig.lowercase,
        min_len: int = GLEUConfig.min_len,
        max_len: int = GLEUConfig.max_len,
        references: Refs | None = None,
        threads: int | None = None,
        *,
        normalize_unicode: str = TextConfig.normalize_unicode,
    ) -> None:
        config = GLEUConfig(tokenize, lowercase, min_len, max_len, normalize_unicode=normalize_unicode)
        self._setup(config, references, threads)


def corpus_gleu(hyps: Sequence[str], refs: RefStreams, tokenize: str = "13a", **options: Any) -> GLEUResult:
    """Corpus GLEU; ``refs`` are streams (NLTK's ``corpus_gleu`` takes them by segment).

    >>> corpus_gleu(["a b", "c"], [["a b", "c d"]], tokenize="none").score  # (3 + 1) / (3 + 3)
    0.6666666666666666
    """
    return GLEU(tokenize, **options).corpus_score(hyps, refs)


def sentence_gleu(hyp: str, refs: Sequence[str | None], tokenize: str = "13a", **options: Any) -> GLEUResult:
    """Sentence GLEU against the best of ``refs``.

    >>> sentence_gleu("a b", ["a b"]).score
    1.0
    """
    return GLEU(tokenize, **options).sentence_score(hyp, refs)


FAMILY = Family(config=GLEUConfig, stats=GLEUStats, metric=GLEU)
"""GLEU's entry in the registry (:mod:`understudy.metrics`)."""
