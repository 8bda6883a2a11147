"""What understudy does before NumPy loads when the process's address space is capped.

OpenBLAS (under NumPy) sets aside a buffer per thread as it loads; under ``ulimit -v`` those
buffers alone can exceed the cap, and OpenBLAS then gives up with its own message, or the
process crashes, before any of understudy's code can say that memory ran out. With the cap set
and no thread count chosen by the user, OpenBLAS is kept to one thread: understudy does its work
in the Rust core, and NumPy's few matrix products here are small. This module does it as it is
imported, first of all understudy's (``understudy/__init__.py``).

>>> capped_blas_threads({"OPENBLAS_NUM_THREADS": "4"}, limit=2**28)
False
>>> environ = {}
>>> capped_blas_threads(environ, limit=2**28), environ
(True, {'OPENBLAS_NUM_THREADS': '1'})
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping


def address_space_limit() -> int | None:
    """The soft ``RLIMIT_AS`` in bytes, or ``None`` when there is none (or no way to ask)."""
    try:
        import resource
    except ImportError:  # not a Unix
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def capped_blas_threads(environ: MutableMapping[str, str] | None = None, limit: int | None = None) -> bool:
    """Keep OpenBLAS to one thread when the address space is capped (``limit``: the cap, read
    from the process when not given) and the user chose no thread count; whether it did."""
    environ = os.environ if environ is None else environ
    limit = address_space_limit() if limit is None else limit
    chosen = any(name in environ for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"))
    if limit is None or chosen:
        return False
    environ["OPENBLAS_NUM_THREADS"] = "1"
    return True


def reserve_blas_buffer() -> None:
    """Under an address space capped from the start (``ulimit -v``), have OpenBLAS take its
    working buffer now, while the process is small: it takes it at the first matrix product, and
    one that fails then, mid-run, ends the process with OpenBLAS's own message instead of
    understudy's. A cap set later, by the process itself, is left alone: the buffer would be
    taken under it.

    >>> reserve_blas_buffer()  # nothing to do without a cap; harmless with one
    """
    if not CAPPED_AT_START:
        return
    import numpy as np

    # Large enough to be packed (OpenBLAS computes small products without its buffer).
    for dtype in (np.float32, np.float64):
        square = np.ones((256, 256), dtype=dtype)
        square @ square


CAPPED_AT_START = address_space_limit() is not None
"""Whether the address space was capped when understudy was first imported."""
capped_blas_threads()
