"""What the scripts that run another library's own test suite share: its published sdist, fetched
with pip once and checked by SHA-256, and pytest run in a folder of its unpacked tests."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

PIP_DOWNLOAD = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:"]


def sha256_of(path: Path) -> str:
    """The hex SHA-256 of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch(sdist: Path, sha256: str, requirement: str) -> Path:
    """The verified sdist at ``sdist``, downloaded with pip (``requirement``) the first time."""
    if not sdist.is_file() or sha256_of(sdist) != sha256:
        sdist.parent.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory(dir=sdist.parent) as folder:
            subprocess.run([*PIP_DOWNLOAD, "--dest", folder, requirement], check=True)
            got = Path(folder) / sdist.name
            if sha256_of(got) != sha256:
                raise SystemExit(f"{got.name}: SHA-256 is {sha256_of(got)}, expected {sha256}")
            got.replace(sdist)
    return sdist


def check(sdist: Path, sha256: str) -> None:
    """Refuse to run a suite from a missing or altered sdist."""
    if not sdist.is_file() or sha256_of(sdist) != sha256:
        raise SystemExit(f"{sdist} is missing or not the published sdist: run '{sys.argv[0]} fetch'")


def pytest_in(
    root: Path, args: list[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """pytest run in ``root`` with no configuration of this repository; its output is returned."""
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rf", "--rootdir", str(root)]
    return subprocess.run(
        [*argv, "-c", "/dev/null", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
    )


def report(result: subprocess.CompletedProcess[str], excluded: dict[str, str]) -> int:
    """Print a suite's output and what it left out (with why); its exit status."""
    print(result.stdout + result.stderr, end="")
    for test, why in excluded.items():
        print(f"not run: {test}: {why}")
    return result.returncode
