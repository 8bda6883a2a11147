"""Parallel text files read as sacrebleu reads them: each file's lines right-stripped, every
file as long as the first reference (else an error naming both), standard input read once, and
a system file that is also a reference warned of.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> for name, text in [("ref.de", "Hallo Welt\\nGuten Tag\\n"), ("hyp.de", "Hallo Welt  \\nTag\\n")]:
...     _ = open(os.path.join(folder, name), "w", encoding="utf-8").write(text)
>>> read_parallel([os.path.join(folder, "ref.de")], [os.path.join(folder, "hyp.de")])
([['Hallo Welt', 'Guten Tag']], [['Hallo Welt', 'Tag']])
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence

from understudy.errors import ConfigError, LengthMismatchError
from understudy.wording import counted

Streams = list[list[str]]
Reshape = Callable[[Streams, Streams], tuple[Streams, Streams]]
"""The references and systems as scored: cut, joined
(:meth:`understudy.segmentation.granularity.Reshaping.reshape`)."""


def check_stdin_once(uses: Sequence[tuple[str, str]]) -> None:
    """Refuse standard input (``-``) named for two inputs: one stream can be read once.
    ``uses`` pairs each input's path with what it is (for the message).

    >>> check_stdin_once([("-", "REF"), ("-", "-i")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    understudy.errors.ConfigError: standard input (-) is given as REF and as -i; it can be read once: ...
    """
    stdin = [what for path, what in uses if path == "-"]
    if len(stdin) > 1:
        raise ConfigError(
            f"standard input (-) is given as {' and as '.join(stdin)}; it can be read once: "
            "give all but one of them as files"
        )


def warn_reference_as_system(refs: Sequence[str], systems: Sequence[str]) -> None:
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


def read_texts(paths: Sequence[str]) -> Streams:
    """Each file's lines, right-stripped (as sacrebleu reads them)."""
    from understudy.inputs.files import read_lines

    return [[line.rstrip() for line in read_lines(path)] for path in paths]


def warn_json_lines_as_text(paths: Sequence[str]) -> None:
    """Warn of a ``.jsonl`` system file read as plain text: a system's JSON lines are read by
    document id only beside a test set of WMT25's JSON lines (``-t FILE.jsonl``)."""
    for path in paths:
        if path.endswith((".jsonl", ".jsonl.gz")):
            warnings.warn(
                f"{path} is read as plain text, one segment a line: a system's JSON lines are read by"
                " document id with a test set of WMT25's JSON lines (-t FILE.jsonl -l PAIR)",
                stacklevel=2,
            )


def kept(columns: list[list[str]], mask: Sequence[bool]) -> list[list[str]]:
    """The lines of each column that ``mask`` keeps (a test set's subset).

    >>> kept([["a", "b", "c"]], [True, False, True])
    [['a', 'c']]
    """
    return [[line for line, k in zip(column, mask, strict=True) if k] for column in columns]


def read_parallel(
    refs: Sequence[str], inputs: Sequence[str], reshape: Reshape | None = None
) -> tuple[Streams, Streams]:
    """The reference files' and the system files' lines, every file as long as the first
    reference, after ``reshape`` (cut into the references' lines, joined into documents)."""
    warn_json_lines_as_text(inputs)
    references, systems = read_texts(refs), read_texts(inputs)
    if reshape is not None:
        references, systems = reshape(references, systems)
    for path, lines in zip([*inputs, *refs], [*systems, *references], strict=True):
        if len(lines) != len(references[0]):
            raise LengthMismatchError(
                f"{refs[0]} has {counted(len(references[0]), 'line')} but {path} has {len(lines)}"
            )
    return references, systems


__all__ = [
    "Reshape",
    "check_stdin_once",
    "read_parallel",
    "read_texts",
    "warn_json_lines_as_text",
    "warn_reference_as_system",
]
