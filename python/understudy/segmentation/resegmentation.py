"""A hypothesis cut into as many segments as its references have, by the minimum-edit alignment
of Matusov et al. (2005) that mwerSegmenter implements: the cut whose segments' word edit
distances to their reference segments sum to the least (with several references, each
segment's closest). Words are split as ``split`` says: ``"ascii"`` (the default) at ASCII
whitespace, as mweralign's alignment splits (a non-breaking space joins two words into one),
``"unicode"`` wherever Python's ``str.split()`` splits; with ``"chars"`` every character but
whitespace is a unit, for languages written without spaces (a segment then keeps its text as
written, whitespace collapsed). They compare as ``case`` says:
``"ascii"`` (the default) with A-Z folded to a-z, as mweralign's alignment folds them (so
"Über" and "über" differ), ``"unicode"`` lowercased as ``str.lower()`` lowercases,
``"sensitive"`` as written. The segments keep the words as written, joined by single spaces.

Of several cuts of least cost, ``method="mweralign"`` (the default) takes mweralign 1.4.1's,
so that published numbers compare, including its one departure from the least cost: a segment
ending before the hypothesis's first word costs one more than its reference's words.
``method="min-edit"`` is the least cost itself, with the same choice among ties. The alignment
runs in the Rust core, 64 reference words to a machine word, in memory of a few rows
(:mod:`understudy._core.segmentation`).

>>> resegment("a b X c d", ["a b", "c d"])  # an insertion at a boundary joins the segment before
['a b X', 'c d']
>>> resegment(["Hallo Welt wie geht's", "gut"], ["hallo welt", "wie geht's", "gut"],
...           docids=["d1", "d1", "d2"])
['Hallo Welt', "wie geht's", 'gut']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from understudy.errors import ConfigError, EmptyInputError, InputError, InputTypeError, LengthMismatchError

Origin = tuple[int, int, int, int]
"""Part of a line of the hypothesis as given: ``(line, first unit, last unit, units of the line)``."""

METHODS = ("mweralign", "min-edit")
"""Which cut of least cost: mweralign 1.4.1's, or the least cost without its extra cost."""
CASES = ("ascii", "unicode", "sensitive")
"""How words compare: A-Z folded (mweralign's), lowercased as ``str.lower()``, as written."""
SPLITS = ("ascii", "unicode", "chars")
"""The units: words split at ASCII whitespace (mweralign's), words split as ``str.split()``
splits, or characters (for languages written without spaces; a cut may fall inside a word)."""


@dataclass(frozen=True)
class Documents:
    """Reference lines grouped into documents: ``names[d]`` has ``sizes[d]`` lines, in order."""

    names: tuple[str, ...]
    sizes: tuple[int, ...]


def documents(docids: Sequence[str]) -> Documents:
    """The documents of ``docids`` (one id a reference line): each document's lines together.

    >>> documents(["a", "a", "b"])
    Documents(names=('a', 'b'), sizes=(2, 1))
    >>> documents(["a", "b", "a"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    understudy.errors.InputError: document ids: line 3: 'a' again after other documents (a document's ...
    """
    names: list[str] = []
    sizes: list[int] = []
    for number, docid in enumerate(docids, start=1):
        if not isinstance(docid, str) or not docid.strip():
            raise InputError(f"document ids: line {number}: expected a document id, got {docid!r}")
        if names and names[-1] == docid:
            sizes[-1] += 1
        elif docid in names:
            raise InputError(
                f"document ids: line {number}: {docid!r} again after other documents"
                " (a document's lines must be together)"
            )
        else:
            names.append(docid)
            sizes.append(1)
    return Documents(tuple(names), tuple(sizes))


def resegment(
    hypothesis: str | Sequence[str],
    references: Sequence[str] | Sequence[Sequence[str]],
    *,
    docids: Sequence[str] | None = None,
    method: str = "mweralign",
    case: str = "ascii",
    split: str = "ascii",
    progress: Callable[[int, int], object] | None = None,
) -> list[str]:
    """``hypothesis`` cut into one segment a reference line.

    ``references`` is one reference (its lines) or several (a sequence of them, as many lines
    each). Without ``docids`` the hypothesis is one stream (a text, or lines taken together);
    with them (one id a reference line), it is one string a document, in the documents' order,
    and each document is cut into its own lines. ``progress(done, total)``, if given, is told the
    work done as it goes (each reference line counts twice: the alignment, then the trace back).
    """
    streams = _streams(references)
    lines = len(streams[0])
    if method not in METHODS:
        raise ConfigError(f"unknown resegmentation method {method!r}: {', '.join(METHODS)}")
    if case not in CASES:
        raise ConfigError(f"unknown case {case!r}: {', '.join(CASES)}")
    if split not in SPLITS:
        raise ConfigError(f"unknown word split {split!r}: {', '.join(SPLITS)}")
    if docids is None:
        texts = [hypothesis if isinstance(hypothesis, str) else "\n".join(_strings(hypothesis, "hypothesis"))]
        sizes: tuple[int, ...] = (lines,)
    else:
        if len(docids) != lines:
            raise LengthMismatchError(f"{len(docids)} document ids for {lines} reference lines")
        sizes = documents(docids).sizes
        texts = [hypothesis] if isinstance(hypothesis, str) else _strings(hypothesis, "hypothesis")
        if len(texts) != len(sizes):
            raise LengthMismatchError(
                f"{len(sizes)} documents in the document ids but {len(texts)} hypothesis documents"
                " (one a line)"
            )
    from understudy._core import segmentation

    return segmentation.resegment(streams, texts, list(sizes), (split, case, method), progress)


_ASCII_SPACE = re.compile(r"[ \t\n\v\f\r]+")


def units(text: str, split: str = "ascii") -> int:
    """How many units (words, or characters with ``split="chars"``) ``text`` holds, counted as
    :func:`resegment` splits it.

    >>> units("a\u00a0b c"), units("a\u00a0b c", "unicode"), units("漢 字", "chars")
    (2, 3, 2)
    """
    if split == "chars":
        return sum(not c.isspace() for c in text)
    return len(text.split() if split == "unicode" else [w for w in _ASCII_SPACE.split(text) if w])


def origins(lines: Sequence[str], segments: Sequence[str], split: str = "ascii") -> list[tuple[Origin, ...]]:
    """Where each segment of a cut came from: the lines of the hypothesis as given (a stream's
    lines, or one document a line) whose units it holds, each as ``(line, first, last, of)``:
    the line's number and the units taken from it, counted from 1, of its ``of``. A cut inside a
    line shows as a part of it.

    >>> origins(["a b c", "d e"], ["a b", "c d e"])
    [((1, 1, 2, 3),), ((1, 3, 3, 3), (2, 1, 2, 2))]
    """
    sizes = [units(line, split) for line in lines]
    out: list[tuple[Origin, ...]] = []
    line, used = 0, 0  # the line being taken from, and its units taken so far
    for segment in segments:
        need, parts = units(segment, split), []
        while need > 0:
            while line < len(sizes) and used == sizes[line]:
                line, used = line + 1, 0
            if line == len(sizes):
                raise InputError("the segments hold more words than the lines they were cut from")
            take = min(need, sizes[line] - used)
            parts.append((line + 1, used + 1, used + take, sizes[line]))
            used, need = used + take, need - take
        out.append(tuple(parts))
    return out


def positions(
    segments: Sequence[str], docids: Sequence[str] | None = None, split: str = "ascii"
) -> list[dict[str, object]]:
    """Each cut segment (a reference line) with its line number, its document and its units'
    positions in the document's hypothesis: ``words`` (or characters with ``split="chars"``),
    from and to; what ``understudy resegment -f json`` writes.

    >>> [(row["line"], row["words"]) for row in positions(["the cat sat", "it rained"])]
    [(1, [0, 3]), (2, [3, 5])]
    """
    names: Sequence[str | None] = [None] * len(segments) if docids is None else docids
    rows: list[dict[str, object]] = []
    start, previous = 0, object()
    for line, (segment, name) in enumerate(zip(segments, names, strict=True), start=1):
        if name != previous:
            start, previous = 0, name
        # Words are joined by single spaces; characters keep theirs.
        count = (
            len(segment.replace(" ", "")) if split == "chars" else len(segment.split(" ")) if segment else 0
        )
        rows.append({"line": line, "document": name, "words": [start, start + count], "text": segment})
        start += count
    return rows


def _streams(references: Sequence[str] | Sequence[Sequence[str]]) -> list[list[str]]:
    """The references as lists of lines, checked: as many lines each, at least one."""
    if isinstance(references, str):
        raise InputTypeError("references: expected a sequence of lines (or of references), got a string")
    if not references:
        raise EmptyInputError("references: no lines")
    streams: list[list[str]]
    if all(isinstance(line, str) for line in references):
        streams = [_strings(references, "reference")]
    else:
        streams = [_strings(stream, f"reference {k + 1}") for k, stream in enumerate(references)]
    if any(len(stream) != len(streams[0]) for stream in streams):
        counts = ", ".join(str(len(stream)) for stream in streams)
        raise LengthMismatchError(f"the references differ in length: {counts} lines")
    if not streams[0]:
        raise EmptyInputError("references: no lines")
    return streams


def _strings(texts: object, what: str) -> list[str]:
    if isinstance(texts, str) or not isinstance(texts, Sequence):
        raise InputTypeError(f"{what}: expected a sequence of strings, got {type(texts).__name__}")
    if not all(isinstance(text, str) for text in texts):
        raise InputTypeError(f"{what}: expected strings only")
    return list(texts)
