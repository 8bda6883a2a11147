"""ESA-style answers (error span annotation, as WMT24/25's human protocol): error spans with a
severity, then a score from 0 to 100, read from understudy's JSON answer format and checked.

The format the ESA prompt asks for, one JSON object (a judge may wrap it in a Markdown
``json`` fence; nothing else may surround it)::

    {"errors": [{"span": "sitzt", "severity": "major"}, ...], "score": 72}

- ``errors``: a list, empty when there are none; each error an object with ``span`` (the
  erroneous text, copied from the translation) and ``severity`` (``minor`` or ``major``), and
  optionally ``category`` (a string);
- ``score``: a number from 0 (no meaning preserved) to 100 (perfect), as ESA's annotators give
  it after marking the spans.

Anything else is a :class:`~understudy.errors.JudgeAnswerError` saying what was expected: the
answer is then a failure, counted and shown, never a score.

>>> answer = parse_esa('{"errors": [{"span": "sitzt", "severity": "major"}], "score": 72}')
>>> answer.score, [(s.severity, s.start) for s in answer.spans("Die Katze sitzt.")]
(72.0, [('major', 10)])
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from understudy.errors import JudgeAnswerError
from understudy.judges.spans import ErrorSpan, located

SEVERITIES = ("minor", "major")
"""ESA's severities."""

_FENCE = re.compile(r"\A\s*```(?:json)?\s*\n(?P<body>.*?)\n\s*```\s*\Z", re.S)


@dataclass(frozen=True)
class ESAError:
    """One error an ESA answer marks: its text, severity and (if given) category."""

    span: str
    severity: str
    category: str = ""


@dataclass(frozen=True)
class ESAAnswer:
    """An ESA answer: its score (0 to 100) and its errors, in the order given.

    >>> ESAAnswer(90.0, (ESAError("x", "minor"),)).errors[0].severity
    'minor'
    """

    score: float
    errors: tuple[ESAError, ...]

    def spans(self, hypothesis: str) -> list[ErrorSpan]:
        """The errors found in ``hypothesis`` (as written, else ignoring case); an error whose
        text is not there is kept without offsets.

        >>> answer = parse_esa('{"errors": [{"span": "Hund", "severity": "minor"}], "score": 50}')
        >>> answer.spans("Katze")[0].found
        False
        """
        return [located(e.severity, e.category, e.span, hypothesis) for e in self.errors]


def parse_esa(answer: str) -> ESAAnswer:
    """An ESA answer read and checked (see the module's format).

    >>> parse_esa('```json\\n{"errors": [], "score": 100}\\n```').score
    100.0
    >>> parse_esa('{"errors": [], "score": 101}')
    Traceback (most recent call last):
    ...
    understudy.errors.JudgeAnswerError: ESA answer: "score" must be a number from 0 to 100, not 101
    """
    fenced = _FENCE.match(answer)
    text = fenced["body"] if fenced else answer
    try:
        found = json.loads(text)
    except ValueError:
        raise JudgeAnswerError(
            f'ESA answer: expected one JSON object {{"errors": [...], "score": N}}, got {_shown(answer)}'
        ) from None
    if not isinstance(found, dict) or set(found) != {"errors", "score"}:
        keys = sorted(found) if isinstance(found, dict) else type(found).__name__
        raise JudgeAnswerError(f'ESA answer: expected the keys "errors" and "score", got {keys}')
    return ESAAnswer(_score(found["score"]), tuple(_errors(found["errors"])))


def _score(value: Any) -> float:
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or not 0 <= value <= 100:
        raise JudgeAnswerError(f'ESA answer: "score" must be a number from 0 to 100, not {value!r}')
    return float(value)


def _errors(value: Any) -> list[ESAError]:
    if not isinstance(value, list):
        raise JudgeAnswerError(f'ESA answer: "errors" must be a list, not {type(value).__name__}')
    errors = []
    for k, error in enumerate(value, 1):
        where = f'ESA answer: error {k} must be an object with a string "span" and a "severity" of'
        if not isinstance(error, dict) or not isinstance(error.get("span"), str):
            raise JudgeAnswerError(f"{where} {' or '.join(SEVERITIES)}, got {error!r}")
        severity, category = error.get("severity"), error.get("category", "")
        if (
            severity not in SEVERITIES
            or not isinstance(category, str)
            or set(error) - {"span", "severity", "category"}
        ):
            raise JudgeAnswerError(
                f'{where} {" or ".join(SEVERITIES)} (and a string "category"), got {error!r}'
            )
        errors.append(ESAError(error["span"], severity, category))
    return errors


def _shown(answer: str, width: int = 60) -> str:
    """The start of an answer, for a message."""
    return repr(answer if len(answer) <= width else answer[:width] + "...")


__all__ = ["SEVERITIES", "ESAAnswer", "ESAError", "parse_esa"]
