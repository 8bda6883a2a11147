"""Every example of README.md and the documentation (docs/*.md) runs, each on its own, from a
folder laid out as a clone's top folder (``data/``, the bundled sample, beside a few files named
as the pages name a reader's own: ``ref.de``, ``hyp.de``, ...; ``../shared`` beside it), and
what it prints is the page's; afterwards that folder is as it was (``git status`` is clean):
examples write into temporary folders, never into the tree.

- ``pycon`` blocks are doctests (a fresh namespace each; ``...`` elides, as doctest's ELLIPSIS);
- ``console`` blocks are one shell session each (variables and ``cd`` carry from one ``$ ``
  command to the next, as in a terminal): each command (``\\``-continued lines included) runs
  with stderr joined to stdout, must exit 0, and its output must be the lines below it, where a
  line ``...`` stands for any number of lines and ``...`` within a line for any text;
- ``bash`` blocks are lists of commands without their output (a cheat sheet): one session, and
  each command must exit 0;
- a block after ``<!-- not run ...: REASON -->`` is skipped for its reason, and counted;
- a block that runs a neural metric (any the registry declares) downloads its checkpoints,
  as written, from a stand-in hub on 127.0.0.1 serving tiny checkpoints under the published names
  (``tests/support/docs_hub.py``); its pycon runs in a process of its own, since huggingface-hub
  reads ``HF_ENDPOINT`` when imported.

No example is merely shown: a ``python`` block (run, output unchecked) fails the last test.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.paths import REPO

if TYPE_CHECKING:
    from tests.support.fake_hub import Hub

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(
    r"(<!-- not run[^>]*?(?::\s*(?P<reason>[^>]*?))?\s*-->\n)?```(?P<kind>[\w-]*)\n(?P<code>.*?)```", re.S
)
RUN = ("pycon", "console", "bash")


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

    @property
    def neural(self) -> bool:
        """Whether it runs a neural metric (and so downloads checkpoints)."""
        return NEURAL.search(self.code) is not None


def _neural_pattern() -> re.Pattern[str]:
    """Commands and calls of the neural metrics, as the registry declares them (``-m NAME``, a
    class called) and ``fetch-model``."""
    from understudy.registry import computed_metrics
    from understudy.registry.declarations import NeuralConfig

    neural = [d for d in computed_metrics().values() if issubclass(d.config, NeuralConfig)]
    names = "|".join(re.escape(d.name) for d in neural)
    classes = "|".join(d.make.rpartition(":")[2] for d in neural if isinstance(d.make, str))
    return re.compile(rf"-m [^\n]*\b({names})\b|\b({classes})\(|load\(\"({names})\"|fetch-model")


NEURAL = _neural_pattern()


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


READERS_FILES = {
    "ref.de": "newstest2017.ref.en-de.de",
    "hyp.de": "newstest2017.uedin-nmt.4722.en-de.de",
    "sysA.de": "newstest2017.uedin-nmt.4722.en-de.de",
    "sysB.de": "newstest2017.online-A.0.en-de.de",
    "base.de": "newstest2017.uedin-nmt.4722.en-de.de",
    "a.de": "newstest2017.online-A.0.en-de.de",
    "b.de": "newstest2017.PROMT-Rule-based.4735.en-de.de",
    "sysC.de": "newstest2017.PROMT-Rule-based.4735.en-de.de",
    # A stand-in for the English source, which the sample does not bundle: as many lines.
    "src.en": "newstest2017.ref.en-de.de",
}
"""The files the cheat sheets name as a reader's own, made from the bundled sample."""


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True)
    return done.stdout


@pytest.fixture(scope="session")
def neural_hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Hub, Path]]:
    """The stand-in hub, and wmt22-comet-da's stand-in as a local folder."""
    pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")
    from tests.support.docs_hub import docs_hub, local_comet

    root = tmp_path_factory.mktemp("docs-hub")
    hub = docs_hub(root / "hub")
    yield hub, local_comet(root / "wmt22-comet-da")
    hub.close()


@pytest.fixture(scope="module")
def neural_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hub cache and the score cache that the neural examples share."""
    return tmp_path_factory.mktemp("neural-home")


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[Path]:
    """A clone's top folder in miniature, committed, so that ``git status`` sees what an example leaves."""
    top = tmp_path / "top"
    (top / "data").mkdir(parents=True)
    example: Example = request.node.callspec.params["example"]
    if example.neural:
        hub, comet = request.getfixturevalue("neural_hub")
        (top / "wmt22-comet-da").symlink_to(comet)  # --comet-model ./wmt22-comet-da
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        monkeypatch.setenv("HF_HOME", str(tmp_path / "env" / "hf_home"))
        monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    (top / "data" / "wmt17-en-de").symlink_to(REPO / "data" / "wmt17-en-de")
    for shared in ("scripts", "examples"):  # scripts/synthetic_comet.py, examples/dask_shards.py
        (top / shared).symlink_to(REPO / shared)
    if (REPO.parent / "shared").exists():
        (tmp_path / "shared").symlink_to(REPO.parent / "shared")
    sample = REPO / "data" / "wmt17-en-de"
    for name, source in READERS_FILES.items():
        (top / name).write_bytes((sample / source).read_bytes())
    lines = (sample / READERS_FILES["hyp.de"]).read_text(encoding="utf-8").splitlines(keepends=True)
    (top / "samples.de").write_text("".join(lines[:40]), encoding="utf-8")
    second = (sample / READERS_FILES["a.de"]).read_text(encoding="utf-8").splitlines()
    first = (sample / READERS_FILES["ref.de"]).read_text(encoding="utf-8").splitlines()
    (top / "refs.tsv").write_text(
        "".join(f"{x}\t{y}\n" for x, y in zip(first, second, strict=True)), encoding="utf-8"
    )
    _git(top, "init", "-q")
    _git(top, "add", "-A")
    _git(top, "-c", "user.name=docs", "-c", "user.email=docs@localhost", "commit", "-q", "-m", "top")
    monkeypatch.chdir(top)
    for name in ("UNDERSTUDY_CACHE", "UNDERSTUDY_LEDGER", "MPLCONFIGDIR"):
        monkeypatch.setenv(name, str(tmp_path / "env" / name.lower()))
    if example.neural:
        # One download of each checkpoint and one warmed score cache for all the neural examples
        # (of a test worker): what they share is computed once, as a user's runs share it.
        shared = request.getfixturevalue("neural_home")
        monkeypatch.setenv("HF_HOME", str(shared / "hf_home"))
        monkeypatch.setenv("UNDERSTUDY_CACHE", str(shared / "understudy_cache"))
    # What the examples' mktemp -d and tempfile.mkdtemp make goes with the test's own folder.
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    before = _git(REPO, "status", "--porcelain", "--", "data", "scripts", "examples")
    yield top
    assert _git(top, "status", "--porcelain", "--untracked-files=all") == "", (
        "the example wrote into the tree"
    )
    assert _git(REPO, "status", "--porcelain", "--", "data", "scripts", "examples") == before


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


MARK = "\x1eunderstudy-docs-command-done"


def run_session(commands: list[str], cwd: Path, env: dict[str, str]) -> list[tuple[int, list[str]]]:
    """Each command's exit status and printed lines, all run in one bash session, as typed."""
    script = ["exec 2>&1"]
    for command in commands:
        script += [command, f'printf "\\n{MARK} %d\\n" $?']
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    results: list[tuple[int, list[str]]] = []
    chunk: list[str] = []
    for line in done.stdout.split("\n"):
        if line.startswith(MARK):
            while chunk and not chunk[-1].strip():
                chunk.pop()  # the newline the marker adds, and trailing blank lines
            results.append((int(line.split()[-1]), [text.rstrip() for text in chunk]))
            chunk = []
        else:
            chunk.append(line)
    assert len(results) == len(commands), f"the session stopped early:\n{done.stdout}"
    return results


def _environment() -> dict[str, str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    env["COLUMNS"] = "100"
    return env


def _console(example: Example, folder: Path) -> None:
    sessions = _sessions(example.code)
    results = run_session([command for command, _ in sessions], folder, _environment())
    for (command, shown), (status, printed) in zip(sessions, results, strict=True):
        assert status == 0 and _matches([line.rstrip() for line in shown], printed), (
            f"{example.name}: `{command}` exited {status} and printed\n" + "\n".join(printed)
        )


def _commands(code: str) -> list[str]:
    """A bash block's commands: its lines, ``\\``-continued ones joined, comments left to bash."""
    commands: list[str] = []
    for line in code.rstrip("\n").split("\n"):
        if commands and commands[-1].endswith("\\"):
            commands[-1] += "\n" + line
        elif line.strip() and not line.lstrip().startswith("#"):
            commands.append(line)
    return commands


def _bash(example: Example, folder: Path) -> None:
    commands = _commands(example.code)
    for command, (status, printed) in zip(
        commands, run_session(commands, folder, _environment()), strict=True
    ):
        assert status == 0, f"{example.name}: `{command}` exited {status}:\n" + "\n".join(printed)


def _doctest_in_a_process(example: Example, folder: Path) -> None:
    """A pycon example run as doctest runs it, in a fresh interpreter with this environment."""
    program = (
        "import doctest, sys\n"
        "parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)\n"
        "test = parser.get_doctest(sys.stdin.read(), {}, sys.argv[1], sys.argv[1], 0)\n"
        "runner.run(test, out=sys.stdout.write)\n"
        "sys.exit(1 if runner.failures else 0)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, example.name],
        input=example.code,
        cwd=folder,
        env=_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _grouped(example: Example) -> object:
    """An example as a test parameter; the neural ones on one test worker (``--dist loadgroup``,
    as scripts/test.sh runs pytest), so that they share one download and one warmed score cache
    as a user's runs share them: README's neural commands and docs/neural.md's score the same
    systems."""
    return (
        pytest.param(example, marks=pytest.mark.xdist_group("neural-examples")) if example.neural else example
    )


@pytest.mark.parametrize("example", [_grouped(e) for e in RUNNABLE], ids=lambda e: e.name)
def test_example(example: Example, folder: Path) -> None:
    if example.kind == "pycon" and example.neural:
        _doctest_in_a_process(example, folder)
    elif example.kind == "pycon":
        _doctest(example)
    elif example.kind == "console":
        _console(example, folder)
    else:
        _bash(example, folder)


def test_every_example_is_checked_or_says_why_not() -> None:
    """Every Python and shell example prints what its page shows (pycon, console) or runs as a
    cheat sheet (bash, each command exiting 0), or is marked not run with its reason."""
    shown_only = [e.name for e in ALL if e.kind in ("python", "sh", "shell", "") and e.skipped is None]
    assert not shown_only, f"examples neither checked nor marked: {shown_only}"
    assert all(e.skipped and e.skipped.strip() for e in ALL if e.skipped is not None)
    readme = [e for e in ALL if e.page == "README.md"]
    assert len([e for e in readme if e.kind in ("pycon", "console") and e.skipped is None]) >= 5
    assert not [e.name for e in readme if e.kind == "bash" and e.skipped is None]
