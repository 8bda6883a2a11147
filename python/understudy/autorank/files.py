"""The organisers' per-system score files of WMT25 (``data/automatic_scores/<system>.jsonl``,
raw or gzipped): a JSON line per document of a language pair, each metric's scores of its
paragraphs in order (``null`` where a metric gave none). A system is its file's name.

>>> import gzip, json, os, tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     line = {"language_pair": "en-de_DE", "document_id": "d1", "metric_scores": {"m": [0.5, None]}}
...     with gzip.open(os.path.join(folder, "sysA.jsonl.gz"), "wt", encoding="utf-8") as fh:
...         _ = fh.write(json.dumps(line) + "\\n")
...     read_scores(folder)
{'en-de_DE': {'sysA': {'m': [0.5, None]}}}
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections.abc import Collection
from os import PathLike
from pathlib import Path
from typing import Any

from understudy.errors import EmptyInputError, InputFileError

Paragraphs = dict[str, list[float | None]]
"""One system's scores of one language pair: each metric's paragraph scores, in file order."""
Scores = dict[str, dict[str, Paragraphs]]
"""Every language pair's systems' paragraph scores."""
SUFFIXES = (".jsonl.gz", ".jsonl")
_PAIR = re.compile(r'"language_pair"\s*:\s*"([^"\\]*)"')
"""A line's pair, read without parsing it (a pair spelled with escapes is parsed whole)."""


def system_files(folder: Path) -> dict[str, Path]:
    """Each system's file in ``folder`` by system name (a name given twice, raw and gzipped, is
    refused)."""
    if not folder.is_dir():
        raise InputFileError(f"{folder}: no such folder (the organisers' automatic_scores/)")
    found: dict[str, Path] = {}
    for path in sorted(folder.iterdir()):
        suffix = next((s for s in SUFFIXES if path.name.endswith(s)), None)
        if suffix is None or not path.is_file():
            continue
        name = path.name[: -len(suffix)]
        if name in found:
            raise InputFileError(f"{folder}: {name} is there twice ({found[name].name}, {path.name})")
        found[name] = path
    if not found:
        raise EmptyInputError(f"{folder}: no <system>.jsonl or <system>.jsonl.gz files")
    return found


def read_scores(folder: str | PathLike[str], pairs: Collection[str] | None = None) -> Scores:
    """Every system's paragraph scores in ``folder``, by language pair then system (``pairs``:
    only those pairs' documents are parsed)."""
    scores: Scores = {}
    for system, path in system_files(Path(folder)).items():
        for pair, metrics in _read_file(path, pairs).items():
            scores.setdefault(pair, {})[system] = metrics
    return scores


def _read_file(path: Path, pairs: Collection[str] | None = None) -> dict[str, Paragraphs]:
    """One system's file: each pair's metrics' paragraph scores, documents in file order (a line
    that names another pair than ``pairs`` is not parsed)."""
    out: dict[str, Paragraphs] = {}
    try:
        with (
            gzip.open(path, "rt", encoding="utf-8")
            if path.name.endswith(".gz")
            else open(path, encoding="utf-8") as handle
        ):
            for number, line in enumerate(handle, start=1):
                if pairs is not None and (named := _PAIR.search(line)) and named.group(1) not in pairs:
                    continue
                if line.strip():
                    _add(out, _record(line, f"{path}, line {number}"), f"{path}, line {number}")
    except (OSError, EOFError, UnicodeDecodeError) as err:
        raise InputFileError(f"{path}: cannot read ({err})") from None
    return out


def _record(line: str, where: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as err:
        raise InputFileError(f"{where}: not JSON ({err.msg})") from None
    if not isinstance(record, dict) or not isinstance(record.get("metric_scores"), dict):
        raise InputFileError(f'{where}: expected {{"language_pair", "metric_scores": {{METRIC: [...]}}}}')
    if not isinstance(record.get("language_pair"), str):
        raise InputFileError(f"{where}: no language_pair")
    return record


def _add(out: dict[str, Paragraphs], record: dict[str, Any], where: str) -> None:
    """A document's scores appended to its pair's."""
    metrics = out.setdefault(record["language_pair"], {})
    for metric, values in record["metric_scores"].items():
        if not isinstance(values, list):
            raise InputFileError(f"{where}: {metric}'s scores are not a list")
        for value in values:
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value)
            ):
                raise InputFileError(f"{where}: {metric} has {value!r}, not a finite number or null")
        metrics.setdefault(metric, []).extend(None if v is None else float(v) for v in values)


def references_of(testset: str | PathLike[str]) -> dict[str, bool]:
    """Whether each language pair of WMT25's test set (``wmt25-genmt.jsonl``) has human references."""
    from understudy.datasets.wmt_jsonl import pairs
    from understudy.inputs.files import read_bytes

    name = str(testset)
    return {pair: referenced > 0 for pair, (_, referenced) in pairs(read_bytes(name), name).items()}
