"""The signature: every parameter that can change a score, in sacrebleu's ``key:value|...`` form.

Unlike sacrebleu's, it names the maximum n-gram order (``ngram``), so two scores with
the same signature are comparable, and it parses back into the configuration.

>>> sig = Signature(nrefs=1, config=BLEUConfig())
>>> sig.format()
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|ngram:4|version:understudy-0.1.0'
>>> Signature.parse("#:1|c:lc|e:no|tok:intl|s:floor[0.10]|v:2.6.0").config.smooth_value
0.1
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from understudy._version import __version__
from understudy.config import SMOOTH_DEFAULTS, BLEUConfig
from understudy.errors import ConfigError, SignatureError

_SHORT = {"nrefs": "#", "case": "c", "eff": "e", "tok": "tok", "smooth": "s", "ngram": "n", "version": "v"}
_LONG = {short: long for long, short in _SHORT.items()}
# Keys sacrebleu defines for test sets and significance tests; kept verbatim when parsed.
_PASSTHROUGH = {
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "pvalue": "pv",  # understudy's: how a p-value counts ties (see understudy.significance)
    "blocks": "k",  # understudy's: the paper's block t-test
    "test": "t",
    "lang": "l",
    "origlang": "o",
    "subset": "S",
}
_PASSTHROUGH_LONG = {short: long for long, short in _PASSTHROUGH.items()}
_SMOOTH_RE = re.compile(r"^(none|exp|floor|add-k)(?:\[([^\]]+)\])?$")


def _format_smooth(config: BLEUConfig) -> str:
    value = config.smooth
    if value is None:
        return config.smooth_method
    text = f"{value:.2f}"
    # sacrebleu prints two decimals; print more only where two would lose the value.
    if float(text) != value:
        text = repr(value)
    return f"{config.smooth_method}[{text}]"


@dataclass(frozen=True)
class Signature:
    """A BLEU signature: number of references (``None`` when it varies) and the config.

    ``extras`` holds keys of other tools' signatures (test set, bootstrap settings) in
    order, so a parsed signature prints back the same.
    """

    nrefs: int | None
    config: BLEUConfig
    version: str = f"understudy-{__version__}"
    extras: tuple[tuple[str, str], ...] = field(default=())

    def with_extras(self, pairs: list[tuple[str, str]]) -> Signature:
        """This signature with ``pairs`` (for example ``("test", "wmt17")``) before its other extras.

        >>> Signature(1, BLEUConfig()).with_extras([("test", "wmt17"), ("lang", "en-de")]).format(short=True)
        '#:1|t:wmt17|l:en-de|c:mixed|e:no|tok:13a|s:exp|n:4|v:understudy-0.1.0'
        """
        return Signature(self.nrefs, self.config, self.version, (*pairs, *self.extras))

    def items(self) -> list[tuple[str, str]]:
        """The ``(long key, value)`` pairs in print order (version last)."""
        cfg = self.config
        pairs = [("nrefs", "var" if self.nrefs is None else str(self.nrefs))]
        pairs += list(self.extras)
        pairs += [
            ("case", "lc" if cfg.lowercase else "mixed"),
            ("eff", "yes" if cfg.effective_order else "no"),
            ("tok", cfg.tokenize),
            ("smooth", _format_smooth(cfg)),
            ("ngram", str(cfg.max_ngram_order)),
            ("version", self.version),
        ]
        return pairs

    def format(self, short: bool = False) -> str:
        """The signature string, with abbreviated keys when ``short``."""
        abbr = {**_SHORT, **_PASSTHROUGH}
        return "|".join(f"{abbr[k] if short else k}:{v}" for k, v in self.items())

    def __str__(self) -> str:
        return self.format()

    @classmethod
    def parse(cls, text: str) -> Signature:
        """Parse a long or short signature, understudy's or sacrebleu's.

        A sacrebleu signature has no ``ngram`` key: its order is sacrebleu's fixed 4.

        >>> Signature.parse("nrefs:var|case:mixed|eff:yes|tok:13a|smooth:exp|ngram:2|version:x").config
        BLEUConfig(tokenize='13a', lowercase=False, smooth_method='exp', smooth_value=None, \
max_ngram_order=2, effective_order=True)
        """
        values: dict[str, str] = {}
        extras: list[tuple[str, str]] = []
        for part in text.strip().split("|"):
            key, sep, value = part.partition(":")
            if not sep or not value:
                raise SignatureError(f"signature part {part!r} is not key:value")
            key = _LONG.get(key, key)
            if key in _PASSTHROUGH or key in _PASSTHROUGH_LONG:
                extras.append((_PASSTHROUGH_LONG.get(key, key), value))
            elif key in _SHORT:
                values[key] = value
            else:
                raise SignatureError(f"unknown signature key {key!r}")
        missing = [k for k in ("nrefs", "case", "eff", "tok", "smooth") if k not in values]
        if missing:
            raise SignatureError(f"signature lacks {', '.join(missing)}")
        smooth_method, smooth_value = _parse_smooth(values["smooth"])
        try:
            config = BLEUConfig(
                tokenize=values["tok"],
                lowercase=_choice(values, "case", {"lc": True, "mixed": False}),
                effective_order=_choice(values, "eff", {"yes": True, "no": False}),
                max_ngram_order=_integer(values.get("ngram", "4"), "ngram"),
                smooth_method=smooth_method,
                smooth_value=smooth_value,
            )
        except ConfigError as err:
            raise SignatureError(f"signature names a configuration understudy cannot run: {err}") from err
        nrefs = None if values["nrefs"] == "var" else _integer(values["nrefs"], "nrefs")
        version = values.get("version", f"understudy-{__version__}")
        return cls(nrefs=nrefs, config=config, version=version, extras=tuple(extras))


def _choice(values: dict[str, str], key: str, options: dict[str, bool]) -> bool:
    if values[key] not in options:
        raise SignatureError(f"{key} must be one of {', '.join(options)}, got {values[key]!r}")
    return options[values[key]]


def _integer(text: str, key: str) -> int:
    if not text.isdigit():
        raise SignatureError(f"{key} must be a whole number, got {text!r}")
    return int(text)


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
