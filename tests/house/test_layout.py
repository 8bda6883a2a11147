"""The code's shape: short functions, and a generic layer that names no metric family."""

from __future__ import annotations

import ast
import graphlib
import sys
from pathlib import Path

import pytest
import understudy
from understudy.metrics import FAMILIES

PACKAGE = Path(understudy.__file__).parent
EXEMPT = {
    "cli/tokenize.py": "the tokenize command prints the tokens BLEU sees",
    "report/analysis.py": "the report's word and n-gram analyses are BLEU's by design",
    "report/edits.py": "the segment diff of a report ranked by WER is jiwer's alignment",
    "report/builder.py": "BLEU's analyses and n-gram differences, and the diff of a report ranked by WER",
    "report/model.py": "a system's view shows BLEU's precisions and brevity penalty",
}
"""Modules of cli/ and report/ that name a family on purpose, each with its reason."""

GENERIC = [
    "config.py",
    "result.py",
    "stats.py",
    "signature.py",
    "metric.py",
    "metrics/arithmetic.py",
    "significance/__init__.py",
    "accumulator.py",
    "execution/dask.py",
    *(str(p.relative_to(PACKAGE)) for p in (PACKAGE / "correlation").glob("*.py")),
    *(
        name
        for room in ("cli", "report")
        for name in (str(p.relative_to(PACKAGE)) for p in sorted((PACKAGE / room).glob("*.py")))
        if name not in EXEMPT
    ),
]


def _names_of_families() -> set[str]:
    # Every class and function a family module defines is a name the generic layer must not use.
    names = set()
    for family in FAMILIES.values():
        module = sys.modules[family.config.__module__]
        names |= {
            name for name, obj in vars(module).items() if getattr(obj, "__module__", "") == module.__name__
        }
    return names


def test_no_function_is_over_60_lines() -> None:
    long = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.end_lineno is None:
                continue
            if node.end_lineno - node.lineno + 1 > 60:
                long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    assert not long


def test_the_family_names_are_known() -> None:
    assert {"BLEUConfig", "score_chrf_rows", "TERResult", "CHRFStats", "BLEU"} <= _names_of_families()


def _family_names_used(module: str) -> set[str]:
    # In code, not in docstrings or examples: a name used or imported.
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    used |= {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for alias in node.names
    }
    return used & _names_of_families()


@pytest.mark.parametrize("module", GENERIC)
def test_the_generic_layer_names_no_family(module: str) -> None:
    assert not _family_names_used(module)


@pytest.mark.parametrize("module", sorted(EXEMPT))
def test_each_exemption_still_names_a_family(module: str) -> None:
    assert _family_names_used(module), f"{module} names no family now: drop its exemption"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_old_addresses_are_gone() -> None:
    """The names and modules that moved forwarded for one release (0.1.0's CHANGELOG) and are gone."""
    import importlib

    from understudy import config, result, stats

    for module, name in ((config, "BLEUConfig"), (stats, "TERStats"), (result, "BLEUResult")):
        with pytest.raises(AttributeError, match=rf"has no attribute '{name}'"):
            getattr(module, name)
    for old in ("understudy.io", "understudy.tokens", "understudy.score_files", "understudy.scoring"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(old)


def _module_imports() -> dict[str, set[str]]:
    """Each module's imports of the package's modules at module level (not inside functions, not
    under TYPE_CHECKING), with the packages whose ``__init__`` those imports run."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path

    def known(name: str) -> str:
        while name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("understudy"):
                assert node.module is not None
                found |= {known(f"{node.module}.{alias.name}") for alias in node.names}
            elif isinstance(node, ast.Import):
                found |= {known(alias.name) for alias in node.names if alias.name.startswith("understudy")}
        parents = {p for d in found for p in _parents(d) if p in modules and not name.startswith(p + ".")}
        graph[name] = (found | parents) - {name}
    return graph


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(2, len(parts))]


def test_no_import_cycle_at_module_level() -> None:
    """The package's modules import each other without a cycle (graphlib raises CycleError on one).
    The registry lookups inside functions (stats, signature) are not module-level imports."""
    graph = _module_imports()
    assert len(graph) > 100 and graph["understudy.metrics.bleu"] >= {"understudy.metric", "understudy.stats"}
    order = list(graphlib.TopologicalSorter(graph).static_order())
    assert order.index("understudy.errors") < order.index("understudy.metrics.bleu")


@pytest.mark.parametrize("module", ["stats.py", "signature.py", "config.py", "metric.py", "result.py"])
def test_the_bases_find_families_through_the_ground_registry(module: str) -> None:
    """No base imports the families above it, not even inside a function: it asks the registry."""
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    upward = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("understudy.metrics")
    ]
    assert upward == []
