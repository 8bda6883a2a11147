"""How messages say a count: "1 line", "3 lines".

>>> counted(1, "line"), counted(3, "line"), counted(1, "document id"), counted(0, "paragraph")
('1 line', '3 lines', '1 document id', '0 paragraphs')
"""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one (``plural``: an
    irregular plural; else an ``s``)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
