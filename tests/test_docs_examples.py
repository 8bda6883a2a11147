"""Every example of README.md and the documentation (docs/*.md) runs, each on its own, in a
temporary folder holding only ``data/`` (the bundled sample), and what it prints is the page's.

- ``pycon`` blocks are doctests (a fresh namespace each; ``...`` elides, as doctest's ELLIPSIS);
- ``console`` blocks are shell sessions: each ``$ `` command (``\\``-continued lines included)
  runs in bash with stderr joined to stdout, and its output must be the lines below it, where a
  line ``...`` stands for any number of lines and ``...`` within a line for any text;
- ``python`` blocks run as written (a fresh namespace each), their output not compared;
- a block after ``<!-- not run ...: REASON -->`` is skipped for its reason, and counted.

Shell examples in ``bash`` blocks that are not marked are illustrations of commands on a
reader's own files (``ref.de``, ``sysA.de``): counted, not run. README.md has none.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(
    r"(<!-- not run[^>]*?(?::\s*(?P<reason>[^>]*?))?\s*-->\n)?```(?P<kind>[\w-]*)\n(?P<code>.*?)```", re.S
)
RUN = ("pycon", "console", "python")


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    kind: str
    code: str
    skipped: str | None

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}:{self.kind}"


def examples() -> list[Example]:
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            line = text.count("\n", 0, match.start("code"))
            marked = match.group(1) is not None
            reason = (match.group("reason") or "marked not run").strip() if marked else None
            found.append(
                Example(str(page.relative_to(REPO)), line, match.group("kind"), match.group("code"), reason)
            )
    return found


ALL = examples()
RUNNABLE = [e for e in ALL if e.kind in RUN and e.skipped is None]


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "data").symlink_to(REPO / "data")
    monkeypatch.chdir(tmp_path)
    for name in ("UNDERSTUDY_CACHE", "UNDERSTUDY_LEDGER", "MPLCONFIGDIR"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    return tmp_path


def _doctest(example: Example) -> None:
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    test = parser.get_doctest(example.code, {}, example.name, example.page, example.line)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)


def _sessions(code: str) -> list[tuple[str, list[str]]]:
    """The commands of a console block, each with the output lines the page shows."""
    sessions: list[tuple[str, list[str]]] = []
    lines = code.rstrip("\n").split("\n")
    k = 0
    while k < len(lines):
        assert lines[k].startswith("$ "), f"a console block's line {k + 1} is no command: {lines[k]!r}"
        command = [lines[k][2:]]
        while command[-1].endswith("\\"):
            k += 1
            command.append(lines[k])
        k += 1
        shown = []
        while k < len(lines) and not lines[k].startswith("$ "):
            shown.append(lines[k])
            k += 1
        sessions.append(("\n".join(command), shown))
    return sessions


def _matches(shown: list[str], printed: list[str]) -> bool:
    """``printed`` is ``shown``, each ``...`` line standing for any number of lines."""
    if not shown:
        return not printed
    if shown[0] == "...":
        return any(_matches(shown[1:], printed[k:]) for k in range(len(printed) + 1))
    return bool(printed) and _line(shown[0], printed[0]) and _matches(shown[1:], printed[1:])


def _line(shown: str, printed: str) -> bool:
    """One line as the page shows it: ``...`` within it stands for any text (a size, a time)."""
    if "..." not in shown:
        return shown == printed
    return re.fullmatch(".*".join(re.escape(part) for part in shown.split("...")), printed) is not None


def _console(example: Example, folder: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env["COLUMNS"] = "100"
    for command, shown in _sessions(example.code):
        done = subprocess.run(
            ["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True, check=False
        )
        printed = [line.rstrip() for line in (done.stdout + done.stderr).rstrip("\n").split("\n")]
        printed = [] if printed == [""] else printed
        assert _matches([line.rstrip() for line in shown], printed), (
            f"{example.name}: `{command}` printed\n" + "\n".join(printed)
        )


@pytest.mark.parametrize("example", RUNNABLE, ids=lambda e: e.name)
def test_example(example: Example, folder: Path) -> None:
    if example.kind == "pycon":
        _doctest(example)
    elif example.kind == "console":
        _console(example, folder)
    else:
        exec(compile(example.code, example.name, "exec"), {})


def test_readme_examples_are_checked_or_say_why_not() -> None:
    """README.md's examples print what the page shows (pycon, console) or are marked with a
    reason; none is merely shown. The documentation's counts are reported by the closing notes."""
    readme = [e for e in ALL if e.page == "README.md"]
    checked = [e for e in readme if e.kind in ("pycon", "console") and e.skipped is None]
    assert len(checked) >= 5
    assert not [e.name for e in readme if e.kind in ("bash", "sh", "python") and e.skipped is None]
    assert all(e.skipped.strip() for e in readme if e.skipped is not None)
