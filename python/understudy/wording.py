"""How messages say a count ("1 line", "3 lines") and a name that is not UTF-8.

>>> counted(1, "line"), counted(3, "line"), counted(1, "document id"), counted(0, "paragraph")
('1 line', '3 lines', '1 document id', '0 paragraphs')
"""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one (``plural``: an
    irregular plural; else an ``s``)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def record_span(ids: list[int]) -> str:
    """``record 5``, ``records 5-9`` or ``records 5, 7, 8`` (ids of a transaction may skip).

    >>> record_span([5]), record_span([5, 6, 7]), record_span([5, 7, 8])
    ('record 5', 'records 5-7', 'records 5, 7, 8')
    """
    if len(ids) == 1:
        return f"record {ids[0]}"
    if ids == list(range(ids[0], ids[-1] + 1)):
        return f"records {ids[0]}-{ids[-1]}"
    return "records " + ", ".join(map(str, ids))


def kept_name(name: str) -> str:
    """A system's name as the ledger keeps it: a file name that is not UTF-8 (its undecodable
    bytes held as surrogates) with those bytes escaped, ``\\xe9``, so that it is kept all the same.

    >>> kept_name("caf\\udce9.txt")
    'caf\\\\xe9.txt'
    """
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
