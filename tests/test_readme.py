"""README.md's Python examples run as written, each on its own, from a clone's top folder.

Each block gets a fresh namespace: a reader copies one example, not the page, so every
example imports and defines what it uses.

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
    ran, failures = 0, []
    for k, (skipped, code) in enumerate(blocks):
        if skipped:
            continue
        try:
            exec(compile(code, f"README.md python block {k + 1}", "exec"), {})
        except Exception as err:  # every failing block is reported, not only the first
            failures.append(f"block {k + 1}: {type(err).__name__}: {err}")
        ran += 1
    assert not failures, "\n".join(failures)
    assert ran >= 11
