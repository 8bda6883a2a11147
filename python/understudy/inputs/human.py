"""Human scores: read from TSV, CSV, JSON or the WMT MQM annotation format.

A :class:`HumanScores` holds, per system, a system-level score and (when the file
has them) segment-level scores by 1-based segment number; missing segments are
allowed. Higher is better (MQM scores are penalties with their sign flipped).

Formats, told apart by content:

- TSV or CSV, ``system<TAB>score`` (system level) or ``system<TAB>segment<TAB>score``
  (segment level; a system's score is then the mean of its segments); a first line
  whose score column is not a number is a header;
- JSON: ``{"system": score}``, ``{"system": {"segment": score}}``, or a list of
  ``{"system", "segment", "score"}`` records;
- MQM annotations as the WMT metrics tasks publish them: a TSV with a header naming
  ``system``, ``seg_id``, ``rater``, ``category`` and ``severity`` (``doc``/``doc_id``
  too), one row per error; see :func:`read_mqm`.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "human.tsv"
>>> _ = path.write_text("system\\tmqm\\nA\\t-1.5\\nB\\t-0.5\\n")
>>> read_human(path).system
{'A': -1.5, 'B': -0.5}
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from dataclasses import dataclass, field
from os import PathLike, fspath

from understudy.errors import InputFileError
from understudy.inputs.files import finite_number, read_text_file, segment_number, table_rows

MQM_WEIGHTS = {"major": 5.0, "minor": 1.0, "minor punctuation": 0.1, "non-translation": 25.0}
"""Freitag et al. (2021): a major error weighs 5, a minor 1, a minor punctuation error 0.1, a
non-translation 25 (whatever its severity); neutral and no-error rows weigh 0."""

MQM_COLUMNS = ("system", "seg_id", "rater", "category", "severity")
"""The columns an MQM annotation file must name in its header."""


@dataclass(frozen=True)
class HumanScores:
    """System-level scores and, when given, segment-level scores (segment number to score)."""

    system: dict[str, float]
    segments: dict[str, dict[int, float]] = field(default_factory=dict)
    source: str = ""

    @property
    def has_segments(self) -> bool:
        """Whether segment-level scores were given."""
        return bool(self.segments)


def _from_segments(segments: dict[str, dict[int, float]], source: str) -> HumanScores:
    system = {name: sum(scores.values()) / len(scores) for name, scores in segments.items() if scores}
    return _nonempty(HumanScores(system, {n: s for n, s in segments.items() if s}, source))


def _nonempty(human: HumanScores) -> HumanScores:
    if not human.system:
        raise InputFileError(f"{human.source}: no human scores (a header, or an empty list, alone)")
    return human


def _read_table(text: str, name: str) -> HumanScores:
    dialect = "excel-tab" if "\t" in text.split("\n", 1)[0] else "excel"
    rows = table_rows(text, name, dialect)
    if not rows:
        raise InputFileError(f"{name}: no human scores")
    width = len(rows[0][1])
    if width not in (2, 3):
        raise InputFileError(
            f"{name}:{rows[0][0]}: expected system<TAB>score or system<TAB>segment<TAB>score"
        )
    try:
        float(rows[0][1][-1])
    except ValueError:
        rows = rows[1:]  # a header
    system: dict[str, float] = {}
    segments: dict[str, dict[int, float]] = defaultdict(dict)
    for lineno, row in rows:
        where = f"{name}:{lineno}"
        if len(row) != width:
            raise InputFileError(f"{where}: expected {width} fields, found {len(row)}")
        if width == 2:
            if row[0] in system:
                raise InputFileError(f"{where}: system {row[0]!r} has a score already")
            system[row[0]] = finite_number(row[1], where)
            continue
        segment = segment_number(row[1], where)
        if segment in segments[row[0]]:
            raise InputFileError(f"{where}: segment {segment} of {row[0]!r} has a score already")
        segments[row[0]][segment] = finite_number(row[2], where)
    return _from_segments(dict(segments), name) if width == 3 else _nonempty(HumanScores(system, {}, name))


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKeyError(key)
        out[key] = value
    return out


class _DuplicateKeyError(Exception):
    pass


def _parse_json(text: str, name: str) -> object:
    # Integers are read as floats: a 5,000-digit score is then an infinity refused by _number, not
    # Python's digit limit; duplicate keys are refused as the TSV reader refuses duplicate rows.
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_int=float)
    except json.JSONDecodeError as err:
        raise InputFileError(f"{name}:{err.lineno}: not JSON: {err.msg}") from None
    except _DuplicateKeyError as err:
        raise InputFileError(f"{name}: key {err.args[0]!r} is given twice in one object") from None
    except RecursionError:
        raise InputFileError(f"{name}: JSON nested too deeply for human scores") from None


def _put(segments: dict[str, dict[int, float]], system: str, segment: int, value: float, where: str) -> None:
    if segment in segments[system]:
        raise InputFileError(f"{where}: segment {segment} of {system!r} has a score already")
    segments[system][segment] = value


def _read_json(text: str, name: str) -> HumanScores:
    data = _parse_json(text, name)
    segments: dict[str, dict[int, float]] = defaultdict(dict)
    if isinstance(data, list):
        for k, record in enumerate(data):
            where = f"{name}: record {k + 1}"
            if not isinstance(record, dict) or not {"system", "segment", "score"} <= set(record):
                raise InputFileError(f"{where}: expected an object with system, segment and score")
            segment = segment_number(_scalar(record["segment"], where), where)
            _put(
                segments,
                _scalar(record["system"], where),
                segment,
                finite_number(_scalar(record["score"], where), where),
                where,
            )
        return _from_segments(dict(segments), name)
    if not isinstance(data, dict) or not data:
        raise InputFileError(f"{name}: expected an object of system scores or a list of records")
    if all(isinstance(v, dict) for v in data.values()):
        for system, scores in data.items():
            where = f"{name}: {system}"
            assert isinstance(scores, dict)
            for segment, value in scores.items():
                _put(
                    segments,
                    system,
                    segment_number(segment, where),
                    finite_number(_scalar(value, where), where),
                    where,
                )
        return _from_segments(dict(segments), name)
    return HumanScores(
        {s: finite_number(_scalar(v, f"{name}: {s}"), f"{name}: {s}") for s, v in data.items()}, {}, name
    )


def _scalar(value: object, where: str) -> str:
    if isinstance(value, (dict, list)) or value is None or isinstance(value, bool):
        raise InputFileError(f"{where}: expected a number or a name, got {json.dumps(value)[:40]}")
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))  # integers were parsed as floats; "3" not "3.0" for segment numbers
    return str(value)


def mqm_weight(category: str, severity: str) -> float:
    """The weight of one MQM annotation row (Freitag et al. 2021).

    >>> mqm_weight("Accuracy/Mistranslation", "Major"), mqm_weight("Fluency/Punctuation", "Minor")
    (5.0, 0.1)
    >>> mqm_weight("Non-translation!", "Major"), mqm_weight("No-error", "No-error")
    (25.0, 0.0)
    """
    category, severity = category.strip().lower(), severity.strip().lower()
    if category.startswith("non-translation"):
        return MQM_WEIGHTS["non-translation"]
    if severity == "major":
        return MQM_WEIGHTS["major"]
    if severity == "minor":
        return MQM_WEIGHTS["minor punctuation" if category == "fluency/punctuation" else "minor"]
    return 0.0


def read_mqm(path: str | PathLike[str]) -> HumanScores:
    """MQM scores from a WMT MQM annotation file: per rater, a segment's penalty is the sum of
    its rows' weights; a segment's score is minus the mean penalty over the raters who rated it,
    and a system's the mean over its segments (so higher is better)."""
    name = fspath(path)
    text = read_text_file(name)
    numbered = table_rows(text, name, "excel-tab", quoting=csv.QUOTE_NONE)
    rows = [row for _, row in numbered]
    if not rows:
        raise InputFileError(f"{name}: empty MQM file")
    header = [h.strip().lower() for h in rows[0]]
    missing = [c for c in MQM_COLUMNS if c not in header]
    if missing:
        need = ", ".join(MQM_COLUMNS)
        raise InputFileError(
            f"{name}:1: an MQM header needs the columns {need}; missing {', '.join(missing)}"
        )
    col = {c: header.index(c) for c in MQM_COLUMNS}
    doc = next((header.index(c) for c in ("doc", "doc_id") if c in header), None)
    penalties: dict[str, dict[int, dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    document_of: dict[int, tuple[str, int]] = {}
    for lineno, row in numbered[1:]:
        if len(row) < len(header):
            raise InputFileError(
                f"{name}:{lineno}: expected {len(header)} TAB-separated fields, found {len(row)}"
            )
        where = f"{name}:{lineno}"
        segment = segment_number(row[col["seg_id"]], where)
        _check_one_document(document_of, segment, row[doc] if doc is not None else "", where, lineno)
        rater = row[col["rater"]]
        by_rater = penalties[row[col["system"]]][segment]
        by_rater[rater] = by_rater.get(rater, 0.0) + mqm_weight(row[col["category"]], row[col["severity"]])
    segments = {
        system: {seg: -sum(raters.values()) / len(raters) for seg, raters in sorted(per.items())}
        for system, per in penalties.items()
    }
    return _from_segments(segments, name)


def _check_one_document(
    document_of: dict[int, tuple[str, int]], segment: int, document: str, where: str, lineno: int
) -> None:
    """Refuses a segment number used by two documents: segments are numbered across the test set
    (they are lines of the hypothesis files), so a number restarting per document is ambiguous."""
    first = document_of.setdefault(segment, (document, lineno))
    if first[0] != document:
        raise InputFileError(
            f"{where}: segment {segment} is in document {document!r} and, on line {first[1]}, in"
            f" {first[0]!r}: seg_id must number the segments across the whole test set"
        )


def read_human(path: str | PathLike[str]) -> HumanScores:
    """Human scores from a TSV, CSV, JSON or MQM annotation file (told apart by content)."""
    name = fspath(path)
    text = read_text_file(name)
    first = text.lstrip()[:1]
    if first in ("{", "["):
        return _read_json(text, name)
    header = [h.strip().lower() for h in text.split("\n", 1)[0].split("\t")]
    if all(c in header for c in MQM_COLUMNS):
        return read_mqm(name)
    return _read_table(text, name)


__all__ = ["MQM_COLUMNS", "MQM_WEIGHTS", "HumanScores", "mqm_weight", "read_human", "read_mqm"]
