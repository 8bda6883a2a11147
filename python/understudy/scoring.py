"""Each metric's one function from sufficient statistics to scores; nothing else does this arithmetic.

- :func:`score_rows` (BLEU): a row is ``[hyp_len, ref_len, match_1..match_N, total_1..total_N]``.
  The arithmetic follows sacrebleu 2.6.0's ``BLEU.compute_bleu`` operation by
  operation, with the C library's ``log`` and ``exp`` (as ``math`` uses).
- :func:`score_chrf_rows` (chrF, chrF++): a row is ``[hyp, ref, match]`` per order,
  following ``CHRF._compute_f_score``.
- :func:`score_ter_rows` (TER): a row is ``[edits, ref_length * length_scale]``,
  following ``TER._compute_score_from_stats``.

One row summed over a corpus gives the corpus score; each segment's own row gives its
sentence score. Scores are bit-identical to sacrebleu's, including (``float32=True``)
the float32 arithmetic sacrebleu's bootstrap resampling falls into.

>>> import numpy as np
>>> from understudy.config import BLEUConfig, CHRFConfig, TERConfig
>>> out = score_rows(np.array([[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]]), BLEUConfig())
>>> float(out.scores[0]), float(out.bp[0])  # exp(log(100)) in the C library, as in sacrebleu
(100.00000000000004, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import BLEUConfig, CHRFConfig, TERConfig
from understudy.errors import ConfigError

LOG_ZERO = -9999999999.0
"""sacrebleu's ``my_log(0)``: a floor that drives the geometric mean to 0."""


@dataclass(frozen=True)
class ScoreArrays:
    """Scores of many rows at once: ``scores`` and ``bp`` of shape (k,), ``precisions`` (k, N)."""

    scores: NDArray[np.float64]
    bp: NDArray[np.float64]
    precisions: NDArray[np.float64]


def _ln(values: NDArray[np.float64]) -> NDArray[np.float64]:
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    return _core.ln(flat).reshape(values.shape)


def _exp(values: NDArray[np.float64]) -> NDArray[np.float64]:
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    return _core.exp(flat).reshape(values.shape)


def _brevity_penalty(sys_len: NDArray[np.float64], ref_len: NDArray[np.float64]) -> NDArray[np.float64]:
    short = sys_len < ref_len
    safe_sys = np.where(short & (sys_len > 0), sys_len, 1.0)
    penalty = _exp(1.0 - ref_len / safe_sys)
    return np.where(short, np.where(sys_len > 0, penalty, 0.0), 1.0)


def score_rows(rows: NDArray[np.integer], config: BLEUConfig, float32: bool = False) -> ScoreArrays:
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
    no_match = ~np.any(rows[:, 2 : 2 + order] != 0, axis=1)

    if config.smooth_method == "add-k":
        k = dtype(config.smooth or 0.0)
        correct[:, 1:] += k
        total[:, 1:] += k
    # sacrebleu's loop stops at the first order without hypothesis n-grams.
    reached = np.cumprod(total > 0, axis=1).astype(bool)
    zero = reached & (correct == 0)
    # Every operation below is in `dtype`, as sacrebleu's Python floats meet NumPy scalars.
    hundred = dtype(100.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        precisions = np.where(correct > 0, hundred * correct / total, dtype(0.0))
        if config.smooth_method == "exp":
            halvings = np.exp2(np.cumsum(zero, axis=1)).astype(dtype)
            precisions = np.where(zero, hundred / (halvings * total), precisions)
        elif config.smooth_method == "floor":
            floor = dtype(100.0 * float(config.smooth or 0.0))
            precisions = np.where(zero, floor / total, precisions)
    precisions = np.where(reached, precisions, dtype(0.0)).astype(np.float64)

    n_reached = reached.sum(axis=1)
    if config.effective_order:
        eff_order = np.where(n_reached > 0, n_reached, order)
    else:
        eff_order = np.full(len(rows), order)
    logs = np.where(precisions == 0.0, LOG_ZERO, _ln(np.where(precisions > 0, precisions, 1.0)))
    # Summed one order at a time, left to right, as Python's sum() adds floats.
    log_sum = np.zeros(len(rows))
    for n in range(order):
        log_sum = log_sum + np.where(n < eff_order, logs[:, n], 0.0)

    bp = _brevity_penalty(sys_len, ref_len)
    scores = bp * _exp(log_sum / eff_order)
    scores = np.where(no_match, 0.0, scores)
    precisions = np.where(no_match[:, None], 0.0, precisions)
    return ScoreArrays(scores=scores, bp=bp, precisions=precisions)


class _Weak:
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
    def of(cls, value: NDArray[Any] | float, is32: NDArray[np.bool_] | bool, n: int) -> _Weak:
        """Values broadcast to ``n`` elements."""
        return cls(
            np.broadcast_to(np.asarray(value, dtype=np.float64), (n,)).copy(),
            np.broadcast_to(np.asarray(is32, dtype=bool), (n,)).copy(),
        )

    def op(self, other: _Weak | float, f: Any) -> _Weak:
        """``f(self, other)`` in float64, and in float32 where either side is float32."""
        if not isinstance(other, _Weak):
            other = _Weak.of(other, False, len(self.value))
        is32 = self.is32 | other.is32
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            value = f(self.value, other.value)
            if is32.any():
                low = f(self.value[is32].astype(np.float32), other.value[is32].astype(np.float32))
                value[is32] = low.astype(np.float64)
        return _Weak(value, is32)

    def where(self, mask: NDArray[np.bool_], other: _Weak) -> _Weak:
        """This value where ``mask``, else ``other``'s."""
        return _Weak(np.where(mask, self.value, other.value), np.where(mask, self.is32, other.is32))

    def array(self) -> NDArray[np.floating[Any]]:
        """The values as NumPy would collect them: float32 if every one is, else float64."""
        if len(self.is32) and self.is32.all():
            return self.value.astype(np.float32)
        return self.value


_EPS = 1e-16
"""chrF's epsilon (sacrebleu's, as chrF++.py, Moses and NLTK have it)."""


def score_chrf_rows(
    rows: NDArray[np.integer], config: CHRFConfig, float32: bool = False
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
    score = _Weak.of(0.0, False, n)
    avg_prec, avg_rec = _Weak.of(0.0, False, n), _Weak.of(0.0, False, n)
    effective = np.zeros(n, dtype=np.int64)
    eps = _Weak.of(_EPS, False, n)
    for k in range(config.orders):
        hyp, ref, match = (_Weak.of(counts[:, 3 * k + i], float32, n) for i in range(3))
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
    zero = _Weak.of(0.0, False, n)
    divisor = np.maximum(effective, 1)
    avg_prec = avg_prec.op(_Weak.of(divisor, False, n), np.divide).where(effective > 0, zero)
    avg_rec = avg_rec.op(_Weak.of(divisor, False, n), np.divide).where(effective > 0, zero)
    top = avg_prec.op(1 + factor, lambda p, f: f * p).op(avg_rec, np.multiply)
    bottom = avg_prec.op(factor, lambda p, f: f * p).op(avg_rec, np.add)
    score = top.op(bottom, np.divide).op(100, lambda s, h: h * s)
    return score.where(avg_prec.value + avg_rec.value != 0, zero).array()


def score_ter_rows(
    rows: NDArray[np.integer], config: TERConfig, float32: bool = False
) -> NDArray[np.floating[Any]]:
    """TER (0-100 and above) of each statistics row ``[edits, ref_length * length_scale]``.

    Edits over the (average) reference length; 100 when the reference is empty and
    the hypothesis is not, 0 when both are empty.

    >>> scale = TERConfig.length_scale
    >>> score_ter_rows(np.array([[1, 4 * scale], [3, 0], [0, 0]]), TERConfig()).tolist()
    [25.0, 100.0, 0.0]
    """
    rows = np.atleast_2d(np.asarray(rows))
    if rows.shape[1] != config.row_width:
        raise ConfigError(f"rows have {rows.shape[1]} columns; TER needs {config.row_width}")
    n = len(rows)
    edits = rows[:, 0].astype(np.float64)
    ref_len = rows[:, 1] / config.length_scale
    if float32:
        edits, ref_len = (
            edits.astype(np.float32).astype(np.float64),
            ref_len.astype(np.float32).astype(np.float64),
        )
    ratio = _Weak.of(edits, float32, n).op(_Weak.of(ref_len, float32, n), np.divide)
    fallback = _Weak.of(np.where(edits > 0, 1.0, 0.0), False, n)
    return ratio.where(ref_len > 0, fallback).op(100, lambda s, h: h * s).array()
