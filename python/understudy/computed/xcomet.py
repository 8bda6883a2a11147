"""xCOMET, COMET's metric that marks error spans, with or without references; computed by
:class:`understudy.neural.XCOMET`. ``--xcomet-spans FILE`` keeps its spans.

>>> DECLARED.score_range, XCometConfig(qe=True).spans_file() is None
((None, 1.0), True)
"""

from __future__ import annotations

from dataclasses import dataclass

from understudy.config import option
from understudy.registry.declarations import Computed, NeuralConfig

DEFAULT_MODEL = "Unbabel/XCOMET-XL"


@dataclass(frozen=True)
class XCometConfig(NeuralConfig):
    """xCOMET's checkpoint, whether it reads references, where its spans go, and how it runs."""

    model: str = option(
        DEFAULT_MODEL,
        flags=("--xcomet-model",),
        metavar="MODEL",
        help="xCOMET's checkpoint (CC BY-NC-SA, gated on the hub): a hub name, NAME@REVISION, or a"
        f" local folder (default: {DEFAULT_MODEL})",
    )
    qe: bool = option(False, flags=("--xcomet-qe",), help="xCOMET without references (quality estimation)")
    spans: str | None = option(
        None,
        flags=("--xcomet-spans",),
        metavar="FILE",
        help="write xCOMET's error spans to FILE, one JSON line a segment of each system:"
        ' {"system", "segment" (from 1), "score", "spans": [{"text", "confidence", "severity",'
        ' "start", "end"}]}',
    )

    def spans_file(self) -> str | None:
        """``--xcomet-spans``' file."""
        return self.spans


# xCOMET clamps its parts from above only.
DECLARED = Computed(
    "xcomet",
    "xCOMET",
    XCometConfig,
    "understudy.neural.xcomet:XCOMET",
    score_range=(None, 1.0),
    aliases=("xCOMET-XL", "xCOMET-XXL"),
)
