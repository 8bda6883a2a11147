"""Score matrices as the meta-evaluation reads them: systems x segments, float64, checked once for
every statistic (SPA, acc-eq, PERM-BOTH, grouped correlations).

>>> score_matrix([[1, 2], [3, float("nan")]], "human", missing=True).shape
(2, 2)
>>> score_matrix([[1, 2]], "metric", missing=False)
Traceback (most recent call last):
...
understudy.errors.InputError: the metric scores need at least 2 systems and 1 segment, got shape (1, 2)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from understudy.errors import InputError


def score_matrix(values: ArrayLike, what: str, missing: bool) -> NDArray[np.float64]:
    """``values`` as a systems x segments float64 matrix; NaN only where ``missing`` allows it."""
    try:
        out = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError(f"the {what} scores are not a matrix of numbers") from None
    if out.ndim != 2 or out.shape[0] < 2 or out.shape[1] < 1:
        raise InputError(f"the {what} scores need at least 2 systems and 1 segment, got shape {out.shape}")
    bad = np.isinf(out) | (np.isnan(out) if not missing else False)
    if bad.any():
        i, j = (int(k) for k in np.argwhere(bad)[0])
        raise InputError(f"the {what} score of system {i + 1}, segment {j + 1} is not a finite number")
    return out
