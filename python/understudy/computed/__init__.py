"""Computed metrics: scores a model or a judge computes from the texts (COMET, CometKiwi, xCOMET,
MetricX, GEMBA-MQM, ESA), declared as the families are.

Each has a declaration module here (its name, inputs, direction, range, options: light, read by
the command line as it starts) and its code in :mod:`understudy.neural` or
:mod:`understudy.judges`; :class:`~understudy.computed.metric.ComputedMetric` is what they
share, :mod:`~understudy.computed.cache` where their scores are kept.

>>> from understudy.registry import COMPUTED, computed_metrics
>>> list(computed_metrics()) == list(COMPUTED)  # the registry's lines, in -m order
True
>>> computed_metrics()["metricx"].title
'MetricX'
"""

from understudy.registry.declarations import Computed, ComputedConfig, JudgeConfig, NeuralConfig

__all__ = ["Computed", "ComputedConfig", "JudgeConfig", "NeuralConfig"]
