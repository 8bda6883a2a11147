"""The score ledger: results kept with their signatures and statistics, in SQLite.

Each record is one metric's per-segment statistics of one system on one test set, with the
signature, the score, the time and what the user adds (tags, a note, a revision). The rows
rebuild the score and any significance test later, without the text; two records are compared
only when their signatures, test sets and segment counts agree, and the refusal says what differs.

>>> from understudy import BLEU
>>> from understudy.ledger import Ledger
>>> ledger = Ledger(":memory:")
>>> refs = [["the cat sat on the mat", "a dog barked"]]
>>> bleu = BLEU(references=refs)
>>> base = ["the cat sat on a mat", "a dog barked"]
>>> first = ledger.append(bleu.segment_stats(base), "base", "toy")
>>> new = ["the cat sat on the mat", "a dog"]
>>> second = ledger.append(bleu.segment_stats(new), "new", "toy", tags=["ckpt-2"])
>>> [(r.id, r.system, r.tags) for r in ledger.records()]
[(1, 'base', ()), (2, 'new', ('ckpt-2',))]
>>> ledger.get(first).score == bleu.corpus_score(base).score
True
>>> intl = ledger.append(BLEU(tokenize="intl").segment_stats(base, refs), "base", "toy")
>>> ledger.check_comparable(first, intl)
Traceback (most recent call last):
...
understudy.errors.IncomparableError: records 1 and 3 differ in the signature's tok: 13a against intl; ...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from understudy.ledger.location import LEDGER_ENV, default_location
from understudy.ledger.secrets import redacted

if TYPE_CHECKING:
    from understudy.ledger.ledger import HistoryPoint, Ledger, Record

_LAZY = {"Ledger", "Record", "HistoryPoint"}
"""Names imported from :mod:`understudy.ledger.ledger` on first use: the commands name the
ledger's location in their help without loading it (and NumPy, and the significance tests)."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from understudy.ledger import ledger

        return getattr(ledger, name)
    raise AttributeError(f"module 'understudy.ledger' has no attribute {name!r}")


__all__ = ["LEDGER_ENV", "HistoryPoint", "Ledger", "Record", "default_location", "redacted"]
