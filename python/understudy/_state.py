"""The checks behind :meth:`understudy.stats.Totals.from_state`: a state is counts that sum
element-wise across workers, so everything it carries must survive a sum.

Its configuration is carried as a *stamp*: a prime drawn from the metric and its signature.
A sum of W states holds W times the stamp, still a multiple of it; a state of another
configuration holds a multiple of another prime, which is a multiple of this one only past a
billion workers.

>>> from understudy import BLEU, CHRF
>>> config_stamp(BLEU().config) != config_stamp(CHRF().config)
True
>>> whole_counts([3, 4.0], "a state")
[3, 4]
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy.config import MetricConfig
from understudy.errors import InputError

INT64_MAX = 2**63 - 1


def config_stamp(config: MetricConfig) -> int:
    """The prime in ``[2**30, 2**31 + 1000)`` a state of ``config`` carries."""
    pairs = ",".join(f"{k}:{v}" for k, v in config.signature_pairs())
    return _prime_from(f"{config.metric}|{pairs}")


@functools.lru_cache(maxsize=128)
def _prime_from(identity: str) -> int:
    import hashlib  # OpenSSL's load is paid by the states that need a stamp, not by every command

    digest = int.from_bytes(hashlib.sha256(identity.encode("utf-8")).digest()[:8], "big")
    candidate = (2**30 + digest % 2**30) | 1
    while not _is_prime(candidate):
        candidate += 2
    return candidate


def _is_prime(n: int) -> bool:
    # Trial division up to sqrt(2**31) (46,341): a few thousand steps, once per configuration.
    return n > 1 and all(n % d for d in range(3, int(n**0.5) + 1, 2)) and n % 2 == 1


def whole_counts(state: NDArray[Any] | Sequence[Any], what: str) -> list[int]:
    """The entries of ``state`` as Python ints, each a count from 0 to 2**63 - 1; anything else
    (fractions, strings, booleans, out-of-range numbers) is an ``InputError`` naming ``what``."""
    try:
        array = state if isinstance(state, np.ndarray) else np.asarray(state, dtype=object)
    except ValueError:  # ragged nesting NumPy cannot lay out
        raise InputError(f"{what} is a flat array of counts, not nested lists") from None
    if array.ndim != 1:
        raise InputError(f"{what} is a one-dimensional array of counts, got shape {array.shape}")
    counts = []
    for k, value in enumerate(array.tolist()):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(
                f"{what} holds whole numbers (counts) not fractions or text: entry {k} is {str(value)[:40]!r}"
            )
        if not 0 <= value <= INT64_MAX:
            raise InputError(
                f"{what} holds counts, never negative nor past 2**63 - 1; entry {k} is {str(value)[:40]}"
            )
        counts.append(value)
    return counts


def checked_sum(a: NDArray[np.int64], b: NDArray[np.int64]) -> NDArray[np.int64]:
    """``a + b`` for non-negative counts, refusing a sum past int64 (which NumPy would wrap)."""
    total: NDArray[np.int64] = a + b
    if (total < a).any():
        raise InputError("counts past 2**63 - 1: the summed statistics overflow int64")
    return total


def checked_int(value: int, what: str) -> int:
    """``value`` when it fits a state's int64, else an ``InputError`` naming ``what``."""
    if value > INT64_MAX:
        raise InputError(f"{what} past 2**63 - 1: the summed statistics overflow int64")
    return value


__all__ = ["checked_int", "checked_sum", "config_stamp", "whole_counts"]
