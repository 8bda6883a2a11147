"""mt-metrics-eval's EvalSet layout, read as ``correlate --evalset DIR --lp PAIR`` takes it.

A test set's folder (``wmt23``, say) holds, for each language pair::

    sources/PAIR.txt
    references/PAIR.NAME.txt              one per reference (refA, refB, ...)
    system-outputs/PAIR/SYSTEM.txt        one per system (a reference's name: a human output)
    human-scores/PAIR.SCORER.seg.score    SYSTEM<TAB>score, each system's segments in order,
    human-scores/PAIR.SCORER.sys.score    None where unrated; SYSTEM<TAB>score
    metric-scores/PAIR/METRIC-REF.seg.score   as the human files (METRIC-src: no reference)

Human outputs (systems named as a reference) are left out, as mt-metrics-eval leaves them out by
default; so is the reference scored against.

>>> import pathlib, tempfile
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> files = {
...     "references/de-en.refA.txt": "a b\\nc d\\n",
...     "system-outputs/de-en/s1.txt": "a b\\nc\\n",
...     "system-outputs/de-en/s2.txt": "a\\nc d\\n",
...     "human-scores/de-en.mqm.seg.score": "s1\\t0\\ns1\\t-1\\ns2\\t-5\\ns2\\tNone\\n",
... }
>>> for path, text in files.items():
...     (root / path).parent.mkdir(parents=True, exist_ok=True)
...     _ = (root / path).write_text(text)
>>> found = read_evalset(root, "de-en")
>>> found.reference_name, sorted(found.systems), found.human.segments["s2"], found.human.system["s1"]
('refA', ['s1', 's2'], {1: -5.0}, -0.5)
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from pathlib import Path

from understudy.errors import InputFileError
from understudy.inputs.files import finite_number, read_text_file
from understudy.inputs.human import HumanScores


@dataclass(frozen=True)
class EvalSet:
    """The files of one language pair of an EvalSet folder."""

    reference_name: str
    reference: Path
    systems: dict[str, Path]
    human: HumanScores
    metrics: dict[str, Path]
    """Segment score files of the metrics scored against the chosen reference (or none)."""


def _one(found: dict[str, Path], wanted: str | None, what: str, preferred: str, where: Path) -> str:
    if not found:
        raise InputFileError(f"{where}: no {what} files")
    if wanted is not None:
        if wanted not in found:
            raise InputFileError(f"{where}: no {what} {wanted!r}; there are {', '.join(sorted(found))}")
        return wanted
    if len(found) == 1:
        return next(iter(found))
    if preferred in found:
        return preferred
    raise InputFileError(f"{where}: several {what}s ({', '.join(sorted(found))}): name one")


def read_score_file(path: Path) -> dict[str, list[float | None]]:
    """An mt-metrics-eval score file: each system's scores in order, ``None`` where unrated."""
    out: dict[str, list[float | None]] = {}
    for number, line in enumerate(read_text_file(str(path)).splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split()
        if len(fields) != 2:
            raise InputFileError(f"{path}:{number}: expected SYSTEM and a score, found {len(fields)} fields")
        value = None if fields[1] == "None" else finite_number(fields[1], f"{path}:{number}")
        out.setdefault(fields[0], []).append(value)
    return out


def _human(folder: Path, pair: str, scorer: str | None) -> tuple[HumanScores, str]:
    found = {p.name[len(pair) + 1 : -len(".seg.score")]: p for p in folder.glob(f"{pair}.*.seg.score")}
    name = _one(found, scorer, "segment-level human score", "mqm", folder)
    segments = {
        system: {k: v for k, v in enumerate(scores, 1) if v is not None}
        for system, scores in read_score_file(found[name]).items()
    }
    system_file = folder / f"{pair}.{name}.sys.score"
    if system_file.exists():
        system = {s: v[0] for s, v in read_score_file(system_file).items() if v and v[0] is not None}
    else:
        system = {s: sum(v.values()) / len(v) for s, v in segments.items() if v}
    return HumanScores(system, {s: v for s, v in segments.items() if v}, str(found[name])), name


def read_evalset(
    root: str | PathLike[str], pair: str, reference: str | None = None, scorer: str | None = None
) -> EvalSet:
    """The files of ``pair`` in the EvalSet folder ``root``: the reference ``reference`` (default:
    the only one, else ``refA``), the systems that are not references, the human scores of
    ``scorer`` (default: the only one, else ``mqm``), and the metrics scored against that reference."""
    root = Path(root)
    refs = {p.name[len(pair) + 1 : -len(".txt")]: p for p in (root / "references").glob(f"{pair}.*.txt")}
    ref = _one(refs, reference, "reference", "refA", root / "references")
    outputs = root / "system-outputs" / pair
    systems = {p.stem: p for p in sorted(outputs.glob("*.txt")) if p.stem not in refs}
    if not systems:
        raise InputFileError(f"{outputs}: no system outputs")
    human, _ = _human(root / "human-scores", pair, scorer)
    metrics = {
        p.name[: -len(f"-{ref}.seg.score")]: p
        for p in sorted((root / "metric-scores" / pair).glob(f"*-{ref}.seg.score"))
    }
    return EvalSet(ref, refs[ref], systems, human, metrics)


__all__ = ["EvalSet", "read_evalset", "read_score_file"]
