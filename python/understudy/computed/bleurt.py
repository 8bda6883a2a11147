"""BLEURT-20, known to given scores (``--scores BLEURT-20=FILE``: higher is better, unbounded)
but not computed here: no ``-m bleurt``.

>>> DECLARED.make is None, DECLARED.title
(True, 'BLEURT-20')
"""

from __future__ import annotations

from understudy.registry.declarations import Computed, ComputedConfig

DECLARED = Computed(
    "bleurt", "BLEURT-20", ComputedConfig, None, inputs=("hypothesis", "reference"), extra=None
)
