"""MetricX-24 (hybrid: with or without references), lower is better, 0 to 25; computed by
:class:`understudy.neural.MetricX`.

>>> DECLARED.higher_is_better, MetricXConfig().tokenizer
(False, 'google/mt5-xl')
"""

from __future__ import annotations

from dataclasses import dataclass

from understudy.config import option
from understudy.registry.declarations import Computed, NeuralConfig

DEFAULT_MODEL = "google/metricx-24-hybrid-xl-v2p6"
DEFAULT_TOKENIZER = "google/mt5-xl"


@dataclass(frozen=True)
class MetricXConfig(NeuralConfig):
    """MetricX's checkpoint, its tokenizer, whether it reads references, and how it runs."""

    model: str = option(
        DEFAULT_MODEL,
        flags=("--metricx-model",),
        metavar="MODEL",
        help="MetricX-24's checkpoint: a hub name, NAME@REVISION, or a local folder (default:"
        f" {DEFAULT_MODEL})",
    )
    tokenizer: str = option(
        DEFAULT_TOKENIZER,
        flags=("--metricx-tokenizer",),
        metavar="TOKENIZER",
        help=f"MetricX's mT5 tokenizer, as predict.py's --tokenizer (default: {DEFAULT_TOKENIZER})",
    )
    qe: bool = option(
        False, flags=("--metricx-qe",), help="MetricX-24 without references (quality estimation)"
    )


# MetricX clamps its scores to 0..25. The checkpoint reads the reference unless --metricx-qe.
DECLARED = Computed(
    "metricx",
    "MetricX",
    MetricXConfig,
    "understudy.neural.metricx:MetricX",
    higher_is_better=False,
    score_range=(0.0, 25.0),
    aliases=("MetricX-23", "MetricX-24", "MetricX-QE", "MetricX-24-QE"),
)
