"""PEAR (pairwise quality estimation, 2026) as the command line and given scores know it: the
sign and size of the quality difference between two translations of one source, pear-mt 1.1.1's
numbers; computed by :class:`understudy.neural.pear.Pear`. Scored against a reference, a
hypothesis's score is its difference from the reference (pear-mt's reference-anchored mode);
in ``mbr``, each candidate's expected difference from the others.

>>> DECLARED.name, PearConfig().model, PearConfig().mbr
('pear', 'Prosho/pear', 'full')
"""

from __future__ import annotations

from dataclasses import dataclass

from understudy.config import option
from understudy.registry.declarations import Computed, NeuralConfig

DEFAULT_MODEL = "Prosho/pear"


@dataclass(frozen=True)
class PearConfig(NeuralConfig):
    """PEAR's checkpoint, how MBR fills its utility matrices, and how it runs."""

    model: str = option(
        DEFAULT_MODEL,
        flags=("--pear-model",),
        metavar="MODEL",
        help="PEAR's checkpoint: a hub name, NAME@REVISION, or a local folder holding hparams.yaml and"
        f" checkpoints/model.ckpt (default: {DEFAULT_MODEL})",
    )
    mbr: str = option(
        "full",
        flags=("--pear-mbr",),
        choices=("full", "half"),
        help="MBR's utility matrix: every ordered pair (full, the default) or one half, the other"
        " filled by antisymmetry (half; PEAR's model is not antisymmetric, so the two differ)",
    )


DECLARED = Computed(
    "pear",
    "PEAR",
    PearConfig,
    "understudy.neural.pear:Pear",
    aliases=("PEAR-XL",),
)
