"""Where the tests' data is: the repository, its sample, the WMT17 data beside it, the fixtures."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "wmt17-en-de"
SHARED = Path(os.environ.get("UNDERSTUDY_SHARED", REPO.parent / "shared")) / "data" / "wmt17-en-de"
FIXTURES = REPO / "tests" / "fixtures"
WMT25_SCORES = SHARED.parent / "wmt25-general-mt" / "automatic_scores"
"""The WMT25 organisers' per-system automatic scores beside the clone (59 .jsonl.gz files)."""


def read_raw(path: Path) -> list[str]:
    """Lines as sacrebleu's API users read them: UTF-8, BOM kept, split on \\n, rstripped."""
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip() for line in fh]


REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
ONLINE_A = SAMPLE / "newstest2017.online-A.0.en-de.de"  # starts with a byte-order mark
PROMT = SAMPLE / "newstest2017.PROMT-Rule-based.4735.en-de.de"  # has non-breaking spaces
"""The sample's reference and three of its systems, as the tests name them."""


def first_lines(paths: list[Path], folder: Path, count: int = 1000) -> list[Path]:
    """Copies of ``paths`` in ``folder``, the first ``count`` lines of each, bytes as they are:
    for tests that run sacrebleu's TER, which takes seconds a system on the whole sample."""
    cut = []
    for path in paths:
        lines = path.read_bytes().split(b"\n")[:count]
        (folder / path.name).write_bytes(b"\n".join(lines) + b"\n")
        cut.append(folder / path.name)
    return cut
