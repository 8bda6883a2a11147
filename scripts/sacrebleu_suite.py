"""Run sacrebleu 2.6.0's own test suite against ``understudy.sacrebleu``.

    python scripts/sacrebleu_suite.py fetch   # the sdist from PyPI into .cache/ (checked by SHA-256)
    python scripts/sacrebleu_suite.py run     # its tests; `import sacrebleu` means understudy.sacrebleu

sacrebleu's tests are not copied into this repository: ``fetch`` downloads the
published sdist (PyPI is reachable wherever the package installs), ``run`` unpacks
its ``test/`` folder into a temporary directory beside a conftest that makes every
``sacrebleu`` module name an alias of the ``understudy.sacrebleu`` module of the same
name, and runs pytest there. Tests that need the network or sacrebleu's private
internals are deselected, each with its reason (``EXCLUDED``).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import published_sdist

REPO = Path(__file__).resolve().parent.parent
SDIST = REPO / ".cache" / "sacrebleu-2.6.0.tar.gz"
SDIST_SHA256 = "91499b6cd46138d95154fff1e863c2f9be57e82f0c719d8dd718d0006cf6c566"
"""The SHA-256 of sacrebleu-2.6.0.tar.gz as published on PyPI."""

EXCLUDED = {
    "test/test_dataset.py": "downloads test sets from the network, and reads sacrebleu's private "
    "Dataset internals (_rawdir, _outdir, _get_tarball_filename, process_to_text, "
    "_get_langpair_allowed_refs)",
    "test/test_api.py::test_api_get_source": "downloads wmt19, mtnt1.1 and wmt19/google from the network",
    "test/test_api.py::test_api_get_reference": "downloads wmt19, mtnt1.1 and wmt19/google from the network",
}
"""What is not run, and why."""

CONFTEST = '''\
"""Makes `import sacrebleu` (and every submodule) import understudy.sacrebleu instead."""

import importlib
import pkgutil
import sys

import understudy.sacrebleu as compat

sys.modules["sacrebleu"] = compat
for info in pkgutil.walk_packages(compat.__path__, "understudy.sacrebleu."):
    module = importlib.import_module(info.name)
    sys.modules["sacrebleu." + info.name.removeprefix("understudy.sacrebleu.")] = module


def pytest_report_header(config):
    import sacrebleu.metrics

    return f"sacrebleu is {sacrebleu.__name__}, sacrebleu.metrics is {sacrebleu.metrics.__name__}"
'''


def fetch() -> Path:
    """The verified sdist, downloaded with pip the first time."""
    return published_sdist.fetch(SDIST, SDIST_SHA256, "sacrebleu==2.6.0")


def run(extra: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """sacrebleu's tests against understudy.sacrebleu; pytest's output is returned, not printed."""
    published_sdist.check(SDIST, SDIST_SHA256)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "test").mkdir()
        with tarfile.open(SDIST) as tar:
            for member in tar.getmembers():
                if not (member.isfile() and member.name.startswith("sacrebleu-2.6.0/test/")):
                    continue
                source = tar.extractfile(member)
                assert source is not None
                with source, (root / "test" / Path(member.name).name).open("wb") as out:
                    shutil.copyfileobj(source, out)
        (root / "test" / "conftest.py").write_text(CONFTEST, encoding="utf-8")
        deselect = [arg for test in EXCLUDED if "::" in test for arg in ("--deselect", test)]
        ignore = [f"--ignore={test}" for test in EXCLUDED if "::" not in test]
        return published_sdist.pytest_in(root, [*deselect, *ignore, *(extra or []), "test"])


def main() -> int:
    """``fetch`` or ``run`` (the default: fetch if needed, then run)."""
    command = sys.argv[1] if len(sys.argv) > 1 else "all"
    if command in ("fetch", "all"):
        fetch()
    if command in ("run", "all"):
        return published_sdist.report(run(sys.argv[2:]), EXCLUDED)
    return 0


if __name__ == "__main__":
    sys.exit(main())
