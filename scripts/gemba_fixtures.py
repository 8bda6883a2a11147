"""GEMBA-MQM's own scores of judge answers, for tests/judges/test_gemba_mqm.py.

GEMBA is not on PyPI and its code is CC BY-SA: it is run here as a black box, from a checkout
outside this repository, never copied. The answers are generated (seeded): the answer format of
GEMBA-MQM's prompt (``Critical:`` / ``Major:`` / ``Minor:`` sections, one
``category/subcategory - "span"`` a line, ``no-error``) with what judges write around it: text
before the first section, headers in other cases or with markdown, blank and CRLF lines, more
than five errors, ``non-translation`` lines, "no error" inside a line, letters that change
length when lowercased, and GEMBA's JSON answer form (``{"improved translation": ...}``), whole
and broken.

    git clone https://github.com/MicrosoftTranslator/GEMBA /tmp/GEMBA   # a7a7eff
    python scripts/gemba_fixtures.py /tmp/GEMBA > tests/fixtures/gemba_mqm_answers.json

GEMBA's module imports ``ipdb`` at the top without using it for parsing; a stand-in module is
put in its place so that nothing else needs installing.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

CATEGORIES = [
    "accuracy/mistranslation",
    "accuracy/omission",
    "accuracy/addition",
    "fluency/grammar",
    "fluency/punctuation",
    "fluency/spelling",
    "style/awkward",
    "terminology/inappropriate for context",
    "locale convention/date format",
    "other",
]
HEADERS = {
    "critical": ["Critical:", "critical:", "CRITICAL:", "  Critical:  ", "**Critical:**", "Critical: "],
    "major": ["Major:", "major:", "MAJOR:", " Major:", "**Major:**"],
    "minor": ["Minor:", "minor:", "Minor:\t", "### Minor:"],
}
SPANS = ["Katze", "der Hund", "İstanbul", "STRASSE", "ǅemal", "sitzt", "", 'a "quoted" word', "no error here"]
COUNTS = {"critical": [0] * 7 + [1, 2], "major": [0, 0, 1, 1, 2, 3], "minor": [0, 1, 1, 2, 3, 6]}
"""How many errors a section holds, drawn from these (most answers have no critical error)."""
CHATTER = ["Here is my annotation:", "Sure!", "Errors:", "The translation has a minor issue."]


def _error_line(rng: random.Random) -> str:
    category = "non-translation!" if rng.random() < 0.03 else rng.choice(CATEGORIES)
    span = rng.choice(SPANS)
    line = f'{category} - "{span}"'
    return line.upper() if rng.random() < 0.1 else line


def classic_answer(rng: random.Random) -> str:
    """One answer in GEMBA-MQM's text format, with the variations judges produce."""
    lines: list[str] = []
    if rng.random() < 0.3:
        lines.append(rng.choice(CHATTER))
        if rng.random() < 0.5:
            lines.append(_error_line(rng))  # before any section: GEMBA ignores it
    for level, counts in COUNTS.items():
        if rng.random() < 0.15:
            continue
        lines.append(rng.choice(HEADERS[level]))
        count = rng.choice(counts)
        if count == 0:
            lines.append(rng.choice(["no-error", "No-error", "no error", ""]))
        lines.extend(_error_line(rng) for _ in range(count))
        if rng.random() < 0.1:
            lines.append("")
    newline = "\r\n" if rng.random() < 0.15 else "\n"
    return newline.join(lines)


def json_answer(rng: random.Random) -> str:
    """GEMBA's JSON answer form, whole or cut short."""
    errors = {
        level: [
            {"class": rng.choice(CATEGORIES), "span": rng.choice(SPANS)} for _ in range(rng.randint(0, 3))
        ]
        for level in ("critical", "major", "minor")
        if rng.random() < 0.8
    }
    text = json.dumps({"improved translation": "Die Katze sitzt.", "errors": errors})
    return text if rng.random() < 0.7 else text[: rng.randint(len(text) // 2, len(text) - 1)]


def answers(seed: int = 2023, n: int = 400) -> list[str]:
    """The generated answers, then a few written by hand."""
    rng = random.Random(seed)
    made = [json_answer(rng) if rng.random() < 0.15 else classic_answer(rng) for _ in range(n)]
    return [
        *made,
        "",
        "Critical:\nno-error\nMajor:\nno-error\nMinor:\nno-error",
        'Critical:\nnon-translation - "Die Katze"\nMajor:\naccuracy/mistranslation - "sitzt"',
        'Major:\nstyle/awkward - "x"\nMinor:\nnon-translation - "y"',
        "Minor:\n" + "\n".join(f'fluency/grammar - "{k}"' for k in range(40)),
        "Critical:\n" + "\n".join(f'accuracy/omission - "{k}"' for k in range(3)),
        'critical: accuracy/mistranslation - "on the header line"',
    ]


def load_gemba(checkout: Path) -> types.ModuleType:
    sys.modules.setdefault("ipdb", types.ModuleType("ipdb"))
    path = checkout / "gemba" / "gemba_mqm_utils.py"
    spec = importlib.util.spec_from_file_location("gemba_mqm_utils", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    checkout = Path(sys.argv[1])
    gemba = load_gemba(checkout)
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=checkout, capture_output=True, text=True, check=False
    ).stdout.strip()
    cases: list[dict[str, Any]] = []
    for answer in answers():
        try:
            with contextlib.redirect_stdout(io.StringIO()):  # GEMBA prints lines it finds odd
                score = gemba.parse_mqm_answer(answer)
                listed = gemba.parse_mqm_answer(answer, list_mqm_errors=True)
            errors = {level: [str(e) for e in found] for level, found in listed.items()}
        except Exception as err:  # what GEMBA raises is recorded: understudy must refuse it too
            score, errors = None, {"raises": type(err).__name__}
        cases.append({"answer": answer, "score": score, "errors": errors})
    record = {
        "made_by": "python scripts/gemba_fixtures.py GEMBA_CHECKOUT",
        "gemba_commit": commit,
        "python": sys.version.split()[0],
        "cases": cases,
    }
    head = json.dumps({k: v for k, v in record.items() if k != "cases"}, ensure_ascii=False)[:-1]
    rows = ",\n".join(json.dumps(case, ensure_ascii=False) for case in cases)
    sys.stdout.write(f'{head}, "cases": [\n{rows}\n]}}\n')  # one case a line
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
