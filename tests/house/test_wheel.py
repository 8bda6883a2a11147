"""The wheel installs and scores without Rust: built from this tree (abi3, this platform), its
platform tag read by auditwheel, installed into a fresh virtual environment, and README.md's
scoring session run from it with no Rust toolchain on PATH, its output the page's.

The build reuses the Rust artifacts of the editable install (the same profile), so it costs
the packaging and the virtual environment's installs, not a compilation.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.house.test_docs_examples import ALL, _matches, _sessions, run_session
from tests.support.paths import REPO

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="CI builds the Linux x86_64 wheel")


def _run(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return done  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            str(REPO),
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
        ]
    )
    (found,) = out.glob("understudy_mt-*.whl")
    return found


def test_the_wheel_is_abi3_and_manylinux(wheel: Path) -> None:
    assert "-cp311-abi3-" in wheel.name or "-abi3-" in wheel.name
    # auditwheel reads the libraries the core links against: a manylinux tag fits them (the
    # in-place build is tagged linux_x86_64; the release workflow's maturin-action tags it).
    shown = " ".join(_run([sys.executable, "-m", "auditwheel", "show", str(wheel)]).stdout.split())
    assert 'is consistent with the following platform tag: "manylinux_' in shown
    names = zipfile.ZipFile(wheel).namelist()
    # The data the package reads: the report's and the site's templates, the judges' prompts.
    assert {
        "understudy/report/templates/report.html.j2",
        "understudy/site/templates/testset.html.j2",
        "understudy/site/templates/site.js",
        "understudy/judges/templates/gemba-mqm.json",
    } <= set(names)
    assert "understudy/_core.abi3.so" in names and not [
        n for n in names if n.startswith(("tests/", "crates/"))
    ]


def test_it_scores_readmes_sample_without_rust(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)])
    _run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)])
    (tmp_path / "data").symlink_to(REPO / "data")
    path = os.pathsep.join([str(venv / "bin"), "/usr/bin", "/bin"])
    assert shutil.which("cargo", path=path) is None and shutil.which("rustc", path=path) is None
    session = next(e for e in ALL if e.page == "README.md" and e.kind == "console" and "chrf ter" in e.code)
    sessions = _sessions(session.code)
    env = {"PATH": path, "HOME": str(tmp_path)}
    for (command, shown), (status, printed) in zip(
        sessions, run_session([c for c, _ in sessions], tmp_path, env), strict=True
    ):
        assert status == 0 and _matches([line.rstrip() for line in shown], printed), (
            f"`{command}` exited {status}:\n" + "\n".join(printed)
        )
