"""Segmentation: a hypothesis text in any segmentation (one line, paragraphs, a stream) cut into
its references' segments (:mod:`~understudy.segmentation.resegmentation`), and where each cut
segment came from in the text as given (:func:`origins`).

>>> from understudy.segmentation import resegment
>>> resegment("the cat sat it rained", ["The cat sat.", "It rained."])
['the cat sat', 'it rained']
"""

from understudy.segmentation.resegmentation import (
    CASES,
    METHODS,
    SPLITS,
    Documents,
    Origin,
    documents,
    origins,
    positions,
    resegment,
    units,
)

__all__ = [
    "CASES",
    "METHODS",
    "SPLITS",
    "Documents",
    "Origin",
    "documents",
    "origins",
    "positions",
    "resegment",
    "units",
]
