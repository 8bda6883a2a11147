"""Records named as ``understudy gate`` names them: ``ledger:ID`` (one record) or ``tag:NAME``
(the latest record of each metric with that tag, of one system), and two such names paired metric
by metric, each pair checked comparable.

>>> from understudy import BLEU, CHRF
>>> from understudy.ledger import Ledger
>>> ledger = Ledger(":memory:")
>>> refs = [["the cat sat on the mat", "a dog barked"]]
>>> for name, hyps in [("v1", ["the cat sat", "a dog"]), ("v2", ["the cat sat on the mat", "a dog"])]:
...     for metric in (BLEU(), CHRF()):
...         _ = ledger.append(metric.segment_stats(hyps, refs), "sys", "toy", tags=[name])
>>> [(base.id, cand.id, base.metric) for base, cand in kept_pairs(ledger, "tag:v1", "tag:v2")]
[(1, 3, 'bleu'), (2, 4, 'chrf')]
>>> sorted(named_records(ledger, "ledger:4"))
['chrf']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from understudy.errors import IncomparableError, LedgerError

if TYPE_CHECKING:
    from understudy.ledger.ledger import Ledger, Record


def is_kept_form(which: str) -> bool:
    """Whether ``which`` names kept records (``ledger:ID``, ``tag:NAME``) rather than a file.

    >>> is_kept_form("tag:v1"), is_kept_form("hyp.de")
    (True, False)
    """
    return which.startswith(("ledger:", "tag:"))


def named_records(ledger: Ledger, which: str, metrics: Sequence[str] = ()) -> dict[str, Record]:
    """The records ``which`` names, by metric: ``ledger:ID`` one record, ``tag:NAME`` the latest
    record (by the time it was kept) of each metric with that tag, of one system; only
    ``metrics`` when given (any case), each of which must be there."""
    kind, _, value = which.partition(":")
    if kind == "ledger":
        if not (value.isascii() and value.isdigit()):
            raise LedgerError(f"{which}: ledger:ID takes a record's number")
        record = ledger.get(int(value))
        found = {record.metric: record}
    else:
        records = ledger.records(tag=value)
        if not records:
            raise LedgerError(f"{which}: no record of the ledger has the tag {value!r}")
        systems = list(dict.fromkeys(r.system for r in records))
        if len(systems) > 1:
            raise LedgerError(
                f"{which} holds records of {len(systems)} systems ({', '.join(systems)}): a tag gated"
                " must name one system; name a record with ledger:ID"
            )
        found = {r.metric: r for r in records}  # oldest first: the latest of each metric stays
    if not metrics:
        return found
    wanted = {m.lower() for m in metrics}
    chosen = {metric: record for metric, record in found.items() if metric.lower() in wanted}
    missing = wanted - {metric.lower() for metric in chosen}
    if missing:
        raise LedgerError(
            f"{which} has no record of {', '.join(sorted(missing))} (it has {', '.join(found)})"
        )
    return chosen


def kept_pairs(
    ledger: Ledger, baseline: str, candidate: str, metrics: Sequence[str] = ()
) -> list[tuple[Record, Record]]:
    """The baseline's and the candidate's records (:func:`named_records`) of each metric both
    have, in the baseline's order, each pair checked comparable (:meth:`Ledger.check_comparable`)."""
    base = named_records(ledger, baseline, metrics)
    cand = named_records(ledger, candidate, metrics)
    shared = [metric for metric in base if metric in cand]
    if not shared:
        raise IncomparableError(
            f"{baseline} has {_listed(base)} and {candidate} {_listed(cand)}: no metric in common"
        )
    for metric in shared:
        ledger.check_comparable(base[metric].id, cand[metric].id)
    return [(base[metric], cand[metric]) for metric in shared]


def _listed(records: dict[str, Record]) -> str:
    return ", ".join(records) or "no metric"


__all__ = ["is_kept_form", "kept_pairs", "named_records"]
