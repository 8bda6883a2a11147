"""Inputs of the oracle comparisons too slow to run live in every test run, shared by the
tests and by scripts/sacrebleu_slow_fixtures.py, which records sacrebleu's answers for them
in tests/fixtures/sacrebleu_slow.json."""

from __future__ import annotations

import atexit
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
from understudy import BLEUConfig, CHRFConfig, TERConfig
from understudy.config import MetricConfig

FIXTURE = Path(__file__).parents[1] / "fixtures" / "sacrebleu_slow.json"

PAIRED_CONFIGS: list[MetricConfig] = [
    BLEUConfig(),
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
    BLEUConfig(max_ngram_order=6),
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


UNICODE_LINES = {"zh": "a{}b", "intl": "a{}b 1{}2 {}"}
"""The line around each code point that sacrebleu's ``zh`` and ``intl`` tokenizers are swept with."""


def unicode_lines(tokenizer: str) -> list[str]:
    """One line a Unicode scalar value (all 1,112,064) for ``tokenizer``'s sweep."""
    import sys

    form = UNICODE_LINES[tokenizer]
    return [
        form.format(*[chr(c)] * form.count("{}"))
        for c in range(sys.maxunicode + 1)
        if not 0xD800 <= c < 0xE000
    ]


def lines_sha256(lines: list[str]) -> str:
    """The SHA-256 of lines as read (joined by newlines): a recorded answer is for these lines."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


# -- sacrebleu's TER in the parity harness, recorded and replayed ------------------------------

REPLAYS = FIXTURE.parent / "sacrebleu_ter_replays.json"
RECORD_COMMAND = (
    "UNDERSTUDY_RECORD_ORACLES=1 python -m pytest -p no:xdist tests/parity/test_metrics.py -k TERConfig"
)
"""How REPLAYS is made: the parity tests themselves, asking sacrebleu live and keeping its answers."""
RECORDING = os.environ.get("UNDERSTUDY_RECORD_ORACLES") == "1"
_recorded: dict[str, dict[str, Any]] = {}


def _key(*asked: Any) -> str:
    """A question to the oracle (its method and texts) as a short key."""
    return hashlib.sha256(json.dumps(asked, ensure_ascii=False).encode("utf-8")).hexdigest()[:32]


class _Recording:
    """sacrebleu's metric object, each answer the parity harness asks of it kept in ``answers``."""

    def __init__(self, metric: Any, answers: dict[str, Any]) -> None:
        self.metric, self.answers = metric, answers

    def _extract_corpus_statistics(self, hyps: Any, refs: Any) -> Any:
        stats = self.metric._extract_corpus_statistics(hyps, refs)
        self.answers[_key("rows", list(hyps), refs)] = [list(row) for row in stats]
        return stats

    def corpus_score(self, hyps: Any, refs: Any) -> Any:
        result = self.metric.corpus_score(hyps, refs)
        numbers = {"score": result.score, "num_edits": result.num_edits, "ref_length": result.ref_length}
        self.answers[_key("corpus", list(hyps), refs)] = numbers
        return result

    def sentence_score(self, hyp: str, refs: Any) -> Any:
        result = self.metric.sentence_score(hyp, refs)
        self.answers[_key("sentence", hyp, list(refs))] = {"score": result.score}
        return result


class _Replay:
    """The answers :class:`_Recording` kept, given back for the same questions."""

    def __init__(self, case: str, answers: dict[str, Any]) -> None:
        self.case, self.answers = case, answers

    def _answer(self, *asked: Any) -> Any:
        key = _key(*asked)
        assert key in self.answers, (
            f"{REPLAYS.name} has no answer to this question of {self.case}: {RECORD_COMMAND}"
        )
        return self.answers[key]

    def _extract_corpus_statistics(self, hyps: Any, refs: Any) -> Any:
        return self._answer("rows", list(hyps), refs)

    def corpus_score(self, hyps: Any, refs: Any) -> Any:
        return SimpleNamespace(**self._answer("corpus", list(hyps), refs))

    def sentence_score(self, hyp: str, refs: Any) -> Any:
        return SimpleNamespace(**self._answer("sentence", hyp, list(refs)))


def ter_oracle(case: str, config: MetricConfig, refs: Sequence[Sequence[str | None]]) -> Any | None:
    """sacrebleu's TER for the parity case ``case`` against ``refs``: its answers replayed from
    REPLAYS (its pure-Python TER takes seconds a pass over real data), or asked live and kept
    there with UNDERSTUDY_RECORD_ORACLES=1 (RECORD_COMMAND); ``None`` for the other families,
    which the harness asks live."""
    if not isinstance(config, TERConfig):
        return None
    name = f"{case}|{config}|{_key('refs', [list(stream) for stream in refs])}"
    if RECORDING:
        from tests.support.parity import theirs

        if not _recorded:
            atexit.register(_write_replays)
        return _Recording(theirs(config, refs), _recorded.setdefault(name, {}))
    replays: dict[str, Any] = json.loads(REPLAYS.read_text(encoding="utf-8"))["cases"]
    assert name in replays, f"{REPLAYS.name} lacks {name}: {RECORD_COMMAND}"
    return _Replay(name, replays[name])


def _write_replays() -> None:
    import sacrebleu
    from understudy.files.atomic import atomic_write

    record = {"command": RECORD_COMMAND, "oracle": f"sacrebleu {sacrebleu.__version__}", "cases": _recorded}
    with atomic_write(REPLAYS) as fh:
        fh.write((json.dumps(record, indent=0, sort_keys=True) + "\n").encode("utf-8"))
