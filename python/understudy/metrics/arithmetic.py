"""Arithmetic every family's scoring function shares: the C library's ``log`` and ``exp``, and
sacrebleu's mixed float32/float64 arithmetic.

Each family's one scoring function lives in its module (:mod:`understudy.metrics`):
``score_rows`` (BLEU), ``score_chrf_rows`` (chrF), ``score_ter_rows`` (TER).

>>> import numpy as np
>>> ln(np.array([1.0, np.e])).tolist()
[0.0, 1.0]
>>> Weak.of(1.0, True, 1).op(3.0, np.divide).array().dtype  # float32 meets a Python float
dtype('float32')
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy import _core


def ln(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """The C library's ``log`` of each value (as Python's ``math.log``, which sacrebleu uses)."""
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    return _core.arithmetic.ln(flat).reshape(values.shape)


def exp(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """The C library's ``exp`` of each value (as Python's ``math.exp``)."""
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    return _core.arithmetic.exp(flat).reshape(values.shape)


class Weak:
    """Values that are Python floats or NumPy float32 scalars, element by element.

    sacrebleu's bootstrap scores float32 statistics with Python arithmetic, where
    (under NumPy's promotion rules) a Python float meeting a float32 becomes float32
    but two Python floats stay float64. ``is32`` marks the float32 elements; values
    are held in float64 (exactly, for float32 ones).
    """

    def __init__(self, value: NDArray[np.float64], is32: NDArray[np.bool_]) -> None:
        self.value = value
        self.is32 = is32

    @classmethod
    def of(cls, value: NDArray[Any] | float, is32: NDArray[np.bool_] | bool, n: int) -> Weak:
        """Values broadcast to ``n`` elements."""
        return cls(
            np.broadcast_to(np.asarray(value, dtype=np.float64), (n,)).copy(),
            np.broadcast_to(np.asarray(is32, dtype=bool), (n,)).copy(),
        )

    def op(self, other: Weak | float, f: Any) -> Weak:
        """``f(self, other)`` in float64, and in float32 where either side is float32."""
        if not isinstance(other, Weak):
            other = Weak.of(other, False, len(self.value))
        is32 = self.is32 | other.is32
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            if is32.all():  # all float32 (a bootstrap's, as a rule): no float64 pass to overwrite
                low = f(self.value.astype(np.float32), other.value.astype(np.float32))
                return Weak(np.asarray(low).astype(np.float64), is32)
            value = f(self.value, other.value)
            if is32.any():
                low = f(self.value[is32].astype(np.float32), other.value[is32].astype(np.float32))
                value[is32] = low.astype(np.float64)
        return Weak(value, is32)

    def where(self, mask: NDArray[np.bool_], other: Weak) -> Weak:
        """This value where ``mask``, else ``other``'s."""
        return Weak(np.where(mask, self.value, other.value), np.where(mask, self.is32, other.is32))

    def array(self) -> NDArray[np.floating[Any]]:
        """The values as NumPy would collect them: float32 if every one is, else float64."""
        if len(self.is32) and self.is32.all():
            return self.value.astype(np.float32)
        return self.value
