"""The ledger's records as tables and files: a list of records, one record in full, systems'
histories with their intervals (each a :class:`~understudy.files.tables.Table` that renders as text,
LaTeX, CSV or JSON), and every record written out with its statistics.

>>> from understudy import BLEU
>>> from understudy.ledger import Ledger
>>> ledger = Ledger(":memory:")
>>> same = ["the cat sat on the mat"]
>>> _ = ledger.append(BLEU().segment_stats(same, [same]), "A", "toy")
>>> print(records_table(ledger.records()).rows[0][2:5])
['A', 'bleu', '100.00']
"""

from __future__ import annotations

import base64
import csv
import dataclasses
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from typing import TYPE_CHECKING, Any

from understudy.config import Declared, option
from understudy.files.atomic import atomic_write
from understudy.files.tables import Table

if TYPE_CHECKING:
    from understudy.ledger.ledger import HistoryPoint, Ledger, Record


def record_fields(record: Record) -> dict[str, Any]:
    """A record's fields as JSON holds them (its tags a list)."""
    return {**dataclasses.asdict(record), "tags": list(record.tags)}


def records_table(found: Sequence[Record]) -> Table:
    """Records a row each: id, time, system, metric, score, test set, tags."""
    rows = [
        [str(r.id), r.created[:19], r.system, r.metric, f"{r.score:.2f}", r.testset, " ".join(r.tags)]
        for r in found
    ]
    return Table(
        ["id", "created (UTC)", "system", "metric", "score", "test set", "tags"],
        rows,
        notes=[f"{len(found)} record(s)"],
        record=[record_fields(r) for r in found],
    )


def record_table(record: Record) -> Table:
    """One record in full, a field a line."""
    fields = record_fields(record)
    lines = [f"{key}: {' '.join(value) if key == 'tags' else value}" for key, value in fields.items()]
    return Table([], [], record=fields, text="\n".join(lines))


def history_table(lines: Mapping[str, Sequence[HistoryPoint]], n: int, plot: str | None = None) -> Table:
    """Each line's (a system's, a tag's) records in time order, with their bootstrap means and
    intervals from ``n`` resamples; a column naming the line when there are several."""
    several = len(lines) > 1
    rows, record = [], []
    for which, points in lines.items():
        for p in points:
            cells = [str(p.record.id), p.record.created[:19], p.record.system, p.record.metric]
            cells += [f"{p.record.score:.2f}", f"{p.mean:.2f} ± {p.ci:.2f}", " ".join(p.record.tags)]
            rows.append([which, *cells] if several else cells)
            record.append({"line": which, **record_fields(p.record), "mean": p.mean, "ci": p.ci})
    header = ["id", "created (UTC)", "system", "metric", "score", "μ ± 95% CI", "tags"]
    notes = [f"{len(record)} record(s); intervals of {n} bootstrap resamples"]
    if plot:
        notes.append(f"the history is drawn in {plot}")
    return Table(["line", *header] if several else header, rows, notes=notes, record=record)


def export_records(ledger: Ledger, path: str | PathLike[str]) -> None:
    """Write every record, statistics included (base64), atomically: one JSON object a line, or
    a CSV row a record when ``path`` ends in ``.csv`` (its tags a JSON list)."""
    from understudy.ledger.ledger import Record

    as_csv = str(path).lower().endswith(".csv")
    with atomic_write(path) as fh:
        text = io.TextIOWrapper(fh, encoding="utf-8", newline="")
        rows = csv.writer(text) if as_csv else None
        if rows is not None:
            rows.writerow([field.name for field in dataclasses.fields(Record)] + ["stats"])
        for record in ledger.records():
            stats = base64.b64encode(ledger.stats(record.id).to_bytes()).decode()
            line = {**record_fields(record), "stats": stats}
            if rows is None:
                text.write(json.dumps(line, ensure_ascii=False) + "\n")
            else:
                rows.writerow(
                    [json.dumps(v, ensure_ascii=False) if key == "tags" else v for key, v in line.items()]
                )
        text.flush()
        text.detach()  # the atomic file closes itself


__all__ = ["export_records", "history_table", "record_fields", "record_table", "records_table"]


@dataclass(frozen=True)
class RecordFilter(Declared):
    """Which records ``ledger list`` shows (:meth:`~understudy.ledger.ledger.Ledger.records`):
    those matching every filter given.

    >>> RecordFilter(metric="bleu").asked()
    {'system': None, 'tag': None, 'metric': 'bleu', 'testset': None, 'since': None, 'until': None}
    """

    system: str | None = option(None, flags=("--system",), help="only this system's records")
    tag: str | None = option(None, flags=("--tag",), help="only records with this tag")
    metric: str | None = option(
        None, flags=("-m", "--metric"), help="only this metric's records (bleu, chrf, ...)"
    )
    testset: str | None = option(None, flags=("--testset",), help="only this test set's records")
    since: str | None = option(
        None, flags=("--since",), metavar="DATE", help="only records kept at or after DATE (ISO, UTC)"
    )
    until: str | None = option(
        None, flags=("--until",), metavar="DATE", help="only records kept before DATE (a date: to its end)"
    )

    def asked(self) -> dict[str, str | None]:
        """The filters, by :meth:`~understudy.ledger.ledger.Ledger.records`'s parameter names."""
        return dataclasses.asdict(self)
