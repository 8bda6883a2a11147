"""Run NLTK 3.10.4's own BLEU tests and its metric modules' doctest examples against ``understudy.nltk``.

    python scripts/nltk_suite.py fetch            # the sdist from PyPI into .cache/ (checked by SHA-256)
    python scripts/nltk_suite.py run              # through understudy.nltk
    python scripts/nltk_suite.py run --baseline   # the same files against NLTK itself

NLTK's tests are not copied into this repository: ``fetch`` downloads the published sdist,
``run`` unpacks ``nltk/test/unit/translate/test_{bleu,nist}.py``, ``nltk/test/bleu.doctest`` and
the docstrings of ``nltk/translate/{bleu,gleu,chrf,nist}_score.py`` into a temporary directory
beside a conftest that makes ``nltk.translate.bleu_score`` (and ``gleu_score``, ``chrf_score``,
``nist_score``, and the names ``nltk.translate.bleu``, ``gleu``, ``chrf``, ``nist``) understudy's,
the rest of NLTK staying NLTK (``nltk.data``, ``nltk.util``). Each module docstring's examples
run with the names of understudy's module of that name. What is not run is listed, with the
reason, in ``EXCLUDED``.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import published_sdist

REPO = Path(__file__).resolve().parent.parent
VERSION = "3.10.4"
SDIST = REPO / ".cache" / f"nltk-{VERSION}.tar.gz"
SDIST_SHA256 = "44679f4e9220abfd496d2c8cdb22f8425ccbe557604f9aa5cacb1c44003dabc1"
"""The SHA-256 of nltk-3.10.4.tar.gz as downloaded from PyPI."""

MODULES = ("bleu_score", "gleu_score", "chrf_score", "nist_score")
"""The ``nltk.translate`` modules understudy.nltk provides."""

FILES = (
    "nltk/test/unit/translate/test_bleu.py",
    "nltk/test/unit/translate/test_nist.py",
    "nltk/test/bleu.doctest",
    *(f"nltk/translate/{module}.py" for module in MODULES),
)

EXCLUDED = {
    "test_bleu.py::TestBLEUvsMteval13a::test_corpus_bleu": "reads models/wmt15_eval from nltk_data, which "
    "NLTK downloads from GitHub at run time (unreachable here, and absent for NLTK itself)",
    "test_nist.py::TestNIST::test_sentence_nist": "reads models/wmt15_eval from nltk_data, as above",
}
"""What is not run, and why."""

CONFTEST = '''\
"""Makes nltk.translate's metric modules understudy.nltk's (unless UNDERSTUDY_NLTK_BASELINE is set)."""

import importlib
import os
import sys

import nltk.translate

MODULES = {modules!r}
BASELINE = bool(os.environ.get("UNDERSTUDY_NLTK_BASELINE"))

if not BASELINE:
    import understudy.nltk

    for name in MODULES:
        module = importlib.import_module("understudy.nltk." + name)
        sys.modules["nltk.translate." + name] = module
        setattr(nltk.translate, name, module)
    for name in ("bleu", "gleu", "chrf", "nist"):
        setattr(nltk.translate, name, getattr(understudy.nltk, name))


def pytest_report_header(config):
    return "nltk.translate.bleu_score is " + sys.modules["nltk.translate.bleu_score"].__name__
'''

DOCSTRINGS = '''\
"""The docstring examples of NLTK's metric modules, run with the names of the module under test."""

import doctest
import importlib
import sys
from pathlib import Path

import pytest

MODULES = {modules!r}
HERE = Path(__file__).parent


def examples():
    parser, found = doctest.DocTestParser(), []
    for name in MODULES:
        source = (HERE / "sources" / (name + ".py")).read_text(encoding="utf-8")
        # The real module's docstrings, found in NLTK's own source file.
        spec = importlib.util.spec_from_loader("nltk_source_" + name, loader=None)
        original = importlib.util.module_from_spec(spec)
        exec(compile(source, name + ".py", "exec"), original.__dict__)
        finder = doctest.DocTestFinder(exclude_empty=True)
        for test in finder.find(original, name):
            if test.examples:
                found.append(pytest.param(name, test, id=test.name))
    return found


@pytest.mark.parametrize(("module", "test"), examples())
def test_docstring(module, test):
    namespace = vars(sys.modules["nltk.translate." + module])
    test.globs = dict(namespace)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=lambda text: None)
    failures = runner.summarize(verbose=False).failed
    assert failures == 0, f"{{failures}} of {{len(test.examples)}} examples of {{test.name}} failed"
'''


def fetch() -> Path:
    """The verified sdist, downloaded with pip the first time."""
    return published_sdist.fetch(SDIST, SDIST_SHA256, f"nltk=={VERSION}")


def unpack(root: Path) -> None:
    """NLTK's test files into ``root``, its metric modules' sources into ``root/sources``."""
    (root / "sources").mkdir()
    with tarfile.open(SDIST) as tar:
        for name in FILES:
            member = tar.extractfile(f"nltk-{VERSION}/{name}")
            assert member is not None
            folder = root / "sources" if name.startswith("nltk/translate/") else root
            (folder / Path(name).name).write_bytes(member.read())
    (root / "conftest.py").write_text(CONFTEST.format(modules=MODULES), encoding="utf-8")
    (root / "test_docstrings.py").write_text(DOCSTRINGS.format(modules=MODULES), encoding="utf-8")


def run(extra: list[str] | None = None, baseline: bool = False) -> subprocess.CompletedProcess[str]:
    """NLTK's tests against understudy.nltk (or, with ``baseline``, NLTK); pytest's output is returned."""
    published_sdist.check(SDIST, SDIST_SHA256)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        unpack(root)
        deselect = [arg for test in EXCLUDED for arg in ("--deselect", test)]
        env = {"UNDERSTUDY_NLTK_BASELINE": "1" if baseline else ""}
        return published_sdist.pytest_in(
            root, ["--doctest-glob=*.doctest", *deselect, *(extra or []), "."], env
        )


def main() -> int:
    """``fetch`` or ``run`` (the default: fetch if needed, then run)."""
    command = sys.argv[1] if len(sys.argv) > 1 else "all"
    rest = [arg for arg in sys.argv[2:] if arg != "--baseline"]
    if command in ("fetch", "all"):
        fetch()
    if command in ("run", "all"):
        return published_sdist.report(run(rest, baseline="--baseline" in sys.argv), EXCLUDED)
    return 0


if __name__ == "__main__":
    sys.exit(main())
