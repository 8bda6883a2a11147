"""What a command imports before it works (issue 43, item 5): the modules, not the time (times
are benchmarks/bench.py's task ``startup``). ``understudy --version`` loads neither NumPy nor the
core; ``score`` loads neither the ledger, nor the test sets' downloader, nor another command."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from understudy import _core
from understudy.cli import COMMANDS

PROBE = """
import json, sys
from understudy.cli import main
main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)))
"""


def loaded(*argv: str, cwd: Path | None = None) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True, cwd=cwd
    )
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_version_loads_neither_numpy_nor_the_core() -> None:
    modules = loaded("--version")
    assert "numpy" not in modules and "understudy._core" not in modules
    assert not {m for m in modules if m.startswith("understudy.cli.") and m != "understudy.cli.messages"}


def test_the_version_printed_is_the_cores() -> None:
    assert version("understudy-mt") == _core.VERSION


def test_score_loads_its_own_command_only(tmp_path: Path) -> None:
    (tmp_path / "ref").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "hyp").write_text("a b d\n", encoding="utf-8")
    modules = loaded(str(tmp_path / "ref"), "-i", str(tmp_path / "hyp"), "-b")
    assert "understudy.cli.score" in modules
    # score shares -t with testset and the paired tests' printing with compare (significance).
    shared = {"score", "testset", "compare"}
    others = {module for name, module in COMMANDS.items() if name not in shared}
    assert len(others) == len(COMMANDS) - len(shared) and not others & modules
    for heavy in (
        "understudy.datasets",
        "understudy.ledger.ledger",
        "matplotlib",
        "scipy",
        "torch",
        "http.client",
    ):
        assert heavy not in modules, heavy


def test_one_family_imported_from_python_loads_only_its_own_module() -> None:
    probe = "import json, sys\nfrom understudy import CHRF\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    modules = set(json.loads(done.stdout))
    from understudy.registry import MODULES

    assert modules & set(MODULES.values()) == {"understudy.metrics.chrf"}
    # ... and the family tables, when asked for, hold every family.
    from understudy.metrics import FAMILIES

    assert "understudy.metrics.nist" in sys.modules and list(FAMILIES)[:3] == ["bleu", "chrf", "ter"]
