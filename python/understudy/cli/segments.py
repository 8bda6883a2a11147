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
from understudy.cli.options import add_declared
from understudy.inputs.parallel import Reshape
from understudy.segmentation import Origin
from understudy.segmentation.granularity import (
    GRANULARITIES,
    JOINER,
    RESHAPED,
    ReshapingOptions,
    Units,
    joined,
)


def add_segment_options(parser: argparse.ArgumentParser) -> None:
    """``--resegment`` and how it cuts, ``--docids`` and ``--granularity``."""
    add_declared(parser, ReshapingOptions)


def reshaping(args: argparse.Namespace) -> bool:
    """Whether the inputs are cut or joined (checked against what cannot follow)."""
    shape = asked(args)
    joining = shape.granularity != "segment"
    if not (shape.resegment or joining):
        return False
    flag = "--resegment" if shape.resegment else f"--granularity {shape.granularity}"
    if joining and shape.docids is None and not getattr(args, "test_set", None):
        raise CliError(
            f"--granularity {shape.granularity} needs --docids FILE (each reference line's document) or -t"
        )
    for other, given in [
        (
            "--origlang/--subset",
            getattr(args, "origlang", None) is not None or getattr(args, "subset", None) is not None,
        ),
        ("--num-refs", getattr(args, "num_refs", 1) > 1),
        ("--scores", bool(getattr(args, "scores", None))),
        ("-sl", bool(getattr(args, "sentence_level", False)) and shape.resegment),
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
    return asked(args).resegment


def asked(args: argparse.Namespace) -> ReshapingOptions:
    """What the options ask (a command without them asks for nothing)."""
    return ReshapingOptions.from_values(vars(args))


def signature_pairs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The signature's record: ``("reseg", "mweralign")`` and ``("gran", "document")``, as done."""
    return asked(args).reshaping().signature_pairs()


def reshape(
    args: argparse.Namespace, refs: list[list[str]], systems: list[list[str]], units: Units | None = None
) -> tuple[list[list[str]], list[list[str]]]:
    """The references and systems as scored (:meth:`Reshaping.reshape`), the documents
    ``--docids``'s, else ``units`` (a test set's)."""
    return asked(args).reshaping(len(refs[0]), units).reshape(refs, systems)


def sources_as_scored(args: argparse.Namespace, sources: list[str], units: Units | None = None) -> list[str]:
    """The source segments as the references are scored (:meth:`Reshaping.sources`)."""
    shape = asked(args)
    return (
        sources if shape.granularity == "segment" else shape.reshaping(len(sources), units).sources(sources)
    )


def row_documents(args: argparse.Namespace, lines: int, units: Units | None = None) -> list[str] | None:
    """Each scored row's document, where known (:meth:`Reshaping.row_documents`)."""
    return asked(args).reshaping(lines, units).row_documents()


def cut_origins(
    args: argparse.Namespace, names: list[str], given: list[list[str]], cut: list[list[str]]
) -> dict[str, list[tuple[Origin, ...]]]:
    """Where each cut system's segments came from in its file's lines (``--resegment`` at the
    segment level; JSON-lines systems, whose lines are not the file's, are left out)."""
    shape = asked(args).reshaping()
    if shape.resegmenting is None or shape.granularity != "segment":
        return {}
    from understudy.datasets.local import is_jsonl

    paths = zip(names, args.input, given, cut, strict=True)
    return {
        name: shape.cut_origins(lines, cuts) or [] for name, path, lines, cuts in paths if not is_jsonl(path)
    }


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
