"""The package's rooms: a short top level, and rooms that import each other without a circle,
counting every import (inside functions and under ``TYPE_CHECKING`` too)."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest
import understudy

PACKAGE = Path(understudy.__file__).parent
TOP_LEVEL_LIMIT = 20
"""At most this many modules at the package's top level (issue 69: about 20, not 37)."""


def _room(module: str) -> str:
    # understudy.metrics.bleu -> metrics; understudy.stats -> stats; understudy -> the face.
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _module_of(path: Path) -> tuple[str, str]:
    """The dotted name of a source file, and the package its relative imports start from."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), ".".join(parts)
    return ".".join(parts), ".".join(parts[:-1])


def _imported(node: ast.AST, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*anchor, *([node.module] if node.module else [])])
    return [f"{base}.{alias.name}" for alias in node.names]


def room_graph(sources: dict[str, str]) -> dict[str, set[str]]:
    """Which room imports which, anywhere in a file, from ``{path: source}`` under ``PACKAGE``.

    >>> sorted(room_graph({str(PACKAGE / "a" / "x.py"): "def f():\\n    from understudy.b import y"}))
    ['a']
    """
    graph: dict[str, set[str]] = {}
    for path, text in sources.items():
        module, package = _module_of(Path(path))
        here = _room(module)
        for node in ast.walk(ast.parse(text)):
            for name in _imported(node, package):
                if name.startswith("understudy.") and _room(name) not in {here, ""}:
                    graph.setdefault(here, set()).add(_room(name))
        graph.setdefault(here, set())
    graph.pop("", None)  # the face hands names on; every room may be reached through it
    return graph


def _package_sources() -> dict[str, str]:
    return {str(path): path.read_text(encoding="utf-8") for path in PACKAGE.rglob("*.py")}


def test_the_top_level_is_short() -> None:
    top = sorted(path.name for path in PACKAGE.glob("*.py") if path.name != "__init__.py")
    assert len(top) <= TOP_LEVEL_LIMIT, top


def test_the_rooms_import_each_other_without_a_circle() -> None:
    graph = room_graph(_package_sources())
    # The graph sees imports inside functions: the site reads the ledger only when it builds.
    assert "ledger" in graph["site"] and "computed" in graph["neural"]
    graphlib.TopologicalSorter(graph).prepare()


def test_computed_and_neural_do_not_import_each_other_both_ways() -> None:
    graph = room_graph(_package_sources())
    assert not ("neural" in graph["computed"] and "computed" in graph["neural"])


def test_a_circle_through_a_lazy_import_is_found() -> None:
    sources = {
        str(PACKAGE / "a" / "x.py"): "from understudy.b import y\n",
        str(PACKAGE / "b" / "y.py"): "def f():\n    from ..a import x\n",
    }
    assert room_graph(sources) == {"a": {"b"}, "b": {"a"}}
    with pytest.raises(graphlib.CycleError):
        graphlib.TopologicalSorter(room_graph(sources)).prepare()


def test_every_test_folder_is_a_room_of_the_package() -> None:
    """Tests mirror the source: each folder of tests/ is a room's (or the tests' own support,
    fixtures, the whole-suite parity checks and these house rules)."""
    own = {"support", "fixtures", "parity", "house", "__pycache__"}
    rooms = {path.name for path in PACKAGE.iterdir() if path.is_dir()}
    folders = {path.name for path in (PACKAGE.parents[1] / "tests").iterdir() if path.is_dir()}
    assert folders - own <= rooms, sorted(folders - own - rooms)
    assert {"significance", "execution", "gate", "files"} <= folders
