"""Collection for the whole repository: the torchmetrics adapter's doctests need the ``torch``
extra (PyTorch and torchmetrics); without it they are not collected, and tests/ says why. And
for every test collected here, tests/ and the package's doctests alike: where doctests put files."""

from __future__ import annotations

import importlib.util
import tempfile
from collections.abc import Iterator

import pytest

collect_ignore_glob = [] if importlib.util.find_spec("torchmetrics") else ["python/understudy/torchmetrics/*"]


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
