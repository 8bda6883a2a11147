"""What ``understudy mbr`` reads and writes, declared as the families declare their options (the
command line's flags are derived from it): the candidates (``-n`` lines a source, or JSON lines),
the method, where the choices and their scores go, and BLEU's effective order.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "cands.txt")
>>> _ = open(path, "w", encoding="utf-8").write("a b\\na c\\nx y\\nx z\\n")
>>> candidates, sources = MBRAsked(candidates=path, per_source=2).read(None)
>>> candidates, sources
([['a b', 'a c'], ['x y', 'x z']], None)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO

from understudy.config import Declared, option
from understudy.errors import ConfigError, LengthMismatchError
from understudy.files.atomic import atomic_write
from understudy.mbr import METHODS, Choice


@dataclass(frozen=True)
class MBRAsked(Declared):
    """The ``candidates`` file (``per_source`` lines a source in a text file), the ``method``,
    the ``output`` of the chosen lines and the ``scores`` file of the choices' records, and
    whether BLEU's utility keeps every n-gram order (``no_effective_order``)."""

    candidates: str = option(
        "", flags=("--candidates",), required=True, metavar="FILE", help="-n lines a source, or JSON lines"
    )
    per_source: int | None = option(
        None, flags=("-n", "--per-source"), type=int, metavar="N", help="candidates a source in a text FILE"
    )
    method: str = option(
        "exact",
        flags=("--method",),
        choices=METHODS,
        help="exact (default); aggregate: against the candidates' n-grams averaged (BLEU, chrF); "
        "prune: confidence-based pruning, as mbrs' pruning_mbr",
    )
    output: str | None = option(
        None,
        flags=("-o", "--output"),
        metavar="FILE",
        help="the chosen candidates, one a line (default: stdout)",
    )
    scores: str | None = option(
        None,
        flags=("--scores",),
        metavar="FILE",
        help="each source's choice and every candidate's expected utility (MBR) or its own"
        " score (qe_scores: QE reranking), JSON lines",
    )
    no_effective_order: bool = option(
        False, flags=("--no-effective-order",), help="BLEU: every n-gram order, short or not"
    )

    def read(self, source: str | None) -> tuple[list[list[str]], list[str] | None]:
        """Each source's candidates, and the sources of the file ``source`` (a line each), if given."""
        from understudy.inputs.candidates import read_candidates
        from understudy.inputs.files import read_lines

        candidates = read_candidates(self.candidates, self.per_source)
        sources = read_lines(source) if source is not None else None
        if sources is not None and len(sources) != len(candidates):
            raise LengthMismatchError(
                f"{source} has {len(sources)} lines for {len(candidates)} sources' candidates"
            )
        return candidates, sources

    def write(self, choices: Sequence[Choice], stdout: BinaryIO) -> None:
        """The chosen lines to :attr:`output` (else ``stdout``) and the records to :attr:`scores`,
        each file whole."""
        bad = next((k for k, c in enumerate(choices) if "\n" in c.candidate or "\r" in c.candidate), None)
        if bad is not None:
            raise ConfigError(
                f"the candidate chosen for source {bad + 1} has a line break: write --scores instead"
            )
        text = "".join(f"{c.candidate}\n" for c in choices).encode("utf-8")
        if self.output is None:
            stdout.write(text)
        else:
            with atomic_write(self.output) as out:
                out.write(text)
        if self.scores is not None:
            with atomic_write(self.scores) as fh:
                for k, choice in enumerate(choices):
                    line = json.dumps({"source": k + 1, **choice.to_dict()}, ensure_ascii=False)
                    fh.write(f"{line}\n".encode())
