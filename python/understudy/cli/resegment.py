"""``understudy resegment``: a hypothesis in any segmentation cut into the reference's lines."""

from __future__ import annotations

import argparse
import dataclasses
import json
import warnings
from typing import Any

from understudy.cli.messages import CliError
from understudy.cli.options import add_command, add_declared
from understudy.cli.output import write_out
from understudy.cli.progress import Progress
from understudy.files.atomic import writable
from understudy.inputs.files import read_lines
from understudy.inputs.parallel import check_stdin_once
from understudy.segmentation import positions, resegment
from understudy.segmentation.granularity import Resegmenting
from understudy.wording import counted

EXAMPLES = """examples:
  understudy resegment ref.de stream.de -o hyp.de          the stream cut into ref.de's lines
  understudy resegment ref.de paragraphs.de --docids ids -o hyp.de
                                      line d of paragraphs.de is document d of ids (one id a ref line)
  understudy resegment ref.de stream.de --more-refs ref2.de -o hyp.de   each segment's closest
  understudy resegment ref.de stream.de -f json           each line's words, offsets and document

Without --docids the hypothesis file is one stream, its line breaks ignored. The cut is
mweralign 1.4.1's (mwerSegmenter's minimum edit, its ties and its extra cost at the first
word); --method min-edit takes the least cost itself. Words split at ASCII whitespace and
compare with A-Z folded, as mweralign's alignment does (--split unicode, --case unicode or
sensitive otherwise). OUT has exactly as many lines as REF and is written whole or not at all.
"""


def add_parser(commands: Any) -> None:
    """Register the ``resegment`` subcommand."""
    p = add_command(
        commands,
        "resegment",
        "cut a hypothesis stream or documents into the reference's lines",
        "Cut HYP (one stream, or one document a line with --docids) into as many segments as REF "
        "has lines, by the minimum-edit alignment of mwerSegmenter (Matusov et al., 2005).",
        EXAMPLES,
    )
    p.add_argument("ref", metavar="REF", help="the reference, one segment a line")
    p.add_argument("hyp", metavar="HYP", help="the hypothesis: a stream (any line breaks), or documents")
    p.add_argument("-o", "--output", metavar="OUT", help="where the segments go (default: standard output)")
    p.add_argument(
        "--docids", metavar="FILE", help="one document id a line of REF; HYP holds one document a line"
    )
    p.add_argument("--more-refs", nargs="+", default=[], metavar="REF", help="more references, as many lines")
    add_declared(p, Resegmenting)
    p.add_argument("-f", "--format", choices=["text", "json"], default="text", help="segments (text) or JSON")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Read, cut, write."""
    if args.output is not None:
        writable(args.output)
    check_stdin_once([(args.ref, "REF"), (args.hyp, "HYP"), *((r, "--more-refs") for r in args.more_refs)])
    refs = [read_lines(path, allow_empty=True) for path in [args.ref, *args.more_refs]]
    hyps = read_lines(args.hyp, allow_empty=True)
    docids = None if args.docids is None else read_lines(args.docids)
    if docids is not None and len(docids) != len(refs[0]):
        raise CliError(f"{args.docids} has {counted(len(docids), 'line')} but {args.ref} has {len(refs[0])}")
    if not any(line.strip() for line in hyps):
        warnings.warn(f"{args.hyp} has no words: every segment is empty", stacklevel=1)
    options = dataclasses.asdict(Resegmenting.from_values(vars(args)))
    with Progress("resegmenting", total=2 * len(refs[0]), unit="segments") as bar:

        def progress(done: int, total: int) -> None:
            bar.update(done)

        references = refs if args.more_refs else refs[0]
        segments = resegment(hyps, references, docids=docids, progress=progress, **options)
    text = (
        _json(segments, docids, args.split) if args.format == "json" else "".join(s + "\n" for s in segments)
    )
    write_out(args.output, text.encode("utf-8"))
    return 0


def _json(segments: list[str], docids: list[str] | None, split: str) -> str:
    """:func:`understudy.segmentation.positions` as a JSON list, a segment a line."""
    rows = positions(segments, docids, split)
    return "[\n" + ",\n".join(json.dumps(row, ensure_ascii=False) for row in rows) + "\n]\n"


__all__ = ["add_parser", "run"]
