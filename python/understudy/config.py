"""What a metric family declares: its configuration's fields, and how each shows on the command
line and in the signature.

A family's configuration is a frozen dataclass deriving from :class:`MetricConfig`; each
field is made with :func:`option`, which records the field's command-line flags, help,
allowed values, and its signature key (long and short) with how the value is written and
read back. The command line (``understudy.cli.options``), the signature (both ways) and
the help texts are derived from these declarations; nothing else lists a family's options.

The family itself declares, as class attributes: ``metric`` (its name on the command
line, in saved files and in signatures), ``higher_is_better``, ``score_range`` and
``needs_corpus`` (statistics that need the whole reference corpus first, which a running
sum cannot give). The families live in :mod:`understudy.metrics`.

>>> from understudy.metrics.bleu import BLEUConfig
>>> BLEUConfig(smooth_method="floor").signature_pairs()[3]
('smooth', 'floor[0.10]')
>>> BLEUConfig.from_signature({"case": "lc", "eff": "no", "tok": "intl", "smooth": "exp"}).lowercase
True
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import KW_ONLY, dataclass
from typing import Any, ClassVar, TypeVar

from understudy import _core
from understudy.errors import ConfigError, InputTypeError, SignatureError
from understudy.inputs.tokens import TokenWriter

C = TypeVar("C", bound="MetricConfig")
D = TypeVar("D", bound="Declared")


@dataclass(frozen=True)
class Option:
    """One configuration field as the command line and the signature show it.

    ``flags`` are its command-line flags (none: not on the command line); a boolean field
    is a switch (``store_true``), others take a value of ``type``, one of ``choices`` when
    given. ``unset`` leaves the command line's default ``None``, for the metric object to
    choose (BLEU's tokenizer follows the target language). ``sentence`` is the value a
    field with no flags takes when the command line scores sentences (BLEU's effective
    order).

    ``key``/``short`` are its signature keys (none: not in the signature, or written by
    another field's ``encode``). ``text`` writes a boolean as ``(true, false)`` words;
    ``encode`` (the whole configuration to its text) and ``decode`` (a text to field
    values) replace the default of ``str``/the field's type. ``absent`` is read when a
    parsed signature lacks the key (sacrebleu's own signatures lack understudy's keys).

    Options of a command rather than of a metric (the significance tests', the given scores')
    may also take ``nargs`` values (``const`` when the flag is given alone), add them up
    (``action``: ``append`` or ``extend``), be one of a set of switches that ``exclusive``
    names (at most one given), keep their value under ``into`` instead of their long
    flag's name, and be ``required``.
    """

    flags: tuple[str, ...] = ()
    help: str = ""
    metavar: str | tuple[str, ...] | None = None
    choices: tuple[str, ...] | None = None
    type: Callable[[str], Any] | None = None
    nargs: str | int | None = None
    const: Any = None
    action: str | None = None
    exclusive: str | None = None
    into: str | None = None
    required: bool = False
    sentence: Any = None
    unset: bool = False
    key: str | None = None
    short: str | None = None
    text: tuple[str, str] | None = None
    encode: Callable[[Any], str] | None = None
    decode: Callable[[str], dict[str, Any]] | None = None
    absent: str | None = None
    omit_default: bool = False
    """Left out of the signature at its default, so signatures from before the key existed
    (and sacrebleu's) stay as they were; ``absent`` reads the default back."""
    tokens: Any = None
    """The value the field takes when tokens are scored (BLEU's tokenizer: ``none``)."""
    text_only: bool = False
    """The option means something for text only (removing punctuation, a tokenizer's
    normalisation): tokens are refused unless it is at its default."""
    lowers_tokens: tuple[Any, str] | None = None
    """``(value, fold)``: at ``value``, string tokens are lowercased first, as ``fold``
    (``unicode``: Python's ``str.lower``; ``ascii``: A-Z only) says."""

    @property
    def dest(self) -> str:
        """The argparse destination: ``into``, else the first long flag without dashes, ``-`` as ``_``."""
        if self.into is not None:
            return self.into
        long = next(flag for flag in self.flags if flag.startswith("--"))
        return long[2:].replace("-", "_")


def option(default: Any, **declaration: Any) -> Any:
    """A configuration field with its default and its :class:`Option` declaration (a tuple
    default is a list on the command line)."""
    return dataclasses.field(default=default, metadata={"option": Option(**declaration)})


@dataclass(frozen=True)
class Declared:
    """A frozen configuration whose fields are declared with :func:`option`: the families'
    (:class:`MetricConfig`), the computed metrics' (:mod:`understudy.registry.declarations`) and
    the options a command reads beside them (:class:`understudy.significance.resampling.Resampling`).
    The command line's flags and the values they give are derived from the declarations.
    """

    cli_group: ClassVar[str | None] = None
    """The title of the declaration's group of command-line options (none: among the general ones)."""

    @classmethod
    def options(cls) -> Iterator[tuple[str, Option]]:
        """Each field's name and declaration, in field order."""
        for f in dataclasses.fields(cls):
            declared = f.metadata.get("option")
            if declared is not None:
                yield f.name, declared

    @classmethod
    def field_values(cls, values: Mapping[str, Any], sentence_level: bool = False) -> dict[str, Any]:
        """The fields that command-line ``values`` (by destination) give (one absent keeps its
        default); a field without flags takes its ``sentence`` value when scoring sentences."""
        fields: dict[str, Any] = {}
        for name, opt in cls.options():
            if opt.flags and opt.dest in values:
                fields[name] = values[opt.dest]
            elif sentence_level and opt.sentence is not None:
                fields[name] = opt.sentence
        return fields

    @classmethod
    def from_values(cls: type[D], values: Mapping[str, Any]) -> D:
        """The configuration the command-line ``values`` (by destination) give, lists as tuples;
        a field whose option the command lacks keeps its default."""
        given = {name: values[opt.dest] for name, opt in cls.options() if opt.flags and opt.dest in values}
        return cls(**{name: tuple(v) if isinstance(v, list) else v for name, v in given.items()})


@dataclass(frozen=True)
class MetricConfig(Declared):
    """The base of every family's frozen configuration: everything that can change a score.

    Subclasses declare their fields with :func:`option` and their family's traits as
    class attributes; this class derives the signature from the declarations.
    """

    metric: ClassVar[str]
    """The family's name: on the command line (``-m``), in saved files and signatures."""
    title: ClassVar[str]
    """The name results print (a family may refine it per configuration: chrF2++)."""
    higher_is_better: ClassVar[bool] = True
    score_range: ClassVar[tuple[float | None, float | None]] = (0.0, 100.0)
    """The lowest and highest score (``None``: unbounded, as TER above)."""
    scale: ClassVar[float] = 100.0
    """Where the scale tops out when the range has no upper end: 100 for percentages (TER), 1 for
    fractions (WER); the report's histograms and buckets of an unbounded metric start from it."""
    from_text: ClassVar[bool] = True
    """Whether the family scores text (a ``-m`` choice, with references); given scores do not."""
    needs_corpus: ClassVar[bool] = False
    """Whether a segment's statistics need the whole reference corpus first (NIST's
    information weights): such a family is never summed chunk by chunk."""
    signature_order: ClassVar[tuple[str, ...]] = ()
    """The signature keys in print order (default: the fields' order)."""
    names_metric: ClassVar[bool] = True
    """Whether the signature starts with ``metric:<family>``. sacrebleu's three families
    (BLEU, chrF, TER) keep sacrebleu's signatures, recognised by their keys."""
    tokens_refused: ClassVar[str | None] = None
    """Why the family cannot score tokens (none: it can, see :meth:`for_tokens`)."""
    core_family: ClassVar[str] = ""
    """The core's scorer whose rows the family reads, where it is not its own (``""``): a
    family built on another's statistics needs no Rust of its own."""

    @property
    def name(self) -> str:
        """The metric's name as results print it."""
        return self.title

    @property
    def key(self) -> str:
        """What the ledger, the gate and the kept-records report know the metric by: the
        family (``bleu``), or a given metric's own name (``COMET-22``)."""
        return self.metric

    @property
    def row_width(self) -> int:
        """Columns of one statistics row."""
        raise NotImplementedError

    def decimals(self, width: int) -> int:
        """The decimals a score prints with when ``width`` is asked for: ``width`` counts decimals
        on a 0..100 scale, so a metric on 0..1 prints two more (``-w 1``: COMET's 0.843).

        >>> from understudy import BLEUConfig
        >>> BLEUConfig().decimals(1)
        1
        """
        low, high = self.score_range
        if low is None or high is None or high - low >= 100:
            return width
        return width + 2 - math.floor(math.log10(high - low))

    def core_config(self) -> dict[str, Any]:
        """What the Rust core's scorer of this family takes, by name (``_core.families.Scorer``)."""
        raise NotImplementedError

    @classmethod
    def signature_keys(cls) -> tuple[tuple[str, str, Option], ...]:
        """``(field, key, declaration)`` of each signature key, in print order."""
        return _signature_keys(cls)

    @classmethod
    def short_keys(cls) -> dict[str, str]:
        """Each signature key's short form (the key itself where none is declared)."""
        return {key: opt.short or key for _, key, opt in cls.signature_keys()}

    @classmethod
    def short_choices(cls) -> dict[str, tuple[str, ...]]:
        """The values a short key may take, for keys whose field declares its choices."""
        return {opt.short or key: opt.choices for _, key, opt in cls.signature_keys() if opt.choices}

    def signature_pairs(self) -> list[tuple[str, str]]:
        """The signature's ``(key, value)`` pairs for this configuration, in print order."""
        return [
            (key, _encode(self, name, opt))
            for name, key, opt in self.signature_keys()
            if not (opt.omit_default and getattr(self, name) == _default(type(self), name))
        ]

    @classmethod
    def from_signature(cls: type[C], values: Mapping[str, str]) -> C:
        """The configuration a parsed signature's ``values`` (long keys) name."""
        fields: dict[str, Any] = {}
        for name, key, opt in cls.signature_keys():
            text = values.get(key, opt.absent)
            if text is None:
                raise SignatureError(f"signature lacks {key}")
            fields |= _decode(cls, name, key, opt, text)
        return cls(**fields)

    def for_sentences(self: C) -> C:
        """This configuration as ``score -sl`` scores sentences: each field that declares a
        ``sentence`` value (BLEU's effective order) takes it.

        >>> from understudy import BLEUConfig
        >>> BLEUConfig().for_sentences().effective_order
        True
        """
        changes = {name: opt.sentence for name, opt in self.options() if opt.sentence is not None}
        return dataclasses.replace(self, **changes)

    def for_tokens(self: C) -> tuple[C, TokenWriter]:
        """This configuration as token input is scored (each field that declares a ``tokens``
        value takes it), and the writer of the tokens as words (:mod:`understudy.inputs.tokens`).

        >>> from understudy import BLEUConfig
        >>> config, writer = BLEUConfig(lowercase=True).for_tokens()
        >>> config.tokenize, writer.fold
        ('none', 'unicode')
        """
        if not self.from_text or self.tokens_refused is not None:
            raise InputTypeError(f"{self.name} scores text, not tokens: {self.tokens_refused or 'no text'}")
        changes: dict[str, Any] = {}
        fold = None
        for name, opt in self.options():
            value = getattr(self, name)
            if opt.text_only and value != _default(type(self), name):
                flag = opt.flags[0] if opt.flags else name
                raise ConfigError(
                    f"{self.name}: {flag} {value} applies to text; tokens are compared as they are given"
                )
            if opt.tokens is not None:
                changes[name] = opt.tokens
            if opt.lowers_tokens is not None and value == opt.lowers_tokens[0]:
                fold = opt.lowers_tokens[1]
        normalize = getattr(self, "normalize_unicode", "none")
        return dataclasses.replace(self, **changes), TokenWriter(normalize, fold)


UNICODE_FORMS: tuple[str, ...] = tuple(_core.text.unicode_forms()[0])
"""The Unicode normalisations every text metric offers (``none``: the text as given)."""
UNICODE_VERSION: str = _core.text.unicode_forms()[1]
"""The Unicode version they follow: the core's, whatever Python's ``unicodedata`` is."""


@dataclass(frozen=True)
class TextConfig(MetricConfig):
    """The base of the configurations of families that score text: the options every such
    family has, whatever it counts.

    >>> from understudy import CHRFConfig
    >>> CHRFConfig(normalize_unicode="nfc").signature_pairs()[-1]
    ('unicode', 'nfc')
    >>> ("unicode", "none") in CHRFConfig().signature_pairs()  # the default changes no signature
    False
    """

    # Keyword-only: a base class's fields would otherwise come first in every family's
    # positional arguments (BLEUConfig("intl") must stay the tokenizer).
    _: KW_ONLY
    normalize_unicode: str = option(
        "none",
        flags=("--normalize-unicode",),
        choices=UNICODE_FORMS,
        help="Unicode normalisation of hypotheses and references before any metric tokenizes "
        f"them (default: none, as sacrebleu; nfc: composed characters; nfkc: also ligatures and "
        f"full-width forms; Unicode {UNICODE_VERSION})",
        key="unicode",
        short="nf",
        omit_default=True,
        absent="none",
    )

    def __post_init__(self) -> None:
        if self.normalize_unicode not in UNICODE_FORMS:
            raise ConfigError(
                f"unknown Unicode normalisation {self.normalize_unicode!r}; known: {', '.join(UNICODE_FORMS)}"
            )


_KEYS: dict[type[MetricConfig], tuple[tuple[str, str, Option], ...]] = {}


def _signature_keys(cls: type[MetricConfig]) -> tuple[tuple[str, str, Option], ...]:
    # Declarations never change: each class's keys are worked out once.
    if cls not in _KEYS:
        keyed = [(name, opt.key, opt) for name, opt in cls.options() if opt.key is not None]
        if cls.signature_order:
            # Keys the order does not name (a base class's) follow the named ones.
            rank = {key: i for i, key in enumerate(cls.signature_order)}
            keyed.sort(key=lambda item: rank.get(item[1], len(rank)))
        _KEYS[cls] = tuple(keyed)
    return _KEYS[cls]


def _encode(config: MetricConfig, name: str, opt: Option) -> str:
    value = getattr(config, name)
    if opt.encode is not None:
        return opt.encode(config)
    if opt.text is not None:
        return opt.text[0] if value else opt.text[1]
    return format_number(value) if isinstance(value, float) else str(value)


def _decode(cls: type[MetricConfig], name: str, key: str, opt: Option, text: str) -> dict[str, Any]:
    if opt.decode is not None:
        return opt.decode(text)
    if opt.text is not None:
        if text not in opt.text:
            raise SignatureError(f"{key} must be one of {', '.join(opt.text)}, got {text!r}")
        return {name: text == opt.text[0]}
    default = _default(cls, name)
    if isinstance(default, bool) or not isinstance(default, int | float):
        return {name: text}
    if isinstance(default, int):
        if not text.isdigit():
            raise SignatureError(f"{key} must be a whole number, got {text!r}")
        return {name: int(text)}
    return {name: read_number(key, text)}


def _default(cls: type[MetricConfig], name: str) -> Any:
    return next(f.default for f in dataclasses.fields(cls) if f.name == name)


def read_number(key: str, text: str) -> float:
    """A signature's number: whole numbers as ``int``, others as ``float``.

    >>> read_number("beta", "2"), read_number("beta", "0.5")
    (2, 0.5)
    """
    try:
        return int(text) if text.isdigit() else float(text)
    except ValueError as err:
        raise SignatureError(f"{key} must be a number, got {text!r}") from err


def format_number(value: float) -> str:
    """A number as signatures write it: whole numbers without a decimal point.

    >>> format_number(2.0), format_number(0.5)
    ('2', '0.5')
    """
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def check_bool(config: MetricConfig, *names: str) -> None:
    """Refuse a field of ``names`` that is not ``True`` or ``False``."""
    for key in names:
        if not isinstance(getattr(config, key), bool):
            raise ConfigError(f"{key} must be True or False, got {getattr(config, key)!r}")


def check_int(config: MetricConfig, name: str, low: int, high: int) -> None:
    """Refuse a field that is not a whole number from ``low`` to ``high``."""
    value = getattr(config, name)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"{name} must be an integer from {low} to {high}, got {value!r}")


def check_number(value: Any, name: str) -> float:
    """``value`` as a float when it is a finite number >= 0, else a :class:`ConfigError`."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ConfigError(f"{name} must be a finite number >= 0, got {value!r}")
    return float(value)


def check_parts(config: MetricConfig, parts: str) -> None:
    """Refuse to score ``config``'s family in ``parts`` (chunks, partitions, batches) and sum them
    when its statistics need the whole reference corpus first (``needs_corpus``): each part would
    count against its own references, and the sum would be wrong without a word."""
    if config.needs_corpus:
        raise ConfigError(
            f"{config.name} needs the whole reference corpus before any segment is counted: {parts}"
            " would each count against their own references; score the corpus at once"
        )
