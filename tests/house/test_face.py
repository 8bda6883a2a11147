"""The package's face: each public name declared once (the errors it imports, the lazy table),
the type checkers' stub written from it, and every name found where the table says."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import understudy

ROOT = Path(__file__).resolve().parents[2]


def test_the_stub_is_what_the_face_says() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "face_stub.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_every_public_name_is_found_in_its_module() -> None:
    for name in understudy.__all__:
        home = understudy._LAZY.get(name, "understudy.errors")
        assert getattr(understudy, name) is getattr(importlib.import_module(home), name), name


def test_every_computed_metric_class_is_in_the_face() -> None:
    from understudy.registry import computed_metrics

    for declared in computed_metrics().values():
        if isinstance(declared.make, str):
            module, _, name = declared.make.partition(":")
            assert name in understudy.__all__, name
            assert getattr(understudy, name) is getattr(importlib.import_module(module), name)
