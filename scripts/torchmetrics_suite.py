"""torchmetrics' own text tests, run against torchmetrics and then with its text metrics replaced by
understudy.torchmetrics' (README, "Switching from torchmetrics"; counts in issue 25's notes).

    python scripts/torchmetrics_suite.py TORCHMETRICS_TESTS_DIR

TORCHMETRICS_TESTS_DIR is the ``tests`` folder of a Lightning-AI/torchmetrics checkout, which is not
in its published packages, so CI cannot run this (``tests/torchmetrics/test_adapter.py`` holds the
cases, ported). Needs the torch extra and ``cachier`` (torchmetrics' test helpers use it). The DDP
tests run in torchmetrics' own process pool (``USE_PYTEST_POOL=1``); the flores101/flores200 cases
are left out, since their model is downloaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

FILES = ["bleu", "sacre_bleu", "chrf", "ter", "wer", "cer", "mer", "wil", "wip"]

# Loaded by every process of the run (sitecustomize), so the DDP pool's workers are patched too.
SHIM = """
import importlib
import torchmetrics, torchmetrics.functional, torchmetrics.functional.text, torchmetrics.text
from understudy.torchmetrics import text as us
from understudy.torchmetrics.functional import text as us_f

for module, name in {CLASSES!r}.items():
    for target in (importlib.import_module("torchmetrics.text." + module), torchmetrics.text, torchmetrics):
        if hasattr(target, name):
            setattr(target, name, getattr(us, name))
for module, name in {FUNCTIONS!r}.items():
    for target in (importlib.import_module("torchmetrics.functional.text." + module),
                   torchmetrics.functional.text, torchmetrics.functional):
        if hasattr(target, name):
            setattr(target, name, getattr(us_f, name))
"""
CLASSES = dict(
    zip(
        FILES,
        [
            "BLEUScore",
            "SacreBLEUScore",
            "CHRFScore",
            "TranslationEditRate",
            "WordErrorRate",
            "CharErrorRate",
            "MatchErrorRate",
            "WordInfoLost",
            "WordInfoPreserved",
        ],
        strict=True,
    )
)
FUNCTIONS = dict(
    zip(
        FILES,
        [
            "bleu_score",
            "sacre_bleu_score",
            "chrf_score",
            "translation_edit_rate",
            "word_error_rate",
            "char_error_rate",
            "match_error_rate",
            "word_information_lost",
            "word_information_preserved",
        ],
        strict=True,
    )
)


def run(tests: Path, shim: Path | None) -> str:
    """The last line of pytest's report on the text tests, with the shim's folder on the path or not."""
    env = os.environ | {"USE_PYTEST_POOL": "1"}
    if shim is not None:
        env["PYTHONPATH"] = str(shim)
    files = [f"unittests/text/test_{name}.py" for name in FILES]
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "-k",
        "not flores",
    ]
    done = subprocess.run([*command, *files], cwd=tests, env=env, capture_output=True, text=True, check=False)
    return done.stdout.strip().splitlines()[-1]


def main() -> int:
    if len(sys.argv) != 2 or not (Path(sys.argv[1]) / "unittests" / "text").is_dir():
        print(__doc__, file=sys.stderr)
        return 2
    tests = Path(sys.argv[1]).resolve()
    print("torchmetrics:", run(tests, None))
    with tempfile.TemporaryDirectory() as shim:
        code = SHIM.replace("{CLASSES!r}", repr(CLASSES)).replace("{FUNCTIONS!r}", repr(FUNCTIONS))
        (Path(shim) / "sitecustomize.py").write_text(code, encoding="utf-8")
        print("understudy.torchmetrics:", run(tests, Path(shim)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
