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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from understudy.errors import IncomparableError, LedgerError
from understudy.segmentation.granularity import RESHAPED
from understudy.signature import Signature

if TYPE_CHECKING:
    from understudy.ledger.ledger import Ledger, Record
    from understudy.stats import Stats


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


def check_typed(which: str, record: Record, config: Any, typed: Mapping[str, Any]) -> None:
    """Refuse a metric option typed on the command line (``typed``: its destination and value)
    that the kept record's configuration contradicts: the record is scored as it was kept, and
    an option it overrules is named, never dropped without a word. One it agrees with is fine."""
    for field, declared in type(config).options():
        if not declared.flags or declared.dest not in typed:
            continue
        kept_value, value = getattr(config, field), typed[declared.dest]
        if value != kept_value:
            flag = declared.flags[0]
            shown = "" if isinstance(value, bool) else f" {value}"
            raise IncomparableError(
                f"{flag}{shown}: {which} ({record.metric}, record {record.id}) was scored with"
                f" {field}={kept_value!r}; the gate scores as the record was kept: drop {flag}, or gate"
                " against a record kept with it"
            )


@dataclass(frozen=True)
class Against:
    """A system file scored against kept records: the records' name (``which``), the file's
    ``path`` and ``lines``, the references and their test set as the ledger names them, the
    options typed (destination to value), the threads, and whether the kept side is the
    baseline."""

    which: str
    path: str
    lines: list[str]
    refs: list[list[str]]
    testset: str
    typed: Mapping[str, Any]
    threads: int | None = None
    baseline_kept: bool = True


def against_kept(
    ledger: Ledger, asked: Against, metrics: Sequence[str] = ()
) -> list[tuple[Stats[Any, Any], Stats[Any, Any]]]:
    """The baseline's and the candidate's statistics, metric by metric, one side kept records,
    the other the file scored under each record's own configuration, on the record's own test
    set (else refused, naming both).

    >>> from understudy import BLEU
    >>> from understudy.ledger import Ledger
    >>> ledger = Ledger(":memory:")
    >>> refs = [["the cat sat on the mat"]]
    >>> _ = ledger.append(BLEU().segment_stats(["the cat sat on a mat"], refs), "v1", "toy", tags=["v1"])
    >>> asked = Against("tag:v1", "v2.txt", ["the cat sat on the mat"], refs, "toy", {})
    >>> [(round(b.score().score, 2), round(c.score().score, 2)) for b, c in against_kept(ledger, asked)]
    [(53.73, 100.0)]
    """
    from understudy.metrics import EVERY_FAMILY

    records = named_records(ledger, asked.which, metrics)
    pairs = []
    for metric, record in records.items():
        kept = ledger.stats(record.id)
        _check_scorable(asked, metric, record, kept.config)
        family = EVERY_FAMILY[kept.config.metric].metric
        scored = family.from_config(kept.config, threads=asked.threads).segment_stats(asked.lines, asked.refs)
        pairs.append((kept, scored) if asked.baseline_kept else (scored, kept))
    return pairs


def _check_scorable(asked: Against, metric: str, record: Record, config: Any) -> None:
    """Refuse a record kept on another test set, of reshaped inputs, or of given scores."""
    which, path = asked.which, asked.path
    if record.testset != asked.testset:
        raise IncomparableError(
            f"{which} ({metric}, record {record.id}) was scored on {record.testset}, but the references"
            f" given are {asked.testset}: gate {path} against the record's own test set"
        )
    reshaped = [f"{k}:{v}" for k, v in Signature.parse(record.signature).extras if k in RESHAPED]
    if reshaped:
        raise IncomparableError(
            f"{which} ({metric}, record {record.id}) was scored with {', '.join(reshaped)}; the gate"
            f" scores {path} segment by segment: keep it the same way (score --log) and gate the records"
        )
    check_typed(which, record, config, asked.typed)
    if not config.from_text:
        raise IncomparableError(
            f"{which}'s {metric} (record {record.id}) holds given scores: understudy cannot compute "
            f"{metric} from {path}'s text; gate two kept records of it instead"
        )


def _listed(records: dict[str, Record]) -> str:
    return ", ".join(records) or "no metric"


__all__ = ["Against", "against_kept", "check_typed", "is_kept_form", "kept_pairs", "named_records"]
