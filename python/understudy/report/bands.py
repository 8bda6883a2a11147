"""BLEU's bands as the cloud vendor's guide (seeds/003) reads them, and its caveats: the only
place the report speaks of BLEU's numbers in words."""

from __future__ import annotations

BLEU_BANDS = (
    (10.0, "Almost useless"),
    (20.0, "Hard to get the gist"),
    (30.0, "The gist is clear, but has significant grammatical errors"),
    (40.0, "Understandable to good translations"),
    (50.0, "High quality translations"),
    (60.0, "Very high quality, adequate, and fluent translations"),
    (float("inf"), "Quality often better than human"),
)
"""The cloud vendor's guide (seeds/003): a rough reading of BLEU percentages, upper bounds."""

CAVEATS = (
    "BLEU is a corpus metric: a band describes a test set's score, not any one sentence.",
    "Scores are comparable only on the same test set, references and tokenization (see each signature).",
    "BLEU counts n-gram overlap: it does not see meaning preserved in other words, nor fluency as such.",
)
"""The guide's warnings, shown beside the bands."""

BANDS = tuple((f"< {bound:g}" if bound != float("inf") else "> 60", text) for bound, text in BLEU_BANDS)
"""The guide's BLEU bands as the page labels them."""


def interpretation(score: float) -> str:
    """The guide's band of a BLEU percentage.

    >>> interpretation(9.9), interpretation(35.0), interpretation(61.0)
    ('Almost useless', 'Understandable to good translations', 'Quality often better than human')
    """
    return next(text for bound, text in BLEU_BANDS if score < bound)
