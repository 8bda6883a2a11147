"""COMET-poly (Züfle, Zouhar et al., WMT25) as the command line and given scores know it: COMET
that also reads other translations of the same source (``cand1``, ``cand2``) or retrieved
examples with their human scores (``ic1``, ``ic3``); the fork's numbers (zouharvi/COMET-poly);
computed by :class:`understudy.neural.comet_poly.CometPoly`. No reference is read.

>>> DECLARED.name, DECLARED.inputs, CometPolyConfig().model
('comet-poly', ('source', 'hypothesis'), 'zouharvi/COMET-poly-base-wmt25')
"""

from __future__ import annotations

from dataclasses import dataclass

from understudy.config import option
from understudy.registry.declarations import Computed, NeuralConfig

DEFAULT_MODEL = "zouharvi/COMET-poly-base-wmt25"
VARIANTS = tuple(f"zouharvi/COMET-poly-{v}-wmt25" for v in ("base", "cand1", "cand2", "ic1", "ic3"))
"""The published checkpoints."""


@dataclass(frozen=True)
class CometPolyConfig(NeuralConfig):
    """COMET-poly's checkpoint, where its other translations or examples come from, and how it runs."""

    model: str = option(
        DEFAULT_MODEL,
        flags=("--comet-poly-model",),
        metavar="MODEL",
        help="COMET-poly's checkpoint: a hub name (zouharvi/COMET-poly-{base,cand1,cand2,ic1,ic3}-wmt25),"
        f" NAME@REVISION, or a local folder in COMET's layout (default: {DEFAULT_MODEL})",
    )
    candidates: tuple[str, ...] | None = option(
        None,
        flags=("--comet-poly-candidates",),
        nargs="+",
        metavar="FILE",
        unset=True,
        help="for cand1/cand2: files of other translations of each source, one a line, in the order"
        " the model takes them (default: the other -i systems' translations, those that differ first)",
    )
    examples: str | None = option(
        None,
        flags=("--comet-poly-examples",),
        metavar="FILE.jsonl",
        unset=True,
        help='for ic1/ic3: each segment\'s in-context examples, a JSON line each: a list of {"src", "mt",'
        ' "score"} nearest first, or an object with src2, mt2, score2, src3, ... as the fork reads them',
    )


DECLARED = Computed(
    "comet-poly",
    "COMET-poly",
    CometPolyConfig,
    "understudy.neural.comet_poly:CometPoly",
    inputs=("source", "hypothesis"),
)
