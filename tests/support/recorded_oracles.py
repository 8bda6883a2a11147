"""Inputs of the oracle comparisons too slow to run live in every test run, shared by the
tests and by scripts/sacrebleu_slow_fixtures.py, which records sacrebleu's answers for them
in tests/fixtures/sacrebleu_slow.json."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
from understudy import CHRFConfig, TERConfig
from understudy.config import MetricConfig

FIXTURE = Path(__file__).parents[1] / "fixtures" / "sacrebleu_slow.json"

PAIRED_CONFIGS: list[MetricConfig] = [
    CHRFConfig(),
    CHRFConfig(word_order=2),
    CHRFConfig(eps_smoothing=True, beta=3),
    TERConfig(),
]
"""The configurations of the paired-test comparisons (by ``str``, their fixture keys)."""
PAIRED_TESTS = [("bs", 1000), ("ar", 1000)]
PAIRED_SEED = 12345


def paired_data(
    config: MetricConfig, ref: list[str], systems: dict[str, list[str]]
) -> tuple[list[str], list[str], list[list[str]]]:
    """The reference, the systems' names and their lines a paired comparison runs on."""
    # TER in sacrebleu takes 5 s a system: a fifth of the segments, six systems.
    size, count = (600, 6) if isinstance(config, TERConfig) else (3004, 16)
    names = ["online-B", *sorted(set(systems) - {"online-B"})][:count]
    return ref[:size], names, [systems[n][:size] for n in names]


def ter_beam_cases() -> tuple[list[str], list[str]]:
    """Hypotheses and references that widen TER's beam and hit its candidate cap: a one-word
    hypothesis against 120 words (length ratio over 50), long sentences over four words."""
    rng = np.random.default_rng(3)
    cases = [("a", " ".join(["b a c"] * 40)), (" ".join(["b a c"] * 40), "a c")]
    for _ in range(10):
        n, m = rng.integers(40, 120, size=2)
        cases.append((" ".join(rng.choice(list("abcd"), n)), " ".join(rng.choice(list("abcd"), m))))
    return [h for h, _ in cases], [r for _, r in cases]


TER_BEAM_PAIRWISE = 3
"""The hypotheses and references crossed in the recorded all-pairs matrix."""


def recorded() -> dict[str, Any]:
    """The fixture, as scripts/sacrebleu_slow_fixtures.py wrote it."""
    record: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return record


def lines_sha256(lines: list[str]) -> str:
    """The SHA-256 of lines as read (joined by newlines): a recorded answer is for these lines."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
