"""What a scored segment is: systems whose lines are not the reference's (a stream, documents)
cut into the reference's lines first (resegmentation), and segments joined into their paragraphs
or documents before scoring (d-BLEU and its kin; significance tests then resample documents).
The signature records what was done (``reseg:mweralign``, ``gran:document``).

>>> shape = Reshaping(granularity="document", units=Units(["d1", "d1", "d2"]))
>>> shape.reshape([["a b", "c", "d"]], [["a", "c", "e"]])
([['a b c', 'd']], [['a c', 'e']])
>>> shape.signature_pairs()
[('gran', 'document')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from os import PathLike, fspath
from typing import ClassVar

from understudy.config import Declared, option
from understudy.errors import ConfigError, InputFileError, LengthMismatchError
from understudy.segmentation.resegmentation import (
    CASES,
    METHODS,
    SPLITS,
    Origin,
    documents,
    origins,
    resegment,
)
from understudy.wording import counted

GRANULARITIES = ("segment", "paragraph", "document")
RESHAPED = ("reseg", "gran")
"""The signature keys that say how the inputs were reshaped (records differing in them never compare)."""
JOINER = " "
"""What joins a document's (or a paragraph's) segments into one (a space, as d-BLEU joins them)."""


@dataclass(frozen=True)
class Units:
    """Each reference line's document and, where known, its paragraph in the document.

    >>> Units(["d1", "d1"], ["p1", "p2"]).of("paragraph")
    ['d1\\tp1', 'd1\\tp2']
    """

    docids: list[str] | None = None
    paragraphs: list[str] | None = None

    def of(self, granularity: str) -> list[str]:
        """Each line's unit at ``granularity`` (``document`` or ``paragraph``): lines of one unit
        are joined into one segment."""
        if self.docids is None:
            raise ConfigError(
                f"--granularity {granularity}: the test set names no documents; give --docids FILE"
            )
        if granularity == "document":
            return self.docids
        if self.paragraphs is None:
            raise ConfigError(
                "--granularity paragraph: no paragraphs are known; give --docids FILE with each line's"
                " paragraph in a second, TAB-separated column (or -t with a WMT XML or WMT25 JSON-lines set)"
            )
        return [f"{d}\t{p}" for d, p in zip(self.docids, self.paragraphs, strict=True)]

    @classmethod
    def read(cls, path: str | PathLike[str], lines: int) -> Units:
        """The documents of ``path`` (and the paragraphs, when every line has a second,
        TAB-separated column), one a reference line: ``lines`` of them (checked), as
        ``--docids FILE`` gives them.

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "docids")
        >>> _ = open(path, "w", encoding="utf-8").write("d1\\tp1\\nd1\\tp2\\nd2\\tp1\\n")
        >>> Units.read(path, 3)
        Units(docids=['d1', 'd1', 'd2'], paragraphs=['p1', 'p2', 'p1'])
        """
        from understudy.inputs.files import read_lines

        rows = [line.strip().split("\t") for line in read_lines(path)]
        if len(rows) != lines:
            raise LengthMismatchError(
                f"{fspath(path)} has {counted(len(rows), 'document id')}"
                f" but the references have {counted(lines, 'line')}"
            )
        columns = {len(row) for row in rows}
        if columns - {1, 2} or len(columns) > 1:
            number = next(k for k, row in enumerate(rows, 1) if len(row) != len(rows[0]) or len(row) > 2)
            raise InputFileError(
                f"{fspath(path)}:{number}: expected a document id, or a document id and a paragraph after"
                f" a TAB, on every line alike (line 1 has {len(rows[0])} column(s))"
            )
        paragraphs = [row[1] for row in rows] if columns == {2} else None
        return cls([row[0] for row in rows], paragraphs)


@dataclass(frozen=True)
class Resegmenting(Declared):
    """How systems are cut into the reference's lines (:func:`understudy.segmentation.resegment`),
    declared as ``understudy resegment`` takes it (its flags are derived from it)."""

    method: str = option(
        "mweralign", flags=("--method",), choices=METHODS, help="which cut of least cost (default: mweralign)"
    )
    case: str = option(
        "ascii", flags=("--case",), choices=CASES, help="how words compare (default: ascii, mweralign's)"
    )
    split: str = option(
        "ascii", flags=("--split",), choices=SPLITS, help="where words split (default: ascii, mweralign's)"
    )

    def signature_value(self) -> str:
        """The signature's ``reseg`` value: the method, and any case or split not the default."""
        value = self.method
        value += "" if self.case == "ascii" else f"+case-{self.case}"
        return value + ("" if self.split == "ascii" else f"+split-{self.split}")


@dataclass(frozen=True)
class ReshapingOptions(Declared):
    """What ``score``, ``compare`` and ``report`` are asked about segments, declared as the
    families declare their options (the command line's flags are derived from it): whether and
    how systems are cut into the reference's lines, each reference line's document, and the
    granularity scored.

    >>> [option.flags[0] for _, option in ReshapingOptions.options()][:2]
    ['--resegment', '--resegment-method']
    """

    cli_group: ClassVar[str | None] = "segments: resegmentation and documents"

    resegment: bool = option(
        False,
        flags=("--resegment",),
        help="cut each system file (-i) into the reference's lines first, by mwerSegmenter's minimum"
        " edit as mweralign 1.4.1 cuts (see understudy resegment): the file is one stream, or with"
        " --docids one document a line",
    )
    resegment_method: str = option(
        "mweralign", flags=("--resegment-method",), choices=METHODS, help="default: mweralign"
    )
    resegment_case: str = option("ascii", flags=("--resegment-case",), choices=CASES, help="default: ascii")
    resegment_split: str = option(
        "ascii", flags=("--resegment-split",), choices=SPLITS, help="default: ascii"
    )
    docids: str | None = option(
        None,
        flags=("--docids",),
        metavar="FILE",
        help="each reference line's document id, one a line (and its paragraph after a TAB, for"
        " --granularity paragraph)",
    )
    granularity: str = option(
        "segment",
        flags=("--granularity",),
        choices=GRANULARITIES,
        help="document (paragraph): each document's (paragraph's) segments joined by a space and"
        " scored as one segment (those of --docids, or of the test set of -t; significance tests"
        " resample them); default: segment",
    )

    @property
    def resegmenting(self) -> Resegmenting | None:
        """How the systems are cut, when they are."""
        if not self.resegment:
            return None
        return Resegmenting(self.resegment_method, self.resegment_case, self.resegment_split)

    def reshaping(self, lines: int | None = None, units: Units | None = None) -> Reshaping:
        """What the options ask: its documents ``--docids``'s, read against the reference's
        ``lines`` (not read without them), else ``units`` (a test set's).

        >>> ReshapingOptions(granularity="document").reshaping().signature_pairs()
        [('gran', 'document')]
        """
        found = Units.read(self.docids, lines) if self.docids is not None and lines is not None else None
        return Reshaping(self.resegmenting, self.granularity, found or units or Units())


@dataclass(frozen=True)
class Reshaping:
    """Systems cut (``resegmenting``: document by document where documents are known), then every
    stream joined at ``granularity`` (``segment``: not joined), the documents those of ``units``."""

    resegmenting: Resegmenting | None = None
    granularity: str = "segment"
    units: Units = field(default_factory=Units)

    def __post_init__(self) -> None:
        if self.granularity not in GRANULARITIES:
            raise ConfigError(f"granularity is one of {', '.join(GRANULARITIES)}, not {self.granularity!r}")

    def signature_pairs(self) -> list[tuple[str, str]]:
        """The signature's record: ``("reseg", "mweralign")`` and ``("gran", "document")``, as done."""
        pairs = [] if self.resegmenting is None else [("reseg", self.resegmenting.signature_value())]
        return pairs + ([] if self.granularity == "segment" else [("gran", self.granularity)])

    def reshape(
        self, refs: list[list[str]], systems: list[list[str]]
    ) -> tuple[list[list[str]], list[list[str]]]:
        """The references and systems as scored."""
        if self.resegmenting is not None:
            how = self.resegmenting
            references = refs if len(refs) > 1 else refs[0]
            systems = [
                resegment(
                    lines,
                    references,
                    docids=self.units.docids,
                    method=how.method,
                    case=how.case,
                    split=how.split,
                )
                for lines in systems
            ]
        if self.granularity != "segment":
            joint = self.units.of(self.granularity)
            refs = [joined(lines, joint) for lines in refs]
            systems = [joined(lines, joint) for lines in systems]
        return refs, systems

    def sources(self, sources: list[str]) -> list[str]:
        """The source segments as the references are scored (joined into paragraphs or
        documents: the neural metrics and judges then read them whole)."""
        return sources if self.granularity == "segment" else joined(sources, self.units.of(self.granularity))

    def row_documents(self) -> list[str] | None:
        """Each scored row's document, where known: every reference line's, or at the paragraph
        level each paragraph's; ``None`` at the document level (a row is a document) or where no
        document is known."""
        if self.units.docids is None or self.granularity == "document":
            return None
        if self.granularity == "segment":
            return self.units.docids
        return [name.partition("\t")[0] for name in documents(self.units.of(self.granularity)).names]

    def cut_origins(self, given: list[str], cut: list[str]) -> list[tuple[Origin, ...]] | None:
        """Where each of a cut system's segments came from in its lines as ``given`` (resegmenting
        at the segment level only; ``None`` otherwise)."""
        if self.resegmenting is None or self.granularity != "segment":
            return None
        return origins(given, cut, self.resegmenting.split)


def joined(lines: list[str], docids: list[str]) -> list[str]:
    """Each document's lines joined into one (``JOINER``), in the documents' order.

    >>> joined(["a b", "c", "d"], ["x", "x", "y"])
    ['a b c', 'd']
    """
    out, start = [], 0
    for size in documents(docids).sizes:
        out.append(JOINER.join(line for line in lines[start : start + size] if line.strip()))
        start += size
    return out
