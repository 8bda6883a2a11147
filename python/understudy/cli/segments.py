"""What a segment is, for ``score``, ``compare`` and ``report``: systems whose lines are not the
reference's (a stream, documents) cut into the reference's lines first (``--resegment``, as
``understudy resegment`` cuts them), and segments joined into their paragraphs or documents before
scoring (``--granularity paragraph|document``: d-BLEU and its kin, tests resampling documents).
``--docids FILE`` names each reference line's document (and, in a second TAB-separated column,
its paragraph); a test set of ``-t`` names its own. The signature says what was done
(``reseg:mweralign``, ``gran:document``).
"""

from __future__ import annotations

import argparse

from understudy.cli.messages import CliError
from understudy.cli.options import add_field_option
from understudy.inputs.parallel import Reshape
from understudy.segmentation import Origin
from understudy.segmentation.granularity import (
    GRANULARITIES,
    JOINER,
    RESHAPED,
    Resegmenting,
    Reshaping,
    ReshapingOptions,
    Units,
    joined,
)


def add_segment_options(parser: argparse.ArgumentParser) -> None:
    """``--resegment`` and how it cuts, ``--docids`` and ``--granularity``."""
    group = parser.add_argument_group("segments: resegmentation and documents")
    for name, _ in ReshapingOptions.options():
        add_field_option(group, ReshapingOptions, name)


def reshaping(args: argparse.Namespace) -> bool:
    """Whether the inputs are cut or joined (checked against what cannot follow)."""
    resegmenting = getattr(args, "resegment", False)
    granularity = getattr(args, "granularity", "segment")
    joining = granularity != "segment"
    if not (resegmenting or joining):
        return False
    flag = "--resegment" if resegmenting else f"--granularity {granularity}"
    if joining and getattr(args, "docids", None) is None and not getattr(args, "test_set", None):
        raise CliError(
            f"--granularity {granularity} needs --docids FILE (each reference line's document) or -t"
        )
    for other, given in [
        (
            "--origlang/--subset",
            getattr(args, "origlang", None) is not None or getattr(args, "subset", None) is not None,
        ),
        ("--num-refs", getattr(args, "num_refs", 1) > 1),
        ("--scores", bool(getattr(args, "scores", None))),
        ("-sl", bool(getattr(args, "sentence_level", False)) and resegmenting),
    ]:
        if given:
            raise CliError(f"{flag} cannot be combined with {other}")
    if not getattr(args, "input", None) or "-" in args.input:
        raise CliError(f"{flag} reads each system from its file: give them with -i")
    return True


def reshaper(args: argparse.Namespace, units: Units | None = None) -> Reshape | None:
    """How the options reshape the references and systems as read (``None``: not at all), the
    documents ``--docids``'s, else ``units`` (a test set's)."""
    if not reshaping(args):
        return None
    return lambda refs, systems: reshape(args, refs, systems, units)


def whole_documents(args: argparse.Namespace) -> bool:
    """Whether a system's JSON lines are read a document a line (``--resegment`` cuts them)."""
    return bool(getattr(args, "resegment", False))


def reshaping_of(args: argparse.Namespace, lines: int, units: Units | None = None) -> Reshaping:
    """What the options ask (:class:`~understudy.segmentation.granularity.Reshaping`), its units
    ``--docids``'s, else ``units`` (a test set's); ``lines``: the reference's lines."""
    asked = _asked(args)
    return Reshaping(asked.resegmenting, asked.granularity, _units(args, lines) or units or Units())


def signature_pairs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The signature's record: ``("reseg", "mweralign")`` and ``("gran", "document")``, as done."""
    return _asked(args).signature_pairs()


def reshape(
    args: argparse.Namespace, refs: list[list[str]], systems: list[list[str]], units: Units | None = None
) -> tuple[list[list[str]], list[list[str]]]:
    """The references and systems as scored (:meth:`Reshaping.reshape`)."""
    return reshaping_of(args, len(refs[0]), units).reshape(refs, systems)


def sources_as_scored(args: argparse.Namespace, sources: list[str], units: Units | None = None) -> list[str]:
    """The source segments as the references are scored (:meth:`Reshaping.sources`)."""
    if getattr(args, "granularity", "segment") == "segment":
        return sources
    return reshaping_of(args, len(sources), units).sources(sources)


def row_documents(args: argparse.Namespace, lines: int, units: Units | None = None) -> list[str] | None:
    """Each scored row's document, where known (:meth:`Reshaping.row_documents`)."""
    granularity = getattr(args, "granularity", "segment")
    found = _units(args, lines) or units or Units()
    return Reshaping(None, granularity, found).row_documents()


def cut_origins(
    args: argparse.Namespace, names: list[str], given: list[list[str]], cut: list[list[str]]
) -> dict[str, list[tuple[Origin, ...]]]:
    """Where each cut system's segments came from in its file's lines (``--resegment`` at the
    segment level; JSON-lines systems, whose lines are not the file's, are left out)."""
    if not getattr(args, "resegment", False) or getattr(args, "granularity", "segment") != "segment":
        return {}
    from understudy.datasets.local import is_jsonl

    shape = _asked(args)
    found = {}
    for name, path, lines, segments in zip(names, args.input, given, cut, strict=True):
        if not is_jsonl(path):
            found[name] = shape.cut_origins(lines, segments) or []
    return found


def _asked(args: argparse.Namespace) -> Reshaping:
    """What the options ask, without the units (read only where the inputs are reshaped)."""
    cut = None
    if getattr(args, "resegment", False):
        cut = Resegmenting(args.resegment_method, args.resegment_case, args.resegment_split)
    return Reshaping(cut, getattr(args, "granularity", "segment"))


def _units(args: argparse.Namespace, lines: int) -> Units | None:
    """``--docids``'s documents (and paragraphs), one a reference line (:meth:`Units.read`)."""
    docids = getattr(args, "docids", None)
    return None if docids is None else Units.read(docids, lines)


__all__ = [
    "GRANULARITIES",
    "JOINER",
    "RESHAPED",
    "Units",
    "add_segment_options",
    "cut_origins",
    "joined",
    "reshape",
    "reshaping",
    "row_documents",
    "signature_pairs",
]
