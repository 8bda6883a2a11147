"""The frozen configuration of a BLEU computation.

>>> BLEUConfig(smooth_method="floor").smooth
0.1
>>> BLEUConfig(tokenize="13b")
Traceback (most recent call last):
...
understudy.errors.ConfigError: unknown tokenizer '13b'; known: 13a, intl, zh, zh-fixed, char, none
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from understudy import _core
from understudy.errors import ConfigError

TOKENIZERS: tuple[str, ...] = tuple(_core.tokenizer_names())
"""Every tokenizer name understudy knows, sacrebleu's default first."""

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
        if isinstance(order, bool) or not isinstance(order, int) or order < 1:
            raise ConfigError(f"max_ngram_order must be an integer of at least 1, got {order!r}")
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
