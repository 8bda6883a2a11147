"""CometKiwi, COMET's reference-free estimator (a unified checkpoint reads a reference where its
hparams declare one); computed by :class:`understudy.neural.CometKiwi`.

>>> DECLARED.name, CometKiwiConfig().model
('cometkiwi', 'Unbabel/wmt22-cometkiwi-da')
"""

from __future__ import annotations

from dataclasses import dataclass

from understudy.config import option
from understudy.registry.declarations import Computed, NeuralConfig

DEFAULT_MODEL = "Unbabel/wmt22-cometkiwi-da"


@dataclass(frozen=True)
class CometKiwiConfig(NeuralConfig):
    """CometKiwi's checkpoint and how it runs."""

    model: str = option(
        DEFAULT_MODEL,
        flags=("--cometkiwi-model",),
        metavar="MODEL",
        help="CometKiwi's checkpoint (reference-free; CC BY-NC-SA, gated on the hub): a hub name,"
        f" NAME@REVISION, or a local folder (default: {DEFAULT_MODEL})",
    )


DECLARED = Computed(
    "cometkiwi",
    "CometKiwi",
    CometKiwiConfig,
    "understudy.neural.cometkiwi:CometKiwi",
    aliases=("CometKiwi-22", "CometKiwi-23"),
)
