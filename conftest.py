"""Collection for the whole repository: the torchmetrics adapter's doctests need the ``torch``
extra (PyTorch and torchmetrics); without it they are not collected, and tests/ says why. And
for every test collected here, tests/ and the package's doctests alike: where doctests put files,
and one OpenMP thread a worker."""

from __future__ import annotations

import importlib.util
import os
import signal
import tempfile
from collections.abc import Iterator

import pytest

if "PYTEST_XDIST_WORKER" in os.environ:
    # The suite runs a worker per core; PyTorch's OpenMP threads spin while they wait, so two
    # workers' models with a thread per core each ran ten times slower. Set before torch loads,
    # and inherited by the commands the tests run.
    os.environ.setdefault("OMP_NUM_THREADS", "1")

collect_ignore_glob = [] if importlib.util.find_spec("torchmetrics") else ["python/understudy/torchmetrics/*"]


@pytest.fixture(autouse=True)
def _sigpipe_ignored() -> None:
    """SIGPIPE ignored, as Python starts: importing sacrebleu's command line module (the tests run
    it in process) sets it to the default, and a stand-in server then writing to a client that
    gave up would kill the whole worker instead of raising BrokenPipeError."""
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)


@pytest.fixture(autouse=True)
def _doctest_files_in_the_tests_folder(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """The docstrings' examples make folders with ``tempfile.mkdtemp()``, as a reader would: under
    a doctest they go in pytest's own temporary folder, so that a run leaves nothing in /tmp."""
    if not isinstance(request.node, pytest.DoctestItem):
        yield
        return
    before = tempfile.tempdir
    tempfile.tempdir = str(tmp_path_factory.mktemp("doctest"))
    try:
        yield
    finally:
        tempfile.tempdir = before
