"""Inputs of the oracle comparisons too slow to run live in every test run, shared by the
tests and by scripts/sacrebleu_slow_fixtures.py, which records sacrebleu's answers for them
in tests/fixtures/sacrebleu_slow.json."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
from understudy import BLEUConfig, CHRFConfig, TERConfig
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


SWEEP_CONFIGS: list[MetricConfig] = [
    *(
        BLEUConfig(tokenize=t, lowercase=lc)
        for lc in (False, True)
        for t in ("13a", "intl", "zh", "char", "none")
    ),
    CHRFConfig(),
    CHRFConfig(word_order=2),
]
"""The configurations swept over every WMT17 system, sacrebleu's rows and corpus score recorded
for each (by ``str``, their fixture keys); each test also asks sacrebleu live for one system."""


def rows_sha256(rows: np.ndarray) -> str:
    """The SHA-256 of statistics rows as int64, row by row: equal digests, equal rows."""
    return hashlib.sha256(np.ascontiguousarray(rows, dtype="<i8").tobytes()).hexdigest()


def swept(config: MetricConfig, systems: dict[str, list[str]], ref: list[str]) -> dict[str, Any]:
    """The recorded sweep of ``config``, refused when it was made on other lines than these."""
    record: dict[str, Any] = recorded()["sweeps"][str(config)]
    assert record["sha256"] == [lines_sha256(ref), *(lines_sha256(systems[n]) for n in record["systems"])], (
        f"{FIXTURE.name} was made on other lines: run scripts/sacrebleu_slow_fixtures.py"
    )
    assert record["systems"] == sorted(systems)
    return record


def lines_sha256(lines: list[str]) -> str:
    """The SHA-256 of lines as read (joined by newlines): a recorded answer is for these lines."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
