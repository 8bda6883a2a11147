"""Reading the segment scores other tools write (COMET, MetricX, mt-metrics-eval, tables).

Formats, told apart by content (or named with ``format=``):

- ``plain``: one score per line, one file per system (as ``understudy score -sl -b`` writes);
- ``metricx``: MetricX's JSONL output, a ``prediction`` per input line, one file per system;
- ``tsv``: a long table ``system<TAB>segment<TAB>score`` (or CSV), segments numbered from 1,
  an optional header: the format ``correlate --human`` reads;
- ``comet``: ``comet-score``'s output, ``FILE<TAB>Segment i<TAB>score: x`` (i from 0), any
  number of systems; its ``FILE<TAB>score: x`` lines are the systems' means and are checked;
- ``comet-json``: ``comet-score --to_json``: ``{FILE: [{..., "COMET": x}, ...]}``;
- ``mt-metrics-eval``: its segment score files, ``SYSTEM<TAB>score``, each system's segments
  in order.

Every error names the file and line and what was expected: a missing or repeated segment, a
score that is not a finite number, systems of different lengths.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "comet.out"
>>> lines = ["a.de\\tSegment 0\\tscore: 0.8000", "a.de\\tSegment 1\\tscore: 0.6000", "a.de\\tscore: 0.7000"]
>>> _ = path.write_text("\\n".join(lines) + "\\n")
>>> read_named_scores(path)
{'a.de': [0.8, 0.6]}
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from os import PathLike, fspath
from pathlib import Path

from understudy.errors import ConfigError, InputFileError
from understudy.inputs.files import finite_number, read_text_file, segment_number, table_rows

PER_SYSTEM = ("plain", "metricx")
"""Formats holding one system per file."""
NAMED = ("tsv", "comet", "comet-json", "mt-metrics-eval")
"""Formats naming their systems, any number per file."""
FORMATS = (*PER_SYSTEM, *NAMED)

_COMET_SEGMENT = re.compile(r"^(.*)\tSegment ([0-9]{1,18})\tscore: (\S+)$")
_JSON_ERRORS = (ValueError, RecursionError)
"""What json.loads raises beyond JSONDecodeError: an integer of more than 4,300 digits, nesting
deeper than the interpreter's stack."""
_COMET_SYSTEM = re.compile(r"^(.*)\tscore: (\S+)$")
_COMET_TOLERANCE = 1e-4  # comet-score prints 4 decimals


def detect_format(text: str, name: str) -> str:
    """The format of a score file's ``text``, from its first line (see the module's list)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    if not first:
        raise InputFileError(f"{name}: no scores (the file is empty)")
    if first.lstrip().startswith(("{", "[")):
        try:
            record = json.loads(first)
        except _JSON_ERRORS:  # a JSON document over several lines, or a line too deep or long to read
            return "metricx" if '"prediction"' in first else "comet-json"
        return "metricx" if isinstance(record, dict) and "prediction" in record else "comet-json"
    if _COMET_SEGMENT.match(first) or _COMET_SYSTEM.match(first):
        return "comet"
    fields = first.split("\t") if "\t" in first else first.split(",")
    if len(fields) == 1:
        return "plain"
    if len(fields) == 2:
        return "mt-metrics-eval"
    if len(fields) == 3:
        return "tsv"
    raise InputFileError(
        f"{name}:1: not a score file understudy reads (one score a line, system<TAB>score, "
        f"system<TAB>segment<TAB>score, comet-score's or MetricX's output); give --scores-format"
    )


def _format_of(path: str, text: str, format: str | None) -> str:
    if format is None:
        return detect_format(text, path)
    if format not in FORMATS:
        raise ConfigError(f"unknown score format {format!r}; known: {', '.join(FORMATS)}")
    return format


def read_scores(path: str | PathLike[str], format: str | None = None) -> dict[str, list[float]] | list[float]:
    """A score file's scores, read once: systems' scores by name from a file that names them
    (``tsv``, ``comet``, ``comet-json``, ``mt-metrics-eval``), else one system's list (``plain``,
    ``metricx``)."""
    name = fspath(path)
    text = read_text_file(name)
    kind = _format_of(name, text, format)
    if kind == "plain":
        return _plain(text, name)
    if kind == "metricx":
        return _metricx(text, name)
    reader = {"tsv": _long_table, "comet": _comet, "comet-json": _comet_json, "mt-metrics-eval": _mme}[kind]
    table = reader(text, name)
    if not table:
        raise InputFileError(f"{name}: no scores")
    _same_lengths(table, name)
    return table


def read_system_scores(path: str | PathLike[str], format: str | None = None) -> list[float]:
    """One system's scores from a ``plain`` or ``metricx`` file."""
    scores = read_scores(path, format)
    if isinstance(scores, dict):
        raise InputFileError(f"{fspath(path)}: holds scores that name their systems, not one system's")
    return scores


def read_named_scores(path: str | PathLike[str], format: str | None = None) -> dict[str, list[float]]:
    """Systems' scores by name from a ``tsv``, ``comet``, ``comet-json`` or ``mt-metrics-eval`` file."""
    scores = read_scores(path, format)
    if not isinstance(scores, dict):
        raise InputFileError(f"{fspath(path)}: holds one system's scores, which name no system")
    return scores


def _lines(text: str) -> list[tuple[int, str]]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [(k, line.rstrip("\r")) for k, line in enumerate(lines, 1)]


def _plain(text: str, name: str) -> list[float]:
    out = []
    for lineno, line in _lines(text):
        if not line.strip():
            raise InputFileError(f"{name}:{lineno}: empty line; expected a score (one per segment)")
        out.append(finite_number(line.strip(), f"{name}:{lineno}"))
    if not out:
        raise InputFileError(f"{name}: no scores")
    return out


def _metricx(text: str, name: str) -> list[float]:
    out = []
    for lineno, line in _lines(text):
        where = f"{name}:{lineno}"
        try:
            record = json.loads(line, parse_constant=lambda c: c)
        except _JSON_ERRORS as err:
            raise InputFileError(f"{where}: not JSON MetricX writes ({_json_reason(err)})") from None
        if not isinstance(record, dict) or "prediction" not in record:
            raise InputFileError(f"{where}: expected a JSON object with a prediction (MetricX's output)")
        value = record["prediction"]
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise InputFileError(f"{where}: the prediction {json.dumps(value)[:40]} is not a number")
        out.append(finite_number(str(value), where))
    if not out:
        raise InputFileError(f"{name}: no scores")
    return out


def _put(table: dict[str, dict[int, float]], system: str, segment: int, value: float, where: str) -> None:
    if segment in table.setdefault(system, {}):
        raise InputFileError(f"{where}: segment {segment} of {system!r} has a score already")
    table[system][segment] = value


def _in_order(table: dict[str, dict[int, float]], name: str, first: int) -> dict[str, list[float]]:
    """Segment-numbered scores as lists, every segment from ``first`` on present."""
    out = {}
    for system, segments in table.items():
        expected = range(first, first + len(segments))
        missing = next((k for k in expected if k not in segments), None)
        if missing is not None:
            raise InputFileError(
                f"{name}: {system!r} has no score for segment {missing} (it has {len(segments)} scores,"
                f" numbered up to {max(segments)}; segments are numbered from {first})"
            )
        out[system] = [segments[k] for k in expected]
    return out


def _long_table(text: str, name: str) -> dict[str, list[float]]:
    dialect = "excel-tab" if "\t" in text.split("\n", 1)[0] else "excel"
    rows = table_rows(text, name, dialect)
    if rows and not _is_number(rows[0][1][-1]):
        rows = rows[1:]  # a header
    table: dict[str, dict[int, float]] = {}
    for lineno, row in rows:
        where = f"{name}:{lineno}"
        if len(row) != 3:
            raise InputFileError(f"{where}: expected system<TAB>segment<TAB>score, found {len(row)} fields")
        _put(table, row[0], segment_number(row[1], where), finite_number(row[2], where), where)
    return _in_order(table, name, 1)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _comet(text: str, name: str) -> dict[str, list[float]]:
    table: dict[str, dict[int, float]] = {}
    means: dict[str, tuple[float, str]] = {}
    for lineno, line in _lines(text):
        where = f"{name}:{lineno}"
        segment = _COMET_SEGMENT.match(line)
        if segment:
            _put(table, segment[1], int(segment[2]), finite_number(segment[3], where), where)
        elif (mean := _COMET_SYSTEM.match(line)) is not None:
            means[mean[1]] = (finite_number(mean[2], where), where)
        elif line.strip() and not line.startswith("Predictions saved in"):
            raise InputFileError(f"{where}: expected FILE<TAB>Segment i<TAB>score: x (comet-score's output)")
    out = _in_order(table, name, 0)
    for system, (printed, where) in means.items():
        if system in out and abs(sum(out[system]) / len(out[system]) - printed) > _COMET_TOLERANCE:
            raise InputFileError(
                f"{where}: {system!r}'s mean {printed} is not the mean of its segment scores"
            )
    return out


def _comet_json(text: str, name: str) -> dict[str, list[float]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputFileError(f"{name}:{err.lineno}: not JSON ({err.msg})") from None
    except _JSON_ERRORS as err:
        raise InputFileError(f"{name}: not JSON comet-score writes ({_json_reason(err)})") from None
    if not isinstance(data, dict):
        raise InputFileError(f"{name}: expected comet-score's JSON, an object of systems' segment lists")
    out = {}
    for system, records in data.items():
        if not isinstance(records, list):
            raise InputFileError(f"{name}: {system!r} is not a list of segments")
        values = []
        for k, record in enumerate(records):
            where = f"{name}: {system!r}, segment {k}"
            value = record.get("COMET") if isinstance(record, dict) else None
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InputFileError(f"{where}: expected an object with a COMET score")
            values.append(finite_number(str(value), where))
        out[system] = values
    return out


def _json_reason(err: Exception) -> str:
    if isinstance(err, json.JSONDecodeError):
        return err.msg
    if isinstance(err, RecursionError):
        return "nested too deeply"
    return str(err).split(";")[0]  # an integer of too many digits


def _mme(text: str, name: str) -> dict[str, list[float]]:
    table: dict[str, list[float]] = {}
    for lineno, line in _lines(text):
        where = f"{name}:{lineno}"
        fields = line.split("\t")
        if len(fields) != 2:
            raise InputFileError(f"{where}: expected SYSTEM<TAB>score, found {len(fields)} fields")
        table.setdefault(fields[0], []).append(finite_number(fields[1], where))
    return table


def _same_lengths(table: Mapping[str, list[float]], name: str) -> None:
    lengths = {system: len(values) for system, values in table.items()}
    first = next(iter(lengths))
    other = next((s for s, n in lengths.items() if n != lengths[first]), None)
    if other is not None:
        raise InputFileError(
            f"{name}: {first!r} has {lengths[first]} segment scores but {other!r} has {lengths[other]}"
        )


def name_variants(name: str) -> set[str]:
    """The names a system goes by: as given, its file name, and that without its last extension.

    >>> sorted(name_variants("out/sys.A.de"))
    ['out/sys.A.de', 'sys.A', 'sys.A.de']
    """
    base = Path(name).name
    return {name, base, base.rsplit(".", 1)[0]}


def _parts(name: str) -> list[str]:
    return [part for part in Path(name).parts if part not in ("", ".")]


def same_system(key: str, wanted: str) -> bool:
    """Whether a table's ``key`` names the system ``wanted`` (a name or a path): where both name
    folders, the shorter's parts end the longer's (``run1/out.de`` is ``/work/run1/out.de``, never
    ``run2/out.de``); else they share a :func:`name_variants` (``out`` is ``run1/out.de``).

    >>> same_system("run1/out.de", "/work/run1/out.de"), same_system("run1/out.de", "run2/out.de")
    (True, False)
    >>> same_system("out", "run1/out.de")
    True
    """
    a, b = _parts(key), _parts(wanted)
    if len(a) > 1 and len(b) > 1:
        short, long = sorted((a, b), key=len)
        return long[len(long) - len(short) :] == short
    return bool(name_variants(key) & name_variants(wanted))


def match_systems(keys: Collection[str], wanted: Sequence[str], where: str) -> list[str]:
    """The key of ``keys`` (a table's systems) that names each of ``wanted``: the same text, else
    the only key :func:`same_system` takes. The one rule for every table of systems (``--scores``,
    ``--human``): a key that two systems claim is refused, naming both.

    >>> match_systems(["a", "b"], ["out/b.de", "out/a.de"], "t.tsv")
    ['b', 'a']
    >>> match_systems(["out.de"], ["run1/out.de", "run2/out.de"], "t.tsv")
    Traceback (most recent call last):
    ...
    understudy.errors.InputFileError: t.tsv: the scores of 'out.de' would serve both run1/out.de and \
run2/out.de; name the systems in the file by their paths (or give --names)
    """
    found: dict[str, str] = {}
    for system in wanted:
        key = system if system in keys else _only_match(keys, system, where)
        if key in found:
            raise InputFileError(
                f"{where}: the scores of {key!r} would serve both {found[key]} and {system}; name the "
                "systems in the file by their paths (or give --names)"
            )
        found[key] = system
    return list(found)


def named_systems(
    table: Collection[str], inputs: Sequence[str], names: Sequence[str] | None, where: str
) -> list[str]:
    """The systems of ``inputs`` (their files) as the table of ``where`` (a human or metric
    score file) names them, in order: ``names`` as given, else each path matched to the table's
    systems (:func:`match_systems`).

    >>> named_systems({"sysA": -1.0, "sysB": -2.0}, ["out/sysA.de", "out/sysB.de"], None, "human.tsv")
    ['sysA', 'sysB']
    >>> named_systems({"A": 1.0}, ["a.de"], ["B"], "human.tsv")
    Traceback (most recent call last):
    ...
    understudy.errors.InputFileError: human.tsv has no score for B; it scores A
    """
    if not names:
        try:
            return match_systems(table, inputs, where)
        except InputFileError as err:
            raise InputFileError(f"{err} (give the systems' names with --names)") from None
    if len(names) != len(inputs):
        raise ConfigError(f"--names gives {len(names)} names for {len(inputs)} systems")
    if len(set(names)) != len(names):
        twice = ", ".join(sorted({n for n in names if names.count(n) > 1}))
        raise ConfigError(f"two systems have the same name: {twice}")
    missing = [n for n in names if n not in table]
    if missing:
        raise InputFileError(
            f"{where} has no score for {', '.join(missing)}; it scores {', '.join(sorted(table))}"
        )
    return list(names)


def _only_match(keys: Collection[str], wanted: str, where: str) -> str:
    matches = [key for key in keys if same_system(key, wanted)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise InputFileError(f"{where}: {wanted!r} could be any of {', '.join(map(repr, matches))}")
    known = ", ".join(sorted(keys)[:8]) + (", ..." if len(keys) > 8 else "")
    raise InputFileError(f"{where} has no scores for system {wanted!r}; it scores {known}")


def select_systems(
    table: Mapping[str, list[float]], systems: Sequence[str], where: str
) -> dict[str, list[float]]:
    """The scores of ``systems`` (names or paths, see :func:`match_systems`), in that order."""
    keys = match_systems(table, systems, where)
    return {system: table[key] for system, key in zip(systems, keys, strict=True)}


def scores_by_system(
    name: str, paths: Sequence[str], systems: Sequence[str] | None = None, format: str | None = None
) -> tuple[dict[str, list[float]], list[str], dict[str, str]]:
    """One metric's segment scores by system from ``paths`` (one file naming its systems, or one
    file a system), the systems' names, and the file of each system's scores. With ``systems``,
    a file's systems are matched to them (:func:`select_systems`) and files of one system each
    are taken in their order; without, the files' own names name them.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "sysA.txt").write_text("0.5\\n0.25\\n")
    >>> scores_by_system("COMET", [str(folder / "sysA.txt")])[:2]
    ({'sysA': [0.5, 0.25]}, ['sysA'])
    """
    read = [read_scores(p, format) for p in paths]
    named = [r for r in read if isinstance(r, dict)]
    if named:
        if len(paths) > 1:
            raise ConfigError(f"{name}: give one file that names its systems, or one file per system")
        chosen = named[0] if systems is None else select_systems(named[0], systems, paths[0])
        return chosen, list(chosen), dict.fromkeys(chosen, paths[0])
    if systems is None:
        systems = [Path(p).name.rsplit(".", 1)[0] for p in paths]
        if len(set(systems)) != len(systems):
            raise ConfigError(
                f"{name}: two score files have the same name; the systems are named by the files"
            )
    elif len(paths) != len(systems):
        raise ConfigError(
            f"{name}: {len(paths)} score file(s) of one system each for {len(systems)} systems;"
            " give one per system, in -i order"
        )
    table = {s: r for s, r in zip(systems, read, strict=True) if isinstance(r, list)}
    return table, list(systems), dict(zip(systems, paths, strict=True))


__all__ = [
    "FORMATS",
    "NAMED",
    "PER_SYSTEM",
    "detect_format",
    "match_systems",
    "name_variants",
    "named_systems",
    "read_named_scores",
    "read_scores",
    "read_system_scores",
    "same_system",
    "scores_by_system",
    "select_systems",
]
