"""LLM judges: prompts sent to a chat model through an OpenAI-compatible endpoint, its answers
read and scored, as metrics (:class:`~understudy.judges.metric.GembaMQM`,
:class:`~understudy.judges.metric.ESA`, also importable from ``understudy``).

:mod:`~understudy.judges.gemba_mqm` reads GEMBA-MQM's answers (Kocmi and Federmann, 2023) and
scores them exactly as GEMBA's own parser does.

>>> from understudy.judges.gemba_mqm import gemba_mqm_score
>>> gemba_mqm_score('Major:\\naccuracy/mistranslation - "sitzt"\\nMinor:\\nno-error')
-5.0
"""
