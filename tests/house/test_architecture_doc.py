"""ARCHITECTURE.md (a one-page map) and docs/internals.md stay true to the tree: every file they
name (``name.py``, ``name.rs``, a path) is a file of the repository, found by its path or, where
they name it inside its room (``cli/keep.py`` under ``python/understudy/``), by its path's end."""

from __future__ import annotations

import re
import subprocess

from tests.support.paths import REPO

FILE = re.compile(r"[\w./-]*[\w-]+\.(?:py|rs|md|toml|yml|yaml|json|sh|pyi)\b")


def tracked() -> list[str]:
    done = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True)
    return done.stdout.split()


def missing_files(text: str, files: list[str]) -> list[str]:
    """The file names in ``text`` that no file of ``files`` has as its path or its path's end."""
    named = {name for name in FILE.findall(text) if not name.startswith(("http", "."))}
    return sorted(n for n in named if not any(f == n or f.endswith("/" + n) for f in files))


def test_every_file_architecture_md_and_the_internals_name_exists() -> None:
    text = "\n".join(
        (REPO / page).read_text(encoding="utf-8") for page in ("ARCHITECTURE.md", "docs/internals.md")
    )
    assert len(FILE.findall(text)) > 100
    assert missing_files(text, tracked()) == []


def test_architecture_md_is_one_page() -> None:
    assert len((REPO / "ARCHITECTURE.md").read_text(encoding="utf-8").splitlines()) <= 120


def test_a_renamed_file_is_reported() -> None:
    text = "compare's options: cli/significance.py (now cli/compare.py), spa.rs, unknown.rs"
    assert missing_files(text, tracked()) == ["cli/significance.py", "unknown.rs"]
