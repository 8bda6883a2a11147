"""Neural metrics computed here: COMET's regression metric, CometKiwi, xCOMET and MetricX-24, on
transformers' models.

Each metric reads a checkpoint in its published layout (a hub name, ``NAME@REVISION``, or a
local folder: :mod:`understudy.neural.checkpoints`), computes segment scores, and hands them on
as given scores (:class:`~understudy.metrics.scores.GivenScores`) whose signature pins the
checkpoint, its revision, the precision and whether a reference was used. Everything downstream
(significance, reports, the ledger, the gate) takes them as any segment scores. torch,
transformers and huggingface-hub come with the ``neural`` extra, imported only when a model runs.
"""

from understudy.neural.comet import COMET
from understudy.neural.cometkiwi import CometKiwi
from understudy.neural.metricx import MetricX
from understudy.neural.xcomet import XCOMET, ErrorSpan

__all__ = ["COMET", "XCOMET", "CometKiwi", "ErrorSpan", "MetricX"]
