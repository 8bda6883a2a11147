"""THE function from BLEU sufficient statistics to scores; nothing else does this arithmetic.

A statistics row is ``[hyp_len, ref_len, match_1..match_N, total_1..total_N]``. One row
summed over a corpus gives corpus BLEU; each segment's own row gives sentence BLEU.
The arithmetic follows sacrebleu 2.6.0's ``BLEU.compute_bleu`` operation by operation,
with the C library's ``log`` and ``exp`` (as ``math`` uses), so scores are bit-identical.

>>> import numpy as np
>>> from understudy.config import BLEUConfig
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
from understudy.config import BLEUConfig
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
