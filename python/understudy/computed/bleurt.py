"""BLEURT-20 (Pu et al., 2021) as the command line and given scores know it: a learned score of a
hypothesis against its reference, bleurt-pytorch's numbers (its port of the TensorFlow
checkpoints, ``lucadiliello/BLEURT-20``'s layout); computed by
:class:`understudy.neural.bleurt.BLEURT`. Its scores given with ``--scores BLEURT-20=FILE`` keep
their meaning: higher is better, unbounded.

>>> DECLARED.name, DECLARED.title, BleurtConfig().model
('bleurt', 'BLEURT-20', 'lucadiliello/BLEURT-20')
"""

from __future__ import annotations

from dataclasses import dataclass

from understudy.config import option
from understudy.registry.declarations import Computed, NeuralConfig

DEFAULT_MODEL = "lucadiliello/BLEURT-20"


@dataclass(frozen=True)
class BleurtConfig(NeuralConfig):
    """BLEURT's checkpoint, and how it runs."""

    model: str = option(
        DEFAULT_MODEL,
        flags=("--bleurt-model",),
        metavar="MODEL",
        help="BLEURT's checkpoint: a hub name, NAME@REVISION, or a local folder holding config.json,"
        f" the weights and spm.model (default: {DEFAULT_MODEL})",
    )


DECLARED = Computed(
    "bleurt",
    "BLEURT-20",
    BleurtConfig,
    "understudy.neural.bleurt:BLEURT",
    inputs=("hypothesis", "reference"),
)
