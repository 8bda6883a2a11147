"""The WMT25 organisers' scores, read once for the AutoRank tests."""

from __future__ import annotations

from typing import Any

import pytest
from understudy.autorank.files import read_scores

from tests.support.paths import WMT25_SCORES


@pytest.fixture(scope="session")
def wmt25_scores() -> Any:
    """Every pair's systems' paragraph scores beside the clone."""
    return read_scores(WMT25_SCORES)
