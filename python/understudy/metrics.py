"""The metric family: each metric's name, and its object from a configuration.

>>> from understudy.config import TERConfig
>>> metric_for(TERConfig()).corpus_score(["a b"], [["a b c"]]).score  # sacrebleu: 33.33...
33.33333333333333
"""

from __future__ import annotations

from typing import Any

from understudy.bleu import BLEU
from understudy.chrf import CHRF
from understudy.config import MetricConfig
from understudy.metric import Metric, RefStreams
from understudy.ter import TER

METRICS: dict[str, type[Metric[Any]]] = {"bleu": BLEU, "chrf": CHRF, "ter": TER}
"""Every metric by name, in the order sacrebleu prints them."""


def metric_for(
    config: MetricConfig, references: RefStreams | None = None, threads: int | None = None
) -> Metric[Any]:
    """The metric object (``BLEU``, ``CHRF`` or ``TER``) of ``config``."""
    return METRICS[config.metric].from_config(config, references, threads)
