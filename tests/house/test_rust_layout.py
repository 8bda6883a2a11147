"""The Rust crates' shape: rooms that import only the rooms below them, no module cycle, a
top level of folders and a few shared files, and no function over 60 lines outside the tests.

Rust allows modules of one crate to use each other in a circle; these tests do not. They read
the ``crate::`` paths of the code (comments and ``#[cfg(test)]`` modules left out)."""

from __future__ import annotations

import graphlib
import re
from pathlib import Path

import pytest

CRATES = Path(__file__).resolve().parents[2] / "crates"
CORE = CRATES / "core" / "src"
BINDING = CRATES / "python" / "src"

ROOMS = {
    "text": {"error", "parallel"},
    "family": {"error", "parallel", "text"},
    "metrics": {"error", "parallel", "smallmap", "text", "family"},
    "analysis": {"error", "parallel", "text", "family", "metrics"},
    "metaeval": {"cpu", "parallel"},
    "segmentation": {"error", "parallel", "text", "metrics"},
}
"""Each room of the core and what it may import (besides itself)."""

SHARED = {"lib.rs", "error.rs", "parallel.rs", "cpu.rs", "smallmap.rs", "testing.rs"}
"""The core's top-level files: the crate root and what every room shares."""


def _module(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return "::".join(parts[:-1] if parts[-1] in ("mod", "lib") else parts)


def _code(path: Path) -> str:
    """The file's code without its test module and without comments."""
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests", path.read_text(encoding="utf-8"))[0]
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def _graph(root: Path) -> dict[str, set[str]]:
    """Each module's modules of the same crate that its code names (test files, ``tests.rs``, left out)."""
    paths = {_module(root, p): p for p in root.rglob("*.rs") if p.name != "tests.rs"}

    def resolve(path: str) -> str | None:
        parts = path.split("::")
        found = ("::".join(parts[:k]) for k in range(len(parts), 0, -1))
        return next((m for m in found if m in paths), None)

    graph = {}
    for module, path in paths.items():
        named = {resolve(p) for p in re.findall(r"\bcrate::([a-z_0-9]+(?:::[a-z_0-9]+)*)", _code(path))}
        graph[module] = {m for m in named if m and m != module and not module.startswith(m + "::")}
    return graph


@pytest.mark.parametrize("root", [CORE, BINDING], ids=["core", "binding"])
def test_no_module_cycle(root: Path) -> None:
    graph = _graph(root)
    assert len(graph) > 10
    list(graphlib.TopologicalSorter(graph).static_order())  # raises CycleError on a cycle


def test_each_room_imports_only_the_rooms_below_it() -> None:
    graph = _graph(CORE)
    found: dict[str, set[str]] = {}
    for module, deps in graph.items():
        room = module.split("::")[0]
        if room in ROOMS:
            found.setdefault(room, set()).update(d.split("::")[0] for d in deps)
    assert set(found) == set(ROOMS)
    assert {room: deps - {room} - ROOMS[room] for room, deps in found.items()} == {r: set() for r in ROOMS}
    # The family layer names no metric; BLEU is found under metrics/.
    assert "metrics::bleu::config" in graph["analysis"]


def test_the_core_top_level_is_rooms_and_a_few_shared_files() -> None:
    assert {p.name for p in CORE.iterdir() if p.is_dir()} == set(ROOMS)
    assert {p.name for p in CORE.glob("*.rs")} == SHARED


def _long_functions(path: Path) -> list[str]:
    """Functions of more than 60 lines, from ``fn`` to the closing brace at its indentation."""
    lines = re.split(r"#\[cfg\(test\)\]\s*mod tests", path.read_text(encoding="utf-8"))[0].splitlines()
    long = []
    for start, line in enumerate(lines):
        found = re.match(r"(\s*)(pub(\([a-z]+\))? )?(const )?(unsafe )?fn (\w+)", line)
        if not found or line.rstrip().endswith(";") or line.count("{") == line.count("}") > 0:
            continue  # a declaration, or a function on one line
        indent = found.group(1)
        end = next(k for k in range(start, len(lines)) if lines[k] == indent + "}")
        if end - start + 1 > 60:
            long.append(f"{path.name}:{start + 1} {found.group(6)} ({end - start + 1} lines)")
    return long


def test_no_function_is_over_60_lines() -> None:
    paths = [p for root in (CORE, BINDING) for p in root.rglob("*.rs") if p.name != "unicode_tables.rs"]
    assert len(paths) > 40
    assert [f for p in paths for f in _long_functions(p)] == []


def test_the_length_check_finds_a_long_function(tmp_path: Path) -> None:
    body = "\n".join(f"    let x{k} = {k};" for k in range(60))
    (tmp_path / "long.rs").write_text(f"pub fn short() {{}}\n\nfn long() {{\n{body}\n}}\n", encoding="utf-8")
    assert _long_functions(tmp_path / "long.rs") == ["long.rs:3 long (62 lines)"]
