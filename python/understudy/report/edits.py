"""The diff's alignment view: a hypothesis shown against its closest reference with WER's (or
CER's) three kinds of error marked, from :meth:`understudy.metrics.wer.WER.alignments`.

>>> from understudy.metrics.wer import WER
>>> runs, rest = edit_runs(WER().alignments(["a x c e f g"], [["a b c d e f"]])[0])
>>> [(run.kind, run.text, run.was) for run in runs]  # doctest: +NORMALIZE_WHITESPACE
[('equal', 'a', ''), ('substitute', 'x', 'b'), ('equal', 'c', ''), ('delete', 'd', ''),
 ('equal', 'e f', ''), ('insert', 'g', '')]
"""

from __future__ import annotations

from dataclasses import dataclass

from understudy.metrics.wer import Alignment

FOLD_CHARS = 400
"""Segments longer than this are shown folded (the page stays usable with 10 MB segments)."""


@dataclass(frozen=True)
class Run:
    """Consecutive tokens of a hypothesis shown alike. BLEU's matches: ``level`` is the order of
    the longest matched n-gram covering them (0: unmatched). WER's alignment: ``kind`` is
    ``equal``, ``substitute`` (``was``: the reference's units it replaces), ``delete`` (the
    reference's units the hypothesis lacks, shown struck) or ``insert``."""

    text: str
    level: int = 0
    kind: str = ""
    was: str = ""


def edit_runs(alignment: Alignment, budget: int = FOLD_CHARS) -> tuple[tuple[Run, ...], str]:
    """The alignment's runs up to ``budget`` characters of text; the rest of the hypothesis as
    plain text. Words are joined by spaces; characters (CER) run together, spaces being units."""
    joiner = "" if alignment.characters else " "
    hyp, ref = alignment.hypothesis, alignment.reference
    runs: list[Run] = []
    used = 0
    for chunk in alignment.chunks:
        if chunk.type == "delete":
            text = joiner.join(ref[chunk.ref_start_idx : chunk.ref_end_idx])
        else:
            text = joiner.join(hyp[chunk.hyp_start_idx : chunk.hyp_end_idx])
        if used + len(text) > budget and runs:
            return tuple(runs), joiner.join(hyp[chunk.hyp_start_idx :])
        was = joiner.join(ref[chunk.ref_start_idx : chunk.ref_end_idx]) if chunk.type == "substitute" else ""
        runs.append(Run(text, 0, chunk.type, was))
        used += len(text) + 1
    return tuple(runs), ""
