"""Candidate translations, a list per source, as ``understudy mbr`` reads them: a text file of
``per_source`` lines a source, or JSON lines of ``{"candidates": [...]}`` (any number a source).

>>> import os, tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     path = os.path.join(folder, "cands.jsonl")
...     with open(path, "w", encoding="utf-8") as fh:
...         _ = fh.write('{"candidates": ["a b", "a c"]}\\n{"candidates": ["x"]}\\n')
...     read_candidates(path)
[['a b', 'a c'], ['x']]
"""

from __future__ import annotations

import json
from os import PathLike, fspath

from understudy.errors import ConfigError, EmptyInputError, InputFileError
from understudy.inputs.files import read_lines


def read_candidates(path: str | PathLike[str], per_source: int | None = None) -> list[list[str]]:
    """Each source's candidates from ``path``: ``per_source`` lines a source when it is given (a
    text file, whatever its lines look like), else JSON lines; a malformed line is an error naming
    it.

    A text candidate may well start with ``{`` (``{name} logged in``), so only the absence of
    ``per_source`` makes a file JSON lines.
    """
    name = fspath(path)
    lines = read_lines(name)
    if per_source is None:
        if not lines[0].lstrip().startswith("{"):
            raise ConfigError(
                f"{name}: a text file of candidates needs their number a source (-n N);"
                ' without -n each line is JSON: {"candidates": [...]}'
            )
        return [_json_candidates(line, name, k + 1) for k, line in enumerate(lines)]
    if per_source < 1:
        raise ConfigError(f"-n must be at least 1, not {per_source}")
    if len(lines) % per_source:
        raise InputFileError(
            f"{name} has {len(lines)} lines, not a multiple of -n {per_source}: its last source has"
            f" {len(lines) % per_source} candidates"
        )
    return [lines[k : k + per_source] for k in range(0, len(lines), per_source)]


def _json_candidates(line: str, name: str, number: int) -> list[str]:
    """One JSON line's candidates, checked."""
    where = f"{name}, line {number}"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as err:
        raise InputFileError(f'{where}: not JSON ({err.msg}); expected {{"candidates": [...]}}') from None
    found = record.get("candidates") if isinstance(record, dict) else None
    if not isinstance(found, list) or not all(isinstance(c, str) for c in found):
        raise InputFileError(f'{where}: expected {{"candidates": [...]}}, a list of strings')
    if not found:
        raise EmptyInputError(f"{where}: no candidates")
    return found


__all__ = ["read_candidates"]
