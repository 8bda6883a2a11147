"""The signature: every parameter that can change a score, in sacrebleu's ``key:value|...`` form.

One class serves every metric: the number of references, the keys of the metric's
configuration (``config.signature_pairs()``), test-set and significance keys, and the
version. Unlike sacrebleu's, it names BLEU's maximum n-gram order (``ngram``) and
chrF's ``beta``, so two scores with the same signature are comparable, and it parses
back into the configuration, for any metric.

>>> from understudy import BLEUConfig
>>> sig = Signature(nrefs=1, config=BLEUConfig())
>>> sig.format()
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|ngram:4|version:understudy-0.1.0'
>>> Signature.parse("#:1|c:lc|e:no|tok:intl|s:floor[0.10]|v:2.6.0").config.smooth_value
0.1
>>> Signature.parse("nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0").config.name
'chrF2++'
>>> Signature.parse("#:1|c:lc|t:tercom|nr:no|pn:yes|as:no|v:2.6.0").config
TERConfig(normalize_unicode='none', normalized=False, no_punct=False, asian_support=False, \
case_sensitive=False, tokenizer='tercom')
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar, cast

from understudy import registry
from understudy._version import __version__
from understudy.errors import ConfigError, SignatureError

if TYPE_CHECKING:
    from understudy.config import MetricConfig

_COMMON = {"metric": "m", "nrefs": "#", "version": "v"}
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
    "reseg": "R",  # understudy's: the systems were resegmented, and how (understudy.segmentation)
    "gran": "G",  # understudy's: segments joined into documents (understudy.cli.segments)
}
_PASSTHROUGH_LONG = {short: long for long, short in _PASSTHROUGH.items()}


def _families() -> dict[str, type[MetricConfig]]:
    return {name: registry.family(name).config for name in registry.MODULES}


def _keys(config: type[MetricConfig]) -> set[str]:
    return {key for pair in config.short_keys().items() for key in pair}


def _legacy_family(keys: list[str]) -> str:
    """The family of a signature without a ``metric`` key: sacrebleu's (and understudy's
    signatures of sacrebleu's metrics) are told by keys that BLEU's lack; else BLEU."""
    families = _families()
    common = _keys(families["bleu"]) | set(_PASSTHROUGH) | set(_PASSTHROUGH_LONG)
    for metric, config in families.items():
        if not config.names_metric and (_keys(config) - common) & set(keys):
            return metric
    return "bleu"


@dataclass(frozen=True)
class Signature:
    """A metric's signature: number of references (``None`` when it varies) and the config.

    ``extras`` holds keys of other tools' signatures (test set, bootstrap settings) in
    order, so a parsed signature prints back the same.
    """

    nrefs: int | None
    config: MetricConfig
    version: str = f"understudy-{__version__}"
    extras: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.config.from_text:  # given scores count no references: nrefs is not theirs
            object.__setattr__(self, "nrefs", None)

    def with_extras(self, pairs: list[tuple[str, str]]) -> Signature:
        """This signature with ``pairs`` (for example ``("test", "wmt17")``) before its other extras.

        >>> from understudy import BLEUConfig
        >>> Signature(1, BLEUConfig()).with_extras([("test", "wmt17"), ("lang", "en-de")]).format(short=True)
        '#:1|t:wmt17|l:en-de|c:mixed|e:no|tok:13a|s:exp|n:4|v:understudy-0.1.0'
        """
        return Signature(self.nrefs, self.config, self.version, (*pairs, *self.extras))

    def items(self) -> list[tuple[str, str]]:
        """The ``(long key, value)`` pairs in print order (version last)."""
        pairs = [("metric", self.config.metric)] if self.config.names_metric else []
        if self.config.from_text:  # given scores count no references
            pairs.append(("nrefs", "var" if self.nrefs is None else str(self.nrefs)))
        pairs += list(self.extras)
        pairs += self.config.signature_pairs()
        pairs.append(("version", self.version))
        return pairs

    def format(self, short: bool = False) -> str:
        """The signature string, with abbreviated keys when ``short``."""
        abbr = {**_COMMON, **_PASSTHROUGH, **self.config.short_keys()}
        return "|".join(f"{abbr[k] if short else k}:{v}" for k, v in self.items())

    def __str__(self) -> str:
        return self.format()

    @classmethod
    def parse(cls, text: str) -> Signature:
        """Parse a long or short signature of any metric, understudy's or sacrebleu's.

        The metric is the ``metric`` key; sacrebleu's signatures have none and are told by
        their keys (``nc``/``nw``/``space``: chrF; ``norm``/``punct``/``asian``: TER; else
        BLEU). A sacrebleu BLEU signature has no ``ngram`` key: its order is sacrebleu's
        fixed 4; a sacrebleu chrF signature has no ``beta``: 2.

        >>> Signature.parse("nrefs:var|case:mixed|eff:yes|tok:13a|smooth:exp|ngram:2|version:x").config
        BLEUConfig(normalize_unicode='none', tokenize='13a', lowercase=False, smooth_method='exp', \
smooth_value=None, max_ngram_order=2, effective_order=True)
        """
        parts = []
        for part in text.strip().split("|"):
            key, sep, value = part.partition(":")
            if not sep or not value:
                raise SignatureError(f"signature part {part!r} is not key:value")
            parts.append((key, value))
        metric = next((v for k, v in parts if k in ("metric", "m")), None)
        if metric is None:
            metric = _legacy_family([k for k, _ in parts])
        config_type = _families().get(metric)
        if config_type is None:
            raise SignatureError(f"unknown metric {metric!r}; known: {', '.join(_families())}")
        own_long = config_type.short_keys()
        own = {short: long for long, short in own_long.items()}
        values: dict[str, str] = {}
        extras: list[tuple[str, str]] = []
        choices = config_type.short_choices()
        for key, value in parts:
            # A family's short key can be a test set's too (TER's "t:tercom", sacrebleu's "t:wmt17"):
            # the value tells them apart.
            if key in own and key in _PASSTHROUGH_LONG and value in choices.get(key, ()):
                key = own[key]
            key = {"#": "nrefs", "v": "version", "m": "metric"}.get(key, key)
            if key in _COMMON or key in own_long:
                values[key] = value
            elif key in own and key not in _PASSTHROUGH_LONG:
                values[own[key]] = value
            elif key in _PASSTHROUGH or key in _PASSTHROUGH_LONG:
                extras.append((_PASSTHROUGH_LONG.get(key, key), value))
            else:
                raise SignatureError(f"unknown signature key {key!r} for {metric}")
        if "nrefs" not in values:
            if config_type.from_text:
                raise SignatureError("signature lacks nrefs")
            values["nrefs"] = "var"
        try:
            config = config_type.from_signature(values)
        except ConfigError as err:
            raise SignatureError(f"signature names a configuration understudy cannot run: {err}") from err
        nrefs_text = values["nrefs"]
        if nrefs_text != "var" and not nrefs_text.isdigit():
            raise SignatureError(f"nrefs must be a whole number or var, got {nrefs_text!r}")
        nrefs = None if nrefs_text == "var" else int(nrefs_text)
        version = values.get("version", f"understudy-{__version__}")
        return cls(nrefs=nrefs, config=config, version=version, extras=tuple(extras))


Signed = TypeVar("Signed")
"""Any frozen dataclass with a ``signature`` (a score, a paired test's result, an interval)."""


def tagged(result: Signed, pairs: list[tuple[str, str]]) -> Signed:
    """``result`` with ``pairs`` added to its signature (:meth:`Signature.with_extras`): the test
    set's name and pair, how the inputs were reshaped.

    >>> from understudy import BLEU
    >>> score = BLEU().corpus_score(["a b c d"], [["a b c d"]])
    >>> tagged(score, [("test", "wmt17")]).signature.format(short=True).split("|")[1]
    't:wmt17'
    """
    if not pairs:
        return result
    signature = cast(Any, result).signature.with_extras(pairs)
    changed: Signed = dataclasses.replace(cast(Any, result), signature=signature)
    return changed
