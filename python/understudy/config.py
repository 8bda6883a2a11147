"""The frozen configurations of the metrics: every parameter that can change a score.

Each configuration knows its metric's name as results print it (``name``), the keys
of its signature (``signature_pairs``, read back by ``from_signature``) and whether a
higher score is better; the arithmetic is in :mod:`understudy.scoring`.

>>> BLEUConfig(smooth_method="floor").smooth
0.1
>>> CHRFConfig(word_order=2).name, TERConfig().name
('chrF2++', 'TER')
>>> BLEUConfig(tokenize="13b")
Traceback (most recent call last):
...
understudy.errors.ConfigError: unknown tokenizer '13b'; known: 13a, intl, zh, zh-fixed, char, none, \
ja-mecab, ko-mecab, flores101, flores200, spBLEU-1K
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import ClassVar

from understudy import _core
from understudy.errors import ConfigError, SignatureError
from understudy.external_tokenizers import base_name

CORE_TOKENIZERS: tuple[str, ...] = tuple(_core.tokenizer_names())
"""The tokenizers of the Rust core, sacrebleu's default first."""

PYTHON_TOKENIZERS = ("ja-mecab", "ko-mecab", "flores101", "flores200", "spBLEU-1K")
"""The tokenizers that call a library in Python (see :mod:`understudy.external_tokenizers`)."""

TOKENIZERS: tuple[str, ...] = (*CORE_TOKENIZERS, *PYTHON_TOKENIZERS)
"""Every tokenizer name a BLEU configuration takes."""

MAX_BLEU_ORDER = 64
"""The largest BLEU n-gram order accepted: rows grow with the order (16 bytes an order a
segment), and no published BLEU comes near it."""

SMOOTH_DEFAULTS: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1.0, "exp": None}
"""Smoothing methods and the default value of those that take one (as in sacrebleu)."""


@dataclass(frozen=True)
class BLEUConfig:
    """Every parameter that can change a BLEU score, with sacrebleu's defaults.

    ``smooth_value`` is kept only for the methods that use it (``floor``, ``add-k``);
    for the others it is ignored, as sacrebleu ignores it.

    >>> BLEUConfig(lowercase=True, max_ngram_order=2)
    BLEUConfig(tokenize='13a', lowercase=True, smooth_method='exp', smooth_value=None, \
max_ngram_order=2, effective_order=False)
    """

    metric: ClassVar[str] = "bleu"
    name: ClassVar[str] = "BLEU"
    higher_is_better: ClassVar[bool] = True

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: str = "exp"
    smooth_value: float | None = None
    max_ngram_order: int = 4
    effective_order: bool = False

    def __post_init__(self) -> None:
        if self.tokenize not in TOKENIZERS:
            raise ConfigError(f"unknown tokenizer {self.tokenize!r}; known: {', '.join(TOKENIZERS)}")
        if self.smooth_method not in SMOOTH_DEFAULTS:
            raise ConfigError(
                f"unknown smoothing method {self.smooth_method!r}; known: {', '.join(SMOOTH_DEFAULTS)}"
            )
        order = self.max_ngram_order
        if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_BLEU_ORDER:
            raise ConfigError(f"max_ngram_order must be an integer from 1 to {MAX_BLEU_ORDER}, got {order!r}")
        if SMOOTH_DEFAULTS[self.smooth_method] is None:
            object.__setattr__(self, "smooth_value", None)
        elif self.smooth_value is not None:
            value = self.smooth_value
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
                or value < 0
            ):
                raise ConfigError(f"smooth_value must be a finite number >= 0, got {value!r}")
            object.__setattr__(self, "smooth_value", float(value))

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

    def signature_pairs(self) -> list[tuple[str, str]]:
        """The signature's ``(key, value)`` pairs for this configuration, in print order."""
        return [
            ("case", "lc" if self.lowercase else "mixed"),
            ("eff", "yes" if self.effective_order else "no"),
            ("tok", _tokenizer_signature(self.tokenize)),
            ("smooth", _format_smooth(self)),
            ("ngram", str(self.max_ngram_order)),
        ]

    @classmethod
    def from_signature(cls, values: dict[str, str]) -> BLEUConfig:
        """The configuration a parsed signature names (``ngram`` absent: sacrebleu's 4)."""
        smooth_method, smooth_value = _parse_smooth(_need(values, "smooth"))
        return cls(
            tokenize=base_name(_need(values, "tok")),
            lowercase=_choice(values, "case", {"lc": True, "mixed": False}),
            effective_order=_choice(values, "eff", {"yes": True, "no": False}),
            max_ngram_order=_whole(values.get("ngram", "4"), "ngram"),
            smooth_method=smooth_method,
            smooth_value=smooth_value,
        )


def _tokenizer_signature(name: str) -> str:
    # MeCab's version is part of sacrebleu's signature: it is read off the library.
    if name not in PYTHON_TOKENIZERS:
        return name
    from understudy.external_tokenizers import external_tokenizer

    return external_tokenizer(name).signature()


MAX_CHRF_ORDER: int = _core.ChrfScorer.max_order
"""The largest character or word n-gram order chrF accepts."""


@dataclass(frozen=True)
class CHRFConfig:
    """Every parameter that can change a chrF score, with sacrebleu's defaults.

    chrF++ is ``word_order=2``. ``eps_smoothing=False`` (sacrebleu's default) averages
    precision and recall over the orders that have n-grams on both sides;
    ``True`` smooths empty orders with a tiny epsilon as chrF++.py, Moses and NLTK do.

    >>> CHRFConfig(beta=1, lowercase=True).name
    'chrF1'
    >>> CHRFConfig(char_order=0)
    Traceback (most recent call last):
    ...
    understudy.errors.ConfigError: char_order and word_order must not both be 0
    """

    metric: ClassVar[str] = "chrf"
    higher_is_better: ClassVar[bool] = True

    char_order: int = 6
    word_order: int = 0
    beta: float = 2
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        for key in ("char_order", "word_order"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CHRF_ORDER:
                raise ConfigError(f"{key} must be an integer from 0 to {MAX_CHRF_ORDER}, got {value!r}")
        if self.char_order + self.word_order == 0:
            raise ConfigError("char_order and word_order must not both be 0")
        beta = self.beta
        if isinstance(beta, bool) or not isinstance(beta, int | float) or not math.isfinite(beta) or beta < 0:
            raise ConfigError(f"beta must be a finite number >= 0, got {beta!r}")
        for key in ("lowercase", "whitespace", "eps_smoothing"):
            if not isinstance(getattr(self, key), bool):
                raise ConfigError(f"{key} must be True or False, got {getattr(self, key)!r}")

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

    def signature_pairs(self) -> list[tuple[str, str]]:
        """sacrebleu's chrF keys, and ``beta`` (which sacrebleu leaves to the name)."""
        return [
            ("case", "lc" if self.lowercase else "mixed"),
            ("eff", "no" if self.eps_smoothing else "yes"),
            ("nc", str(self.char_order)),
            ("nw", str(self.word_order)),
            ("space", "yes" if self.whitespace else "no"),
            ("beta", _format_number(self.beta)),
        ]

    @classmethod
    def from_signature(cls, values: dict[str, str]) -> CHRFConfig:
        """The configuration a parsed signature names (``beta`` absent: 2)."""
        beta_text = values.get("beta", "2")
        try:
            beta: float = int(beta_text) if beta_text.isdigit() else float(beta_text)
        except ValueError as err:
            raise SignatureError(f"beta must be a number, got {beta_text!r}") from err
        return cls(
            char_order=_whole(_need(values, "nc"), "nc"),
            word_order=_whole(_need(values, "nw"), "nw"),
            beta=beta,
            lowercase=_choice(values, "case", {"lc": True, "mixed": False}),
            whitespace=_choice(values, "space", {"yes": True, "no": False}),
            eps_smoothing=_choice(values, "eff", {"no": True, "yes": False}),
        )


TER_TOKENIZERS: tuple[str, ...] = ("tercom", "tercom-fixed")
"""TER's tokenizers: sacrebleu's (references tokenized twice), and the fix (once)."""


@dataclass(frozen=True)
class TERConfig:
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
    name: ClassVar[str] = "TER"
    higher_is_better: ClassVar[bool] = False
    row_width: ClassVar[int] = 2
    length_scale: ClassVar[int] = _core.TerScorer.length_scale
    """The average reference length is stored times this (lcm of 1..16), to sum exactly."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False
    tokenizer: str = "tercom"

    def __post_init__(self) -> None:
        for key in ("normalized", "no_punct", "asian_support", "case_sensitive"):
            if not isinstance(getattr(self, key), bool):
                raise ConfigError(f"{key} must be True or False, got {getattr(self, key)!r}")
        if self.tokenizer not in TER_TOKENIZERS:
            raise ConfigError(f"unknown TER tokenizer {self.tokenizer!r}; known: {', '.join(TER_TOKENIZERS)}")

    @property
    def fixed(self) -> bool:
        """Whether references are tokenized once (``tercom-fixed``), not twice as sacrebleu does."""
        return self.tokenizer == "tercom-fixed"

    def signature_pairs(self) -> list[tuple[str, str]]:
        """sacrebleu's TER keys."""
        yes_no = {True: "yes", False: "no"}
        return [
            ("case", "mixed" if self.case_sensitive else "lc"),
            ("tok", self.tokenizer),
            ("norm", yes_no[self.normalized]),
            ("punct", yes_no[not self.no_punct]),
            ("asian", yes_no[self.asian_support]),
        ]

    @classmethod
    def from_signature(cls, values: dict[str, str]) -> TERConfig:
        """The configuration a parsed signature names."""
        yes_no = {"yes": True, "no": False}
        return cls(
            tokenizer=values.get("tok", "tercom"),
            case_sensitive=_choice(values, "case", {"mixed": True, "lc": False}),
            normalized=_choice(values, "norm", yes_no),
            no_punct=not _choice(values, "punct", yes_no),
            asian_support=_choice(values, "asian", yes_no),
        )


MetricConfig = BLEUConfig | CHRFConfig | TERConfig
"""Any metric's configuration."""


def _format_number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


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


def _parse_smooth(text: str) -> tuple[str, float | None]:
    match = _SMOOTH_RE.match(text)
    if not match:
        raise SignatureError(f"cannot read smoothing {text!r}")
    method, value = match.group(1), match.group(2)
    if value is None or SMOOTH_DEFAULTS[method] is None:
        return method, None
    try:
        return method, float(value)
    except ValueError as err:
        raise SignatureError(f"cannot read smoothing value {value!r}") from err


def _need(values: dict[str, str], key: str) -> str:
    if key not in values:
        raise SignatureError(f"signature lacks {key}")
    return values[key]


def _choice(values: dict[str, str], key: str, options: dict[str, bool]) -> bool:
    value = _need(values, key)
    if value not in options:
        raise SignatureError(f"{key} must be one of {', '.join(options)}, got {value!r}")
    return options[value]


def _whole(text: str, key: str) -> int:
    if not text.isdigit():
        raise SignatureError(f"{key} must be a whole number, got {text!r}")
    return int(text)
