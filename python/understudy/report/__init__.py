"""One self-contained HTML report of systems scored against references: what the numbers say,
whether differences are real, where systems differ, and what BLEU cannot see.

:func:`build` computes nothing of its own: every number comes from the metrics'
statistics, :func:`understudy.significance.all_pairs`, the analyses of
:mod:`understudy.report.analysis` (compare-mt's buckets, n-gram differences, matched
tokens, all from the Rust core's counts), :func:`understudy.correlation.correlate` and the
results' signatures. :func:`render` fills the package's Jinja2 template (autoescaped: every
system name, file name and segment is text), inlines the plots as SVG and the diff's filter
script, so the file opens from disk with nothing fetched; its Content-Security-Policy allows
that one script and no request. Needs the ``report`` extra (Jinja2, matplotlib, SciPy).

The rooms: :mod:`~understudy.report.model` (what the page shows), :mod:`~understudy.report.builder`
(:func:`build`), :mod:`~understudy.report.human` (human scores, one object),
:mod:`~understudy.report.bands` (BLEU's bands), :mod:`~understudy.report.page` (:func:`render`),
and the analyses, edits, figures, names, overview, steps and kept records they use.
"""

from __future__ import annotations

from understudy.report.bands import BANDS, BLEU_BANDS, CAVEATS, interpretation
from understudy.report.builder import build, diff_segments
from understudy.report.edits import Run
from understudy.report.human import HumanInputs
from understudy.report.model import AnalysisView, DiffRow, HumanView, PairView, Report
from understudy.report.page import render

__all__ = [
    "BANDS",
    "BLEU_BANDS",
    "CAVEATS",
    "AnalysisView",
    "DiffRow",
    "HumanInputs",
    "HumanView",
    "PairView",
    "Report",
    "Run",
    "build",
    "diff_segments",
    "interpretation",
    "render",
]
