"""BLEU (Papineni et al., 2002): the family's configuration, its one scoring function, its result,
its statistics and its metric object (``BLEU``, sacrebleu's ``corpus_bleu`` and ``sentence_bleu``).

A statistics row is ``[hyp_len, ref_len, match_1..N, total_1..N]``. References are laid
out as sacrebleu lays them out (see :mod:`understudy.metric`).

>>> hyps = ["The cat sat on the mat.", "A dog barked loudly."]
>>> refs = [["The cat sat on the mat.", "The dog barked loudly."]]
>>> round(corpus_bleu(hyps, refs).score, 2)  # sacrebleu: 88.07
88.07
>>> round(sentence_bleu("The dog barked.", ["The dog barked loudly."]).score, 2)  # sacrebleu: 49.76
49.76
>>> BLEUConfig(smooth_method="floor").smooth
0.1
>>> BLEUConfig(tokenize="13b")
Traceback (most recent call last):
...
understudy.errors.ConfigError: unknown tokenizer '13b'; known: 13a, intl, zh, zh-fixed, cjk, char, \
none, ja-mecab, ko-mecab, flores101, flores200, spBLEU-1K
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import TextConfig, check_number, option
from understudy.errors import ConfigError, SignatureError
from understudy.inputs.tokens import Refs, RefStreams
from understudy.metric import Metric, _Preparing, _Scorer, check_hyps, check_refs
from understudy.metrics.arithmetic import exp, ln
from understudy.registry import Family
from understudy.result import Result
from understudy.signature import Signature
from understudy.stats import Stats
from understudy.text.external_tokenizers import (
    ExternalTokenizer,
    T,
    base_name,
    canonical,
    external_tokenizer,
    pretokenize,
)
from understudy.text.normalization import normalize

# -- configuration ---------------------------------------------------------------------------

CORE_TOKENIZERS: tuple[str, ...] = tuple(_core.text.tokenizer_names())
"""The tokenizers of the Rust core, sacrebleu's default first."""

PYTHON_TOKENIZERS = ("ja-mecab", "ko-mecab", "flores101", "flores200", "spBLEU-1K")
"""The tokenizers that call a library in Python (see :mod:`understudy.text.external_tokenizers`)."""

TOKENIZERS: tuple[str, ...] = (*CORE_TOKENIZERS, *PYTHON_TOKENIZERS)
"""Every tokenizer name a BLEU configuration takes."""

MAX_BLEU_ORDER = 64
"""The largest BLEU n-gram order accepted: rows grow with the order (16 bytes an order a
segment), and no published BLEU comes near it."""

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}
"""Smoothing methods and the default value of those that take one (as in sacrebleu)."""


def _tokenizer_signature(config: BLEUConfig) -> str:
    # MeCab's version is part of sacrebleu's signature: it is read off the library.
    if config.tokenize not in PYTHON_TOKENIZERS:
        return config.tokenize
    return external_tokenizer(config.tokenize).signature()


def _format_smooth(config: BLEUConfig) -> str:
    value = config.smooth
    if value is None:
        return config.smooth_method
    text = f"{value:.2f}"
    # sacrebleu prints two decimals; print more only where two would lose the value.
    if float(text) != value:
        text = repr(value)
    return f"{config.smooth_method}[{text}]"


_SMOOTH_RE = re.compile(r"^(none|exp|floor|add-k)(?:\[([^\]]+)\])?$")


def _parse_smooth(text: str) -> dict[str, Any]:
    match = _SMOOTH_RE.match(text)
    if not match:
        raise SignatureError(f"cannot read smoothing {text!r}")
    method, value = match.group(1), match.group(2)
    if value is None or SMOOTH_DEFAULTS[method] is None:
        return {"smooth_method": method, "smooth_value": None}
    try:
        return {"smooth_method": method, "smooth_value": float(value)}
    except ValueError as err:
        raise SignatureError(f"cannot read smoothing value {value!r}") from err


@dataclass(frozen=True)
class BLEUConfig(TextConfig):
    """Every parameter that can change a BLEU score, with sacrebleu's defaults.

    ``smooth_value`` is kept only for the methods that use it (``floor``, ``add-k``),
    their default when not given; for the others it is ignored (``None``), as sacrebleu
    ignores it.

    >>> BLEUConfig(lowercase=True, max_ngram_order=2)
    BLEUConfig(normalize_unicode='none', tokenize='13a', lowercase=True, smooth_method='exp', \
smooth_value=None, max_ngram_order=2, effective_order=False)
    """

    metric: ClassVar[str] = "bleu"
    title: ClassVar[str] = "BLEU"
    names_metric: ClassVar[bool] = False
    signature_order: ClassVar[tuple[str, ...]] = ("case", "eff", "tok", "smooth", "ngram")

    tokenize: str = option(
        "13a",
        flags=("-tok", "--tokenize"),
        choices=(*TOKENIZERS, "spm"),
        unset=True,
        help="tokenizer (default: 13a; with -l, zh, ja-mecab or ko-mecab for a Chinese, Japanese or "
        "Korean target, as in sacrebleu; ja-mecab, ko-mecab and the SentencePiece ones flores101, "
        "flores200, spBLEU-1K need the extras ja, ko, spm)",
        key="tok",
        tokens="none",
        encode=_tokenizer_signature,
        decode=lambda text: {"tokenize": base_name(text)},
    )
    lowercase: bool = option(
        False,
        flags=("-lc", "--lowercase"),
        help="case-insensitive BLEU",
        lowers_tokens=(True, "unicode"),
        key="case",
        short="c",
        text=("lc", "mixed"),
    )
    smooth_method: str = option(
        "exp",
        flags=("-s", "--smooth-method"),
        choices=tuple(SMOOTH_DEFAULTS),
        help="smoothing (default: exp)",
        key="smooth",
        short="s",
        encode=_format_smooth,
        decode=_parse_smooth,
    )
    smooth_value: float | None = option(
        None,
        flags=("-sv", "--smooth-value"),
        type=float,
        help="value for floor (default 0.1) and add-k (default 1)",
    )
    max_ngram_order: int = option(
        4,
        flags=("--max-ngram-order",),
        type=int,
        metavar="N",
        help="maximum n-gram order (default: 4)",
        key="ngram",
        short="n",
        absent="4",  # sacrebleu's signatures lack the key: its order is fixed at 4
    )
    effective_order: bool = option(False, sentence=True, key="eff", short="e", text=("yes", "no"))

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.tokenize not in TOKENIZERS:
            raise ConfigError(f"unknown tokenizer {self.tokenize!r}; known: {', '.join(TOKENIZERS)}")
        if self.smooth_method not in SMOOTH_DEFAULTS:
            raise ConfigError(
                f"unknown smoothing method {self.smooth_method!r}; known: {', '.join(SMOOTH_DEFAULTS)}"
            )
        order = self.max_ngram_order
        if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_BLEU_ORDER:
            raise ConfigError(f"max_ngram_order must be an integer from 1 to {MAX_BLEU_ORDER}, got {order!r}")
        # One configuration, one value: the method's default is written out, so that equal
        # scores have equal configurations (and a signature reads back to an equal one).
        default = SMOOTH_DEFAULTS[self.smooth_method]
        value = None if default is None else default if self.smooth_value is None else self.smooth_value
        object.__setattr__(
            self, "smooth_value", None if value is None else check_number(value, "smooth_value")
        )

    @property
    def smooth(self) -> float | None:
        """The smoothing value in effect: the given one, else the method's default."""
        if self.smooth_value is not None:
            return self.smooth_value
        return SMOOTH_DEFAULTS[self.smooth_method]

    @property
    def row_width(self) -> int:
        """Columns of a statistics row: ``[hyp_len, ref_len, match_1..N, total_1..N]``."""
        return 2 + 2 * self.max_ngram_order

    def core_config(self) -> dict[str, Any]:
        """The core counts with the tokenizer, case and maximum order (the rest is arithmetic).

        >>> BLEUConfig(tokenize="intl").core_config()
        {'tokenizer': 'intl', 'lowercase': False, 'max_order': 4}
        """
        return {"tokenizer": self.tokenize, "lowercase": self.lowercase, "max_order": self.max_ngram_order}


# -- scoring: the one place BLEU's arithmetic lives ------------------------------------------

LOG_ZERO = -9999999999.0
"""sacrebleu's ``my_log(0)``: a floor that drives the geometric mean to 0."""


@dataclass(frozen=True)
class ScoreArrays:
    """Scores of many rows at once: ``scores`` and ``bp`` of shape (k,), ``precisions`` (k, N)."""

    scores: NDArray[np.float64]
    bp: NDArray[np.float64]
    precisions: NDArray[np.float64]


def _brevity_penalty(sys_len: NDArray[np.float64], ref_len: NDArray[np.float64]) -> NDArray[np.float64]:
    short = sys_len < ref_len
    safe_sys = np.where(short & (sys_len > 0), sys_len, 1.0)
    penalty = exp(1.0 - ref_len / safe_sys)
    return np.where(short, np.where(sys_len > 0, penalty, 0.0), 1.0)


def score_rows(
    rows: NDArray[np.integer] | NDArray[np.floating[Any]], config: BLEUConfig, float32: bool = False
) -> ScoreArrays:
    """Score each statistics row of ``rows`` (shape (k, 2 + 2N)) under ``config``.

    Brevity penalty, smoothing (``none``, ``floor``, ``add-k``, ``exp``), effective
    order and sacrebleu's edge cases (no match at all gives 0; an order with no
    hypothesis n-grams ends the product) all happen here.

    ``float32=True`` reproduces sacrebleu's bootstrap resampling, which converts the
    statistics to float32: the n-gram precisions are then computed and rounded in
    float32 (logs, brevity penalty and the score stay float64).
    """
    rows = np.atleast_2d(np.asarray(rows))
    order = config.max_ngram_order
    if rows.shape[1] != 2 + 2 * order:
        raise ConfigError(f"rows have {rows.shape[1]} columns; max order {order} needs {2 + 2 * order}")
    dtype: type[np.floating[Any]] = np.float32 if float32 else np.float64
    sys_len = rows[:, 0].astype(np.float64)
    ref_len = rows[:, 1].astype(np.float64)
    correct: NDArray[np.floating[Any]] = rows[:, 2 : 2 + order].astype(dtype)
    total: NDArray[np.floating[Any]] = rows[:, 2 + order :].astype(dtype)
    no_match = ~np.logical_or.reduce(rows[:, 2 : 2 + order] != 0, axis=1)

    if config.smooth_method == "add-k":
        k = dtype(config.smooth or 0.0)
        correct[:, 1:] += k
        total[:, 1:] += k
    # sacrebleu's loop stops at the first order without hypothesis n-grams.
    reached = np.logical_and.accumulate(total > 0, axis=1)
    zero = reached & (correct == 0)
    # Every operation below is in `dtype`, as sacrebleu's Python floats meet NumPy scalars.
    hundred = dtype(100.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions = np.where(correct > 0, hundred * correct / total, dtype(0.0))
        if config.smooth_method == "exp":
            # 2 ** k by lookup: exact (as exp2 of whole numbers is) and cheaper on a reward batch.
            halvings = (2.0 ** np.arange(order + 1))[np.cumsum(zero, axis=1)].astype(dtype)
            precisions = np.where(zero, hundred / (halvings * total), precisions)
        elif config.smooth_method == "floor":
            floor = dtype(100.0 * float(config.smooth or 0.0))
            precisions = np.where(zero, floor / total, precisions)
    precisions = np.where(reached, precisions, dtype(0.0)).astype(np.float64)

    n_reached = np.add.reduce(reached, axis=1, dtype=np.int64)
    if config.effective_order:
        eff_order = np.where(n_reached > 0, n_reached, order)
    else:
        eff_order = np.full(len(rows), order)
    logs = np.where(precisions == 0.0, LOG_ZERO, ln(np.where(precisions > 0, precisions, 1.0)))
    # Summed one order at a time, left to right, as Python's sum() adds floats.
    log_sum = np.zeros(len(rows))
    for n in range(order):
        log_sum = log_sum + np.where(n < eff_order, logs[:, n], 0.0)

    bp = _brevity_penalty(sys_len, ref_len)
    scores = bp * exp(log_sum / eff_order)
    scores = np.where(no_match, 0.0, scores)
    precisions = np.where(no_match[:, None], 0.0, precisions)
    return ScoreArrays(scores=scores, bp=bp, precisions=precisions)


# -- result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BLEUResult(Result):
    """One BLEU score with everything it was computed from.

    ``counts`` and ``totals`` are the clipped matches and hypothesis n-grams per order,
    as counted (sacrebleu adds ``k`` to them under ``add-k``; understudy reports the
    counts unmodified, and the score is the same).
    """

    score: float
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    signature: Signature

    @property
    def ratio(self) -> float:
        """Hypothesis length over reference length (0 when the reference length is 0)."""
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    @property
    def verbose(self) -> str:
        """The precisions, brevity penalty, ratio and lengths, as sacrebleu prints them."""
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"{prec} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    def head(self) -> dict[str, Any]:
        """Every number, before the signature's keys."""
        return {
            "verbose_score": self.verbose,
            "counts": list(self.counts),
            "totals": list(self.totals),
            "precisions": list(self.precisions),
            "bp": self.bp,
            "ratio": self.ratio,
            "hyp_len": self.sys_len,
            "ref_len": self.ref_len,
        }


# -- statistics --------------------------------------------------------------------------------


def _bleu_result(row: NDArray[np.int64], scored: ScoreArrays, i: int, signature: Signature) -> BLEUResult:
    config = signature.config
    assert isinstance(config, BLEUConfig)
    order = config.max_ngram_order
    return BLEUResult(
        score=float(scored.scores[i]),
        counts=tuple(int(x) for x in row[2 : 2 + order]),
        totals=tuple(int(x) for x in row[2 + order :]),
        precisions=tuple(float(x) for x in scored.precisions[i]),
        bp=float(scored.bp[i]),
        sys_len=int(row[0]),
        ref_len=int(row[1]),
        signature=signature,
    )


@dataclass(frozen=True, eq=False)
class BLEUStats(Stats[BLEUConfig, BLEUResult]):
    """BLEU rows ``[hyp_len, ref_len, match_1..N, total_1..N]``."""

    metric: ClassVar[str] = "bleu"

    @classmethod
    def impossible(cls, total: NDArray[np.int64]) -> str | None:
        """More matches of an order than n-grams of it, or more n-grams than tokens."""
        order = (len(total) - 2) // 2
        matches, ngrams = total[2 : 2 + order], total[2 + order :]
        bad = np.flatnonzero(matches > ngrams)
        if len(bad):
            n = int(bad[0]) + 1
            return f"{int(matches[n - 1])} matching {n}-grams of {int(ngrams[n - 1])}"
        if order and ngrams[0] > total[0]:
            return f"{int(ngrams[0])} unigrams in {int(total[0])} hypothesis tokens"
        return None

    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        """BLEU of each row."""
        return score_rows(rows, self.config, float32).scores

    def scores_of_means(self, rows: NDArray[np.floating[Any]]) -> NDArray[np.floating[Any]]:
        """BLEU of each row of mean statistics (smoothing sees the fractional counts, as mbrs')."""
        return score_rows(rows, self.config).scores

    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[BLEUResult]:
        scored = score_rows(rows, self.config)
        return [
            _bleu_result(row, scored, i, sig)
            for i, (row, sig) in enumerate(zip(rows, signatures, strict=True))
        ]


# -- the metric object -------------------------------------------------------------------------

_LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def tokenizer_for(trg_lang: str) -> str:
    """sacrebleu's default tokenizer for a target language: ``zh``, ``ja-mecab``, ``ko-mecab``, else ``13a``.

    >>> tokenizer_for("ja"), tokenizer_for("de")
    ('ja-mecab', '13a')
    """
    return _LANGUAGE_TOKENIZERS.get(trg_lang, "13a")


class _Pretokenizing(_Preparing):
    """A core scorer whose text is first tokenized by a Python library (MeCab, SentencePiece)."""

    def __init__(self, core: _core.families.Scorer, tokenizer: ExternalTokenizer, lowercase: bool) -> None:
        super().__init__(core)
        self._tokenizer = tokenizer
        self._lowercase = lowercase

    def prepare(self, lines: list[T]) -> list[T]:
        return pretokenize(lines, self._tokenizer, self._lowercase)


@dataclass(frozen=True)
class NgramMatches:
    """Corpus totals per n-gram, as :meth:`BLEU.ngram_matches` gives them.

    ``ngrams[k]`` (tokens joined by single spaces, sorted) occurs ``hyp[k]`` times in the
    hypotheses and ``ref[k]`` times in the references (per segment its largest count in
    one reference), and ``matched[k]`` of its hypothesis occurrences are matched (clipped
    as BLEU clips).
    """

    ngrams: list[str]
    hyp: NDArray[np.int64]
    ref: NDArray[np.int64]
    matched: NDArray[np.int64]


class BLEU(Metric[BLEUStats, BLEUResult]):
    """A BLEU scorer with a fixed configuration and, optionally, cached references.

    Keyword arguments and defaults are sacrebleu's (``tokenize='13a'``, mixed case,
    ``exp`` smoothing, ``max_ngram_order=4``, ``effective_order=False``). With
    ``references=``, the references are tokenized and counted once and every call
    that omits ``refs`` reuses them. ``threads`` is the number of cores the Rust core
    uses (default: ``$UNDERSTUDY_THREADS``, else every core); results never depend on it.
    As in sacrebleu, ``sentence_score`` uses the scorer's ``effective_order`` (off by default);
    :func:`sentence_bleu` turns it on.

    >>> bleu = BLEU(references=[["a b c d e"]])
    >>> round(bleu.corpus_score(["a b c d e"]).score, 1), round(bleu.corpus_score(["a b c x e"]).score, 2)
    (100.0, 42.73)
    >>> bleu.segment_stats(["a b c"]).rows.tolist()
    [[3, 5, 3, 2, 1, 0, 3, 2, 1, 0]]
    >>> BLEU(effective_order=True).sentence_scores(["a b c", "a b"], [["a b c", "a c"]]).round(2)
    array([100.,  50.])
    >>> BLEU(effective_order=True).pairwise(["a b c", "x"], ["a b c", "a b", "y"]).round(2)
    array([[100.  ,  55.03,   0.  ],
           [  0.  ,   0.  ,   0.  ]])
    >>> systems = [["a b c d e"], ["a b c d x"]]
    >>> [round(r.score, 2) for r in BLEU(references=[["a b c d e"]]).corpus_scores(systems)]
    [100.0, 66.87]
    """

    stats_type = BLEUStats
    config_type = BLEUConfig
    config: BLEUConfig

    def __init__(
        self,
        *,
        tokenize: str | None = None,
        lowercase: bool = BLEUConfig.lowercase,
        smooth_method: str = BLEUConfig.smooth_method,
        smooth_value: float | None = BLEUConfig.smooth_value,
        max_ngram_order: int = BLEUConfig.max_ngram_order,
        effective_order: bool = BLEUConfig.effective_order,
        trg_lang: str = "",
        force: bool = False,
        references: Refs | None = None,
        threads: int | None = None,
        normalize_unicode: str = TextConfig.normalize_unicode,
    ) -> None:
        if tokenize is None:
            tokenize = tokenizer_for(trg_lang)
        elif trg_lang in _LANGUAGE_TOKENIZERS and tokenize != _LANGUAGE_TOKENIZERS[trg_lang]:
            # sacrebleu warns so too (a log message there).
            warnings.warn(
                f"the target language is {trg_lang!r}: consider the {_LANGUAGE_TOKENIZERS[trg_lang]!r} "
                "tokenizer or a SentencePiece one (flores101, flores200, spBLEU-1K)",
                stacklevel=2,
            )
        tokenize = canonical(tokenize)
        del force  # accepted for sacrebleu compatibility; understudy never warns about tokenized input
        config = BLEUConfig(
            tokenize=tokenize,
            lowercase=lowercase,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=max_ngram_order,
            effective_order=effective_order,
            normalize_unicode=normalize_unicode,
        )
        if config.tokenize in PYTHON_TOKENIZERS:
            # A missing library (or model) is named now, not after references were read or fetched.
            external_tokenizer(config.tokenize)
        self._setup(config, references, threads)

    @classmethod
    def from_options(cls, fields: dict[str, Any], *, trg_lang: str = "", threads: int | None = None) -> BLEU:
        """BLEU of command-line ``fields``: an unset tokenizer follows ``trg_lang`` (sacrebleu's rule).

        >>> BLEU.from_options({"tokenize": None}, trg_lang="zh").config.tokenize
        'zh'
        """
        return cls(**fields, trg_lang=trg_lang, threads=threads)

    def _core_scorer(self) -> _Scorer:
        config = self.config
        if config.tokenize in PYTHON_TOKENIZERS:
            # The library tokenizes in Python; the core splits its output on whitespace.
            core_config = {"tokenizer": "none", "lowercase": False, "max_order": config.max_ngram_order}
            core = _core.families.Scorer("bleu", core_config, self.threads)
            return _Pretokenizing(core, external_tokenizer(config.tokenize), config.lowercase)
        return super()._core_scorer()

    def _as_core_sees(
        self, hyps: Sequence[str], refs: RefStreams
    ) -> tuple[list[str], list[list[str | None]], str, bool]:
        """The text, tokenizer and case the core is given for this configuration."""
        config = self.config
        checked = normalize(check_hyps(hyps), config.normalize_unicode)
        streams = [normalize(stream, config.normalize_unicode) for stream in check_refs(refs, len(checked))]
        if config.tokenize in PYTHON_TOKENIZERS:
            tokenizer = external_tokenizer(config.tokenize)
            return (
                pretokenize(checked, tokenizer, config.lowercase),
                [pretokenize(stream, tokenizer, config.lowercase) for stream in streams],
                "none",
                False,
            )
        return checked, streams, config.tokenize, config.lowercase

    def ngram_matches(self, hyps: Sequence[str], refs: RefStreams) -> NgramMatches:
        """How often each n-gram (orders 1 to the maximum) occurs and is matched over a corpus.

        The statistics behind compare-mt's word and n-gram analyses, tokenized and clipped
        as this configuration's BLEU does: summed per order, ``matched`` and ``hyp`` are
        BLEU's matches and totals.

        >>> counts = BLEU(max_ngram_order=2).ngram_matches(["the cat the"], [["the cat sat"]])
        >>> for row in zip(counts.ngrams, counts.hyp.tolist(), counts.ref.tolist(), counts.matched.tolist()):
        ...     print(*row)
        cat 1 1 1
        cat sat 0 1 0
        cat the 1 0 0
        sat 0 1 0
        the 2 1 1
        the cat 1 1 1
        """
        texts, streams, tokenizer, lowercase = self._as_core_sees(hyps, refs)
        ngrams, rows = _core.analysis.ngram_matches(
            texts, streams, tokenizer, lowercase, self.config.max_ngram_order
        )
        return NgramMatches(ngrams, rows[:, 0], rows[:, 1], rows[:, 2])

    def matched_tokens(self, hyps: Sequence[str], refs: RefStreams) -> list[tuple[list[str], list[int]]]:
        """Each hypothesis's tokens and, per token, the order of the longest n-gram covering it
        that a reference of its segment has (0: in none), for highlighting matches.

        >>> BLEU().matched_tokens(["the cat sat on a mat"], [["a cat sat on the mat"]])
        [(['the', 'cat', 'sat', 'on', 'a', 'mat'], [1, 3, 3, 3, 1, 1])]
        """
        texts, streams, tokenizer, lowercase = self._as_core_sees(hyps, refs)
        found = _core.analysis.matched_tokens(
            texts, streams, tokenizer, lowercase, self.config.max_ngram_order
        )
        return [(line.split(" ") if line else [], list(levels)) for line, levels in found]


def corpus_bleu(
    hyps: Sequence[str],
    refs: RefStreams,
    *,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = False,
    max_ngram_order: int = 4,
) -> BLEUResult:
    """Corpus BLEU with sacrebleu's ``corpus_bleu`` arguments (plus ``max_ngram_order``).

    >>> round(corpus_bleu(["a b c d"], [["a b c d"], ["a b"]]).score, 1)
    100.0
    """
    bleu = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_ngram_order,
        effective_order=use_effective_order,
        force=force,
    )
    return bleu.corpus_score(hyps, refs)


def sentence_bleu(
    hyp: str,
    refs: Sequence[str | None],
    *,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = True,
    max_ngram_order: int = 4,
) -> BLEUResult:
    """Sentence BLEU with sacrebleu's ``sentence_bleu`` arguments (effective order on).

    >>> round(sentence_bleu("The cat", ["The cat sat"]).score, 2)
    60.65
    """
    bleu = BLEU(
        tokenize=tokenize,
        lowercase=lowercase,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_ngram_order,
        effective_order=use_effective_order,
    )
    return bleu.sentence_score(hyp, refs)


FAMILY = Family(config=BLEUConfig, stats=BLEUStats, metric=BLEU)
"""BLEU's entry in the registry (:mod:`understudy.metrics`)."""
