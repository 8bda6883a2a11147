"""ESA (error span annotation), an LLM judge's 0 to 100 score with its error spans; computed by
:class:`understudy.judges.metric.ESA` through any OpenAI-compatible endpoint.

>>> DECLARED.name, DECLARED.score_range
('esa', (0.0, 100.0))
"""

from __future__ import annotations

from understudy.registry.declarations import Computed, JudgeConfig

DECLARED = Computed(
    "esa",
    "ESA",
    JudgeConfig,
    "understudy.judges.metric:ESA",
    inputs=("source", "hypothesis"),
    score_range=(0.0, 100.0),
    extra=None,
)
