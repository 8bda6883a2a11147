"""GEMBA-MQM, an LLM judge's error annotation scored as MQM (-25 to 0); computed by
:class:`understudy.judges.metric.GembaMQM` through any OpenAI-compatible endpoint.

>>> DECLARED.name, DECLARED.score_range, DECLARED.inputs
('gemba-mqm', (-25.0, 0.0), ('source', 'hypothesis'))
"""

from __future__ import annotations

from understudy.registry.declarations import Computed, JudgeConfig

DECLARED = Computed(
    "gemba-mqm",
    "GEMBA-MQM",
    JudgeConfig,
    "understudy.judges.metric:GembaMQM",
    inputs=("source", "hypothesis"),
    score_range=(-25.0, 0.0),
    extra=None,
)
