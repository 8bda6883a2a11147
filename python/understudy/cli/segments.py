"""What a segment is, for ``score``, ``compare`` and ``report``: systems whose lines are not the
reference's (a stream, documents) cut into the reference's lines first (``--resegment``, as
``understudy resegment`` cuts them), and segments joined into their documents before scoring
(``--granularity document``: d-BLEU and its kin, tests resampling documents). ``--docids FILE``
names each reference line's document. The signature says what was done (``reseg:mweralign``,
``gran:document``).
"""

from __future__ import annotations

import argparse

from understudy.cli.messages import CliError
from understudy.errors import LengthMismatchError
from understudy.segmentation import CASES, METHODS, SPLITS, documents, resegment

GRANULARITIES = ("segment", "document")
RESHAPED = ("reseg", "gran")
"""The signature keys that say how the inputs were reshaped (records differing in them never compare)."""
JOINER = " "
"""What joins a document's segments into one (a space, as d-BLEU joins them)."""


def add_segment_options(parser: argparse.ArgumentParser) -> None:
    """``--resegment`` and how it cuts, ``--docids`` and ``--granularity``."""
    group = parser.add_argument_group("segments: resegmentation and documents")
    group.add_argument(
        "--resegment",
        action="store_true",
        help="cut each system file (-i) into the reference's lines first, by mwerSegmenter's minimum"
        " edit as mweralign 1.4.1 cuts (see understudy resegment): the file is one stream, or with"
        " --docids one document a line",
    )
    group.add_argument("--resegment-method", choices=METHODS, default="mweralign", help="default: mweralign")
    group.add_argument("--resegment-case", choices=CASES, default="ascii", help="default: ascii")
    group.add_argument("--resegment-split", choices=SPLITS, default="ascii", help="default: ascii")
    group.add_argument("--docids", metavar="FILE", help="each reference line's document id, one a line")
    group.add_argument(
        "--granularity",
        choices=GRANULARITIES,
        default="segment",
        help="document: each document's segments joined by a space and scored as one segment (the"
        " documents of --docids, or of the test set of -t; significance tests resample documents);"
        " default: segment",
    )


def reshaping(args: argparse.Namespace) -> bool:
    """Whether the inputs are cut or joined (checked against what cannot follow)."""
    resegmenting = getattr(args, "resegment", False)
    joining = getattr(args, "granularity", "segment") == "document"
    if not (resegmenting or joining):
        return False
    flag = "--resegment" if resegmenting else "--granularity document"
    if joining and getattr(args, "docids", None) is None and not getattr(args, "test_set", None):
        raise CliError("--granularity document needs --docids FILE (each reference line's document) or -t")
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


def signature_pairs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The signature's record: ``("reseg", "mweralign")`` and ``("gran", "document")``, as done."""
    pairs = []
    if getattr(args, "resegment", False):
        value = args.resegment_method
        value += "" if args.resegment_case == "ascii" else f"+case-{args.resegment_case}"
        value += "" if args.resegment_split == "ascii" else f"+split-{args.resegment_split}"
        pairs.append(("reseg", value))
    if getattr(args, "granularity", "segment") != "segment":
        pairs.append(("gran", args.granularity))
    return pairs


def reshape(
    args: argparse.Namespace, refs: list[list[str]], systems: list[list[str]], docids: list[str] | None = None
) -> tuple[list[list[str]], list[list[str]]]:
    """The references and systems as scored: each system cut (``--resegment``), then every
    stream joined into documents (``--granularity document``); the documents are ``--docids``'s,
    else ``docids`` (a test set's)."""
    docids = _docids(args, len(refs[0])) or docids
    if args.granularity == "document" and docids is None:
        raise CliError("--granularity document: the test set names no documents; give --docids FILE")
    if getattr(args, "resegment", False):
        options = {
            "method": args.resegment_method,
            "case": args.resegment_case,
            "split": args.resegment_split,
        }
        references = refs if len(refs) > 1 else refs[0]
        systems = [resegment(lines, references, docids=docids, **options) for lines in systems]
    if args.granularity == "document":
        assert docids is not None
        refs = [joined(lines, docids) for lines in refs]
        systems = [joined(lines, docids) for lines in systems]
    return refs, systems


def sources_as_scored(
    args: argparse.Namespace, sources: list[str], docids: list[str] | None = None
) -> list[str]:
    """The source segments as the references are scored: joined into documents with
    ``--granularity document`` (the neural metrics and judges then read whole documents), the
    documents ``--docids``'s, else ``docids`` (a test set's)."""
    if getattr(args, "granularity", "segment") != "document":
        return sources
    docids = _docids(args, len(sources)) or docids
    if docids is None:
        raise CliError("--granularity document: the test set names no documents; give --docids FILE")
    return joined(sources, docids)


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


def _docids(args: argparse.Namespace, lines: int) -> list[str] | None:
    """``--docids``'s ids, one a reference line (checked)."""
    if getattr(args, "docids", None) is None:
        return None
    from understudy.inputs.files import read_lines

    ids = [line.strip() for line in read_lines(args.docids)]
    if len(ids) != lines:
        raise LengthMismatchError(
            f"{args.docids} has {len(ids)} document ids but the references have {lines} lines"
        )
    return ids


__all__ = [
    "GRANULARITIES",
    "JOINER",
    "RESHAPED",
    "add_segment_options",
    "joined",
    "reshape",
    "reshaping",
    "signature_pairs",
]
