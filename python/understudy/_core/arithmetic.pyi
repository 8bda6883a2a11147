"""The C library's ``log`` and ``exp``, elementwise, as ``math.log`` and ``math.exp`` compute them."""

import numpy as np
from numpy.typing import NDArray

__all__ = ["exp", "ln"]

def ln(values: NDArray[np.float64]) -> NDArray[np.float64]: ...
def exp(values: NDArray[np.float64]) -> NDArray[np.float64]: ...
