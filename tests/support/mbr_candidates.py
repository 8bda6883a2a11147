"""The MBR test's candidates: for each of the first WMT17 en-de sources, the 16 systems'
translations and one variant of each (a word dropped, or two neighbours swapped, chosen by the
line and system numbers), 32 a source. scripts/mbrs_fixtures.py and tests/test_mbr.py both
build them here, so that mbrs' recorded choices and understudy's are of the same lists."""

from __future__ import annotations

from pathlib import Path

from tests.support.paths import SHARED, read_raw


def _variant(line: str, line_number: int, system: int) -> str:
    words = line.split()
    at = line_number + system
    if system % 2 == 0 and len(words) > 1:
        del words[at % len(words)]
    elif len(words) > 2:
        j = at % (len(words) - 1)
        words[j], words[j + 1] = words[j + 1], words[j]
    return " ".join(words)


def candidates(sources: int = 300, folder: Path = SHARED, rounds: int = 1) -> list[list[str]]:
    """Each source's candidates: the systems' lines (in file-name order), then their variants,
    ``rounds`` of them (each round varies the last: 32 candidates a source, 64 with 3 rounds)."""
    files = sorted(p for p in folder.glob("newstest2017.*.en-de.de") if ".ref." not in p.name)
    systems = [read_raw(path)[:sources] for path in files]
    lists = []
    for k in range(sources):
        listed = [lines[k] for lines in systems]
        for _ in range(rounds):
            listed += [_variant(line, k, s) for s, line in enumerate(listed[-len(systems) :])]
        lists.append(listed)
    return lists
