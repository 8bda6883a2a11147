"""The metric protocol holds: every metric object answers the same questions, the generic layer
never asks which kind a metric is, one direction is spelled one way, and cli/ stays small."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
import understudy
from understudy.computed.metric import ComputedMetric
from understudy.metric import Metric
from understudy.metrics.protocol import MetricObject
from understudy.metrics.scores import GivenScores

PACKAGE = Path(understudy.__file__).parent
KINDS = {"Metric": Metric, "ComputedMetric": ComputedMetric, "GivenScores": GivenScores}
DEFINED_IN = {"metric.py", "computed/metric.py", "metrics/scores.py"}
"""The modules that define the kinds: the only ones that may tell them apart."""

LOWER_IS_BETTER = {
    "metrics/scores.py": "GivenScores(lower_is_better=...) and the signature's dir field",
    "metrics/given_files.py": "--scores-lower-is-better NAME, passed to GivenScores",
    "registry/declarations.py": "Computed.lower_is_better, read only",
    "computed/metric.py": "ComputedMetric.lower_is_better, read only, and GivenScores' keyword",
}
"""Where ``lower_is_better`` may still be spelled, each with its reason."""

CLI_LINES = 3600
"""cli/'s lines at most: the command line alone (3,487 when issue 69 closed; autorank's parser since)."""


def _modules() -> list[tuple[str, ast.Module]]:
    return [
        (str(path.relative_to(PACKAGE)), ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def _names(node: ast.expr) -> set[str]:
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    return {
        p.id if isinstance(p, ast.Name) else p.attr for p in parts if isinstance(p, ast.Name | ast.Attribute)
    }


def test_no_module_asks_which_kind_a_metric_is() -> None:
    asked = []
    for module, tree in _modules():
        if module in DEFINED_IN:
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("isinstance", "issubclass")
                and len(node.args) == 2
                and _names(node.args[1]) & set(KINDS)
            ):
                asked.append(f"{module}:{node.lineno}")
    assert not asked, asked


def _members() -> list[str]:
    return [name for name in dir(MetricObject) if not name.startswith("_")]


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_answers_every_question(kind: str) -> None:
    cls = KINDS[kind]
    for name in _members():
        asked, answered = getattr(MetricObject, name), getattr(cls, name, None)
        assert answered is not None, f"{kind} has no {name}"
        if callable(asked) and not isinstance(asked, property):
            wanted = list(inspect.signature(asked).parameters)
            assert list(inspect.signature(answered).parameters) == wanted, (kind, name)


def test_the_protocol_asks_what_the_issue_names() -> None:
    assert set(_members()) == {
        "name",
        "title",
        "higher_is_better",
        "inputs",
        "statistics",
        "utilities",
        "aggregate",
        "running_on",
    }


def test_one_direction_spelling() -> None:
    spelled = []
    for module, tree in _modules():
        if module in LOWER_IS_BETTER:
            continue
        for node in ast.walk(tree):
            names = {getattr(node, attribute, None) for attribute in ("id", "attr", "arg", "name")}
            if "lower_is_better" in names:
                spelled.append(f"{module}:{getattr(node, 'lineno', '?')}")
    assert not spelled, spelled


@pytest.mark.parametrize("module", sorted(LOWER_IS_BETTER))
def test_each_kept_spelling_is_still_there(module: str) -> None:
    assert "lower_is_better" in (PACKAGE / module).read_text(encoding="utf-8")


def test_cli_stays_under_its_lines() -> None:
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in (PACKAGE / "cli").rglob("*.py"))
    assert lines < CLI_LINES, f"cli/ holds {lines} lines: move what is not the command line out of it"


BUILDS_METRICS = {"chosen_metric", "from_options", "from_config", "read_given", "run_computed", "GivenScores"}
"""What makes metric objects; on the command line only :mod:`understudy.execution.asked` does."""


def _family_classes() -> set[str]:
    from understudy.metrics import FAMILIES

    return {family.metric.__name__ for family in FAMILIES.values()}


def _called(tree: ast.Module) -> set[str]:
    called = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called.add(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
    return called


def test_no_command_builds_its_metrics_by_hand() -> None:
    by_hand = {}
    for module, tree in _modules():
        if module.startswith("cli/"):
            made = _called(tree) & (BUILDS_METRICS | _family_classes())
            if made:
                by_hand[module] = sorted(made)
    assert not by_hand, by_hand


def test_the_by_hand_check_sees_a_command_that_builds() -> None:
    tree = ast.parse("from understudy import BLEU\nmetric = BLEU(tokenize='13a')\nGivenScores({}, 'x')")
    assert _called(tree) & (BUILDS_METRICS | _family_classes()) == {"BLEU", "GivenScores"}


@pytest.mark.parametrize("command", ["score", "compare", "gate", "correlate", "report", "mbr"])
def test_every_scoring_command_asks_the_library(command: str) -> None:
    text = (PACKAGE / "cli" / f"{command}.py").read_text(encoding="utf-8")
    assert "MetricsAsked" in text or "asked_metrics" in text, command
