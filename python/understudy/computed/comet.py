"""COMET's regression metric (COMET-22 by default), as the command line and given scores know
it; computed by :class:`understudy.neural.COMET`.

>>> DECLARED.name, CometConfig().model
('comet', 'Unbabel/wmt22-comet-da')
"""

from __future__ import annotations

from dataclasses import dataclass

from understudy.config import option
from understudy.registry.declarations import Computed, NeuralConfig

DEFAULT_MODEL = "Unbabel/wmt22-comet-da"


@dataclass(frozen=True)
class CometConfig(NeuralConfig):
    """COMET's checkpoint and how it runs."""

    model: str = option(
        DEFAULT_MODEL,
        flags=("--comet-model",),
        metavar="MODEL",
        help="COMET's checkpoint: a hub name, NAME@REVISION, or a local folder holding hparams.yaml and"
        f" checkpoints/model.ckpt (default: {DEFAULT_MODEL})",
    )


DECLARED = Computed("comet", "COMET", CometConfig, "understudy.neural.comet:COMET", aliases=("COMET-22",))
