"""sacrebleu 2.6.0's own test suite passes with ``import sacrebleu`` meaning ``understudy.sacrebleu``.

The suite comes from the published sdist (``scripts/sacrebleu_suite.py fetch``, run by
``scripts/test.sh``); the tests that need the network or sacrebleu's private internals
are left out, each with its reason in ``EXCLUDED``.
"""

from __future__ import annotations

import importlib.util
import re

from tests.support.twin_sets import REPO

_spec = importlib.util.spec_from_file_location("sacrebleu_suite", REPO / "scripts" / "sacrebleu_suite.py")
assert _spec is not None and _spec.loader is not None
suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite)


def test_sacrebleus_suite_passes_through_the_compat_package() -> None:
    result = suite.run(["-v", "-v"])  # -q is in the runner's own arguments
    output = result.stdout + result.stderr
    assert "sacrebleu is understudy.sacrebleu, sacrebleu.metrics is understudy.sacrebleu.metrics" in output
    summary = re.search(r"(\d+) passed, (\d+) deselected", output)
    assert result.returncode == 0 and summary is not None, output[-3000:]
    # Every test of the suite but the excluded ones: BLEU, chrF, TER, sentence BLEU,
    # the Tercom tokenizer, significance against Moses and multeval, the test-set API.
    assert summary.groups() == ("133", "6"), output[-3000:]
    for module in [
        "test_bleu",
        "test_chrf",
        "test_ter",
        "test_sentence_bleu",
        "test_significance",
        "test_api",
    ]:
        assert f"test/{module}.py::" in output
    assert "test_dataset.py" not in output
