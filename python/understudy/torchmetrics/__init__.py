"""torchmetrics' text metrics computed by understudy: ``from torchmetrics.text import BLEUScore``
becomes ``from understudy.torchmetrics.text import BLEUScore`` (and ``torchmetrics.functional.text``
becomes ``understudy.torchmetrics.functional.text``). Needs the ``torch`` extra.

The classes are ``torchmetrics.Metric`` subclasses with torchmetrics' arguments, state names,
outputs (tensors on a 0-1 scale) and DDP behaviour; their states are int64 counts, so sums across
processes are exact. The numbers are torchmetrics' own where it differs from sacrebleu or jiwer
only in convention (its float32 arithmetic, its smoothing, its chrF average over all orders), and
correct where it has a known bug: each class's docstring names the bugs it does not repeat.

>>> from understudy.torchmetrics import WordErrorRate
>>> WordErrorRate()(["hello world"], ["hello there world"])
tensor(0.3333)
"""

from __future__ import annotations

try:
    import torch  # noqa: F401
    import torchmetrics  # noqa: F401
except ImportError:
    from understudy.errors import MissingExtraError

    raise MissingExtraError(
        "understudy.torchmetrics needs PyTorch and torchmetrics: pip install 'understudy-mt[torch]'"
    ) from None

# Re-exported by name ("X as X"): the names of the module, its public face.
from understudy.torchmetrics.text import BERTScore as BERTScore
from understudy.torchmetrics.text import BLEUScore as BLEUScore
from understudy.torchmetrics.text import CharErrorRate as CharErrorRate
from understudy.torchmetrics.text import CHRFScore as CHRFScore
from understudy.torchmetrics.text import MatchErrorRate as MatchErrorRate
from understudy.torchmetrics.text import SacreBLEUScore as SacreBLEUScore
from understudy.torchmetrics.text import TranslationEditRate as TranslationEditRate
from understudy.torchmetrics.text import WordErrorRate as WordErrorRate
from understudy.torchmetrics.text import WordInfoLost as WordInfoLost
from understudy.torchmetrics.text import WordInfoPreserved as WordInfoPreserved
