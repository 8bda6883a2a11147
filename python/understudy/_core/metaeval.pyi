"""The WMT meta-evaluation's kernels: SPA's counts, swapped sums, the tie search, the coins."""

from typing import final

import numpy as np
from numpy.typing import NDArray

__all__ = ["SpaMixtures", "mt_halves", "swapped_sums", "tie_search"]

@final
class SpaMixtures:
    """Two metrics' scores and a paired test's permutations, for SPA's counts of many mixtures."""

    def __new__(
        cls, worse: NDArray[np.float64], better: NDArray[np.float64], swapped: NDArray[np.bool_]
    ) -> SpaMixtures: ...
    def counts(self, coins: NDArray[np.bool_], threads: int) -> NDArray[np.int64]: ...

def swapped_sums(
    coins: NDArray[np.bool_], vectors: NDArray[np.float64], bounds: NDArray[np.int64], threads: int = 1
) -> NDArray[np.float64]: ...
def tie_search(
    human: NDArray[np.float64], metric: NDArray[np.float64]
) -> tuple[float, float, int] | None: ...
def mt_halves(
    key: NDArray[np.uint32], pos: int, n: int
) -> tuple[NDArray[np.bool_], NDArray[np.uint32], int]: ...
