"""The tests' Dask cluster: a LocalCluster of 2 single-threaded worker processes on 127.0.0.1
(one BLAS thread each), and a client not set as the default; both closed when the block ends."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def two_workers() -> Iterator[Any]:
    """A client of a fresh 2-worker LocalCluster, for the block it opens."""
    import distributed

    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        env={"OMP_NUM_THREADS": "1"},
    )
    with cluster, distributed.Client(cluster, set_as_default=False) as client:
        yield client
