"""An error span of a judge's answer, and where its text is in the hypothesis: shared by every
judge (GEMBA-MQM, ESA).

>>> span = ErrorSpan("major", "accuracy/mistranslation", "sitzt", locate("sitzt", "Die Katze sitzt."), None)
>>> span.start, span.found
(10, True)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ErrorSpan:
    """One error of an answer: its severity, its category (``accuracy/mistranslation``,
    lowercased), the span it quotes, and where that span is in the hypothesis (``None``: not
    found, or no span quoted).

    >>> ErrorSpan("minor", "style/awkward", "x", 0, 1).found
    True
    """

    severity: str
    category: str
    text: str
    start: int | None
    end: int | None

    @property
    def found(self) -> bool:
        """Whether the span was found in the hypothesis."""
        return self.start is not None


def locate(span: str, hypothesis: str) -> int | None:
    """Where ``span`` first occurs in ``hypothesis``: as written, else ignoring case (character
    by character, so that offsets stay the hypothesis's); ``None`` if nowhere or empty.

    >>> locate("KATZE", "Die Katze"), locate("Hund", "Die Katze")
    (4, None)
    """
    if not span:
        return None
    at = hypothesis.find(span)
    if at >= 0:
        return at
    folded = span.casefold()
    width = len(span)
    return next(
        (k for k in range(len(hypothesis) - width + 1) if hypothesis[k : k + width].casefold() == folded),
        None,
    )


def located(severity: str, category: str, text: str, hypothesis: str) -> ErrorSpan:
    """An error span with its offsets in ``hypothesis`` (none where its text is not there).

    >>> located("minor", "", "Katze", "die Katze").end
    9
    """
    start = locate(text, hypothesis)
    return ErrorSpan(severity, category, text, start, None if start is None else start + len(text))


__all__ = ["ErrorSpan", "locate", "located"]
