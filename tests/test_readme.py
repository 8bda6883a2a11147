"""README.md's Python examples run as written, in order, from a clone's top folder.

A block preceded by ``<!-- not run by tests/test_readme.py: ... -->`` is skipped (it needs
the network).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import REPO

BLOCK = re.compile(r"(<!-- not run[^>]*-->\n)?```python\n(.*?)```", re.S)


def test_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "data").symlink_to(REPO / "data")
    monkeypatch.chdir(tmp_path)
    blocks = BLOCK.findall((REPO / "README.md").read_text(encoding="utf-8"))
    namespace: dict[str, object] = {}
    ran = 0
    for k, (skipped, code) in enumerate(blocks):
        if skipped:
            continue
        exec(compile(code, f"README.md python block {k + 1}", "exec"), namespace)
        ran += 1
    assert ran >= 9 and "Totals" in namespace and "wmt_refs" in namespace
