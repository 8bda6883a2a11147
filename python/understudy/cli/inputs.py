"""Reading a command's input: text files as sacrebleu reads them, parallel files checked for
length, standard input used once, and a system file that is also a reference warned of."""

from __future__ import annotations

import argparse
import os
import warnings
from typing import TYPE_CHECKING

from understudy.cli.messages import CliError
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.datasets.references import SetReferences


def check_stdin_once(uses: list[tuple[str, str]]) -> None:
    """Refuse standard input (``-``) named for two inputs: one stream can be read once.

    ``uses`` pairs each input's path with what it is (for the message).
    """
    stdin = [what for path, what in uses if path == "-"]
    if len(stdin) > 1:
        raise CliError(
            f"standard input (-) is given as {' and as '.join(stdin)}; it can be read once: "
            "give all but one of them as files"
        )


def warn_reference_as_system(refs: list[str], systems: list[str]) -> None:
    """Warn when a system file is also a reference file (``-i *.de`` beside ``ref.de``): it would
    score as a perfect system."""
    for system in systems:
        for ref in refs:
            try:
                same = system != "-" and ref != "-" and os.path.samefile(system, ref)
            except OSError:
                continue  # a missing file is reported when it is read
            if same:
                warnings.warn(
                    f"system file {system} is also reference file {ref}: it scores as a perfect system",
                    stacklevel=2,
                )


def read_texts(paths: list[str]) -> list[list[str]]:
    """Each file's lines, right-stripped (as sacrebleu reads them)."""
    from understudy.inputs.files import read_lines

    return [[line.rstrip() for line in read_lines(path)] for path in paths]


def warn_json_lines_as_text(paths: list[str], testset: SetReferences | None) -> None:
    """Warn of a ``.jsonl`` system file read as plain text: a system's JSON lines are read by
    document id only beside a test set of WMT25's JSON lines (``-t FILE.jsonl``)."""
    if testset is not None and testset.documents is not None:
        return
    for path in paths:
        if path.endswith((".jsonl", ".jsonl.gz")):
            warnings.warn(
                f"{path} is read as plain text, one segment a line: a system's JSON lines are read by"
                " document id with a test set of WMT25's JSON lines (-t FILE.jsonl -l PAIR)",
                stacklevel=2,
            )


def read_systems(
    paths: list[str], testset: SetReferences | None, args: argparse.Namespace
) -> list[list[str]]:
    """Each system's lines: a text file's, or (when ``-t`` is a file of WMT25's JSON lines) a
    ``.jsonl`` system file's documents a paragraph a line, or with ``--resegment`` a document a
    line (to be cut into the reference's paragraphs)."""
    if testset is None or testset.documents is None:
        warn_json_lines_as_text(paths, testset)
        return read_texts(paths)
    from understudy.datasets.local import is_jsonl
    from understudy.datasets.wmt_jsonl import system_lines
    from understudy.inputs.files import read_lines

    whole = bool(getattr(args, "resegment", False))
    return [
        system_lines(read_lines(path), path, testset.documents, whole)
        if is_jsonl(path)
        else read_texts([path])[0]
        for path in paths
    ]


def read_against(
    testset: SetReferences, paths: list[str], args: argparse.Namespace
) -> tuple[list[list[str]], list[list[str]]]:
    """``-t``'s references and the systems of ``paths`` as scored (cut and joined as ``args``
    ask), every system as long as the references."""
    from understudy.cli.segments import reshape, reshaping
    from understudy.errors import LengthMismatchError

    refs = [lines for _, lines in testset.streams]
    systems = read_systems(paths, testset, args)
    if reshaping(args):
        refs, systems = reshape(args, refs, systems, testset.units)
    for path, lines in zip(paths, systems, strict=True):
        if len(lines) != len(refs[0]):
            raise LengthMismatchError(
                f"the test set has {counted(len(refs[0]), 'segment')} but {path} has {len(lines)}"
            )
    return refs, systems


def read_parallel(
    refs: list[str], inputs: list[str], args: argparse.Namespace | None = None
) -> tuple[list[list[str]], list[list[str]]]:
    """The reference files' and the system files' lines, every file as long as the first reference
    (with ``--resegment`` or ``--granularity document`` in ``args``, as :mod:`understudy.cli.segments`
    reshapes them: cut into the references' lines, joined into documents)."""
    from understudy.cli.segments import reshape, reshaping
    from understudy.errors import LengthMismatchError

    warn_json_lines_as_text(inputs, None)
    references, systems = read_texts(refs), read_texts(inputs)
    if args is not None and reshaping(args):
        references, systems = reshape(args, references, systems)
    for path, lines in zip([*inputs, *refs], [*systems, *references], strict=True):
        if len(lines) != len(references[0]):
            raise LengthMismatchError(
                f"{refs[0]} has {counted(len(references[0]), 'line')} but {path} has {len(lines)}"
            )
    return references, systems
