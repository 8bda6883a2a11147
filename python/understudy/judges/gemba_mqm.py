"""GEMBA-MQM's answers, read and scored as GEMBA's parser (``parse_mqm_answer`` in
MicrosoftTranslator/GEMBA's ``gemba/gemba_mqm_utils.py``) reads and scores them.

The judge answers in sections, ``Critical:``, ``Major:`` and ``Minor:``, one error a line
(``category/subcategory - "span"``), ``no-error`` where a section has none. The rule, kept
under this name even where it is odd, so that scores compare with published ones:

- the answer is lowercased and cut at ``\\n``; each line is stripped of surrounding space;
- a line that is, whole, ``critical:``, ``major:`` or ``minor:`` opens that section; a line
  with ``no-error`` or ``no error`` anywhere, or empty, is skipped; a line before any section
  is ignored;
- a line mentioning ``non-translation`` is a critical error, whatever its section;
- the first five errors count, critical ones first, then major, then minor: 25, 5 and 1;
  the total is capped at 25 and the score is its negative (0 best, -25 worst).

GEMBA's other answer form, a JSON object starting ``{"improved translation"``, is read as
GEMBA reads it, a cut-short one included. :meth:`MQMAnswer.penalty_uncapped` is the variant
without the cap and the five-error limit, under its own name.

>>> answer = parse_gemba_mqm('Critical:\\nno-error\\nMajor:\\nstyle/awkward - "x"\\nMinor:\\nother - "y"')
>>> answer.errors["major"], answer.penalty()
(('style/awkward - "x"',), 6)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from understudy.errors import JudgeAnswerError
from understudy.judges.spans import ErrorSpan, located

SEVERITIES = ("critical", "major", "minor")
"""GEMBA-MQM's severities, in the order its errors are counted."""

WEIGHTS = {"critical": 25, "major": 5, "minor": 1}
"""Each severity's weight in the penalty."""

COUNTED = 5
"""How many errors count towards the penalty (the first ones, by severity)."""

CAP = 25
"""The largest penalty."""

JSON_START = '{"improved translation"'
"""How an answer in GEMBA's JSON form starts (matched before lowercasing, as GEMBA does)."""


_ERROR_LINE = re.compile(r'^(?P<category>[^"]*?)\s*-\s*"(?P<span>.*)"\s*$')


def split_error(line: str) -> tuple[str, str]:
    """An error line's category (lowercased) and quoted span; a line of another shape is all
    category, with no span.

    >>> split_error('Fluency/Grammar - "the the"')
    ('fluency/grammar', 'the the')
    >>> split_error("other")
    ('other', '')
    """
    match = _ERROR_LINE.match(line.strip())
    if match is None:
        return line.strip().lower(), ""
    return match["category"].strip().lower(), match["span"]


@dataclass(frozen=True)
class MQMAnswer:
    """The errors of one answer by severity: the lowercased lines (or, from a JSON answer, the
    error objects) in the order the judge gave them.

    >>> MQMAnswer({"critical": (), "major": ("a",) * 3, "minor": ("b",) * 4}).penalty()
    17
    """

    errors: dict[str, tuple[Any, ...]]
    written: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """The same errors' lines as the judge wrote them (before lowercasing), for their spans."""

    def spans(self, hypothesis: str) -> list[ErrorSpan]:
        """Each error's category and quoted span, found in ``hypothesis`` (case-insensitively
        where not as written); a span not in it has no offsets, and is kept.

        >>> answer = parse_gemba_mqm('Major:\\nAccuracy/Mistranslation - "sitzt"')
        >>> answer.spans("Die Katze sitzt.")
        [ErrorSpan(severity='major', category='accuracy/mistranslation', text='sitzt', start=10, end=15)]
        """
        found = []
        for level in SEVERITIES:
            for line in self.written.get(level, ()):
                found.append(located(level, *split_error(line), hypothesis))
        return found

    def counted(self) -> list[str]:
        """The severities of the errors that count, in counting order (five at the most)."""
        order = [level for level in SEVERITIES for _ in self.errors.get(level, ())]
        return order[:COUNTED]

    def penalty(self) -> int:
        """GEMBA-MQM's penalty: the first five errors weighted, capped at 25.

        >>> MQMAnswer({"minor": ("x",) * 9}).penalty()
        5
        """
        return min(CAP, sum(WEIGHTS[level] for level in self.counted()))

    def penalty_uncapped(self) -> int:
        """Every error weighted, with no cap (``gemba-mqm-uncapped``: not GEMBA's rule).

        >>> MQMAnswer({"critical": ("x",), "minor": ("y",) * 9}).penalty_uncapped()
        34
        """
        return sum(WEIGHTS[level] * len(self.errors.get(level, ())) for level in SEVERITIES)


def parse_gemba_mqm(answer: str) -> MQMAnswer:
    """The errors of a GEMBA-MQM answer, as GEMBA's parser finds them; a JSON answer without
    its ``errors`` is a :class:`~understudy.errors.JudgeAnswerError`.

    >>> parse_gemba_mqm('Note first\\nMinor:\\nnon-translation - "x"').errors["critical"]
    ('non-translation - "x"',)
    """
    if answer.startswith(JSON_START):
        objects = _json_errors(answer)
        return MQMAnswer(objects, {level: tuple(map(_json_line, found)) for level, found in objects.items()})
    errors: dict[str, list[str]] = {level: [] for level in SEVERITIES}
    written: dict[str, list[str]] = {level: [] for level in SEVERITIES}
    level: str | None = None
    # Lowercasing keeps the line count: line k of the answer is line k of its lowercase.
    for raw, as_written in zip(answer.lower().split("\n"), answer.split("\n"), strict=True):
        line = raw.strip()
        if not line or "no-error" in line or "no error" in line:
            continue
        if line in ("critical:", "major:", "minor:"):
            level = line[:-1]
        elif level is not None:
            severity = "critical" if "non-translation" in line else level
            errors[severity].append(line)
            written[severity].append(as_written.strip())
    return MQMAnswer(
        {key: tuple(found) for key, found in errors.items()},
        {key: tuple(found) for key, found in written.items()},
    )


def gemba_mqm_score(answer: str) -> float:
    """GEMBA-MQM's segment score of an answer: minus its penalty (0 is best, -25 worst).

    >>> gemba_mqm_score("Critical:\\nno-error\\nMajor:\\nno-error\\nMinor:\\nno-error")
    0.0
    """
    return float(-parse_gemba_mqm(answer).penalty())


def _json_errors(answer: str) -> dict[str, tuple[Any, ...]]:
    """The errors of GEMBA's JSON answer form; a cut-short object is read as GEMBA reads it."""
    try:
        found: Any = json.loads(answer)
    except ValueError:
        found = {"errors": _broken_json_errors(answer)}
    if not isinstance(found, dict) or not isinstance(found.get("errors"), dict):
        raise JudgeAnswerError('a JSON answer without an "errors" object of severities')
    errors = found["errors"]
    return {level: tuple(errors[level]) for level in SEVERITIES if level in errors}


def _json_line(error: Any) -> str:
    """A JSON answer's error object as an error line (``class - "span"``)."""
    if not isinstance(error, dict):
        return str(error)
    span = error.get("span")
    return (
        f'{error.get("class", "other")} - "{span}"'
        if isinstance(span, str)
        else str(error.get("class", "other"))
    )


def _broken_json_errors(answer: str) -> dict[str, list[Any]]:
    """GEMBA's reading of a JSON answer that does not parse: the ``errors`` object if it parses
    once the last character is cut, else one error of class ``other`` for each word ``class``
    after a severity's name; none when the answer has no ``"errors": `` part."""
    if '"errors": ' not in answer or "improved translation" not in answer:
        return {}
    parts = answer.split('", "errors": ')
    if len(parts) != 2:
        return {}
    try:
        errors: Any = json.loads(parts[1][:-1])
        return dict(errors) if isinstance(errors, dict) else {}
    except ValueError:
        pass
    found: dict[str, list[Any]] = {}
    level = None
    for word in re.findall(r"\b\w+\b", parts[1][:-1].lower()):
        if word in SEVERITIES:
            level = word
        elif level is not None and word == "class":
            found.setdefault(level, []).append({"class": "other"})
    return found


__all__ = [
    "CAP",
    "COUNTED",
    "SEVERITIES",
    "WEIGHTS",
    "MQMAnswer",
    "gemba_mqm_score",
    "parse_gemba_mqm",
    "split_error",
]
