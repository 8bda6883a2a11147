"""Resegmentation beside mweralign 1.4.1 (``-m none``), on WMT17's uedin-nmt output (3,004
segments against the reference): as one stream of about 54,000 words, as its first 1,000
segments, and as 20-line documents (``--docids``); and understudy alone on the stream ten times
over (the test set repeated), to show memory stays bounded.

Each run is the command a user types, in a fresh process (start-up included), its wall time and
its peak memory (the process's own, from ``wait4``); the two tools' outputs are checked to hold
the same words in every segment. mweralign comes from the test extra (``pip install -e
'.[test]'``; it is GPL-3 and only ever run, never imported):

    python benchmarks/resegment.py            # writes benchmarks/results/resegment.json

Reported: the median of --repeat runs of each (mweralign's stream case takes most of a minute a
run), the ratios, and understudy's peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
SYSTEM = "uedin-nmt.4722"


def lines(name: str) -> list[str]:
    with open(DATA / f"newstest2017.{name}.en-de.de", encoding="utf-8-sig", newline="\n") as fh:
        return [line.rstrip("\n") for line in fh]


def run(argv: list[str]) -> tuple[float, float, str]:
    """One run in a fresh process: wall seconds, its peak memory in MB, its output."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert child.stdout is not None
    out = child.stdout.read().decode("utf-8")
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{argv[0]} failed ({status}): {' '.join(argv)}")
    return wall, usage.ru_maxrss / 1024, out


def words(output: str) -> list[list[str]]:
    return [line.split() for line in output.split("\n")[:-1]]


def case(work: Path, name: str, refs: list[str], hyps: list[str], docids: list[str] | None) -> list[str]:
    """The case's files written; the arguments shared by both tools."""
    folder = work / name
    folder.mkdir()
    (folder / "ref").write_text("".join(r + "\n" for r in refs), encoding="utf-8")
    (folder / "hyp").write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    if docids is None:
        return [str(folder / "ref"), str(folder / "hyp")]
    (folder / "ids").write_text("".join(d + "\n" for d in docids), encoding="utf-8")
    return [str(folder / "ref"), str(folder / "hyp"), str(folder / "ids")]


def measure(paths: list[str], repeat: int, mweralign: str | None) -> dict[str, Any]:
    """Both tools (or understudy alone) on one case, ``repeat`` times each."""
    ours = [
        "understudy",
        "resegment",
        paths[0],
        paths[1],
        *(["--docids", paths[2]] if len(paths) > 2 else []),
    ]
    runs = [run(ours) for _ in range(repeat)]
    record: dict[str, Any] = {
        "understudy": {"seconds": statistics.median(r[0] for r in runs), "peak_mb": max(r[1] for r in runs)}
    }
    if mweralign is None:
        return record
    theirs_argv = [mweralign, "-m", "none", "-r", paths[0], "-t", paths[1]]
    theirs_argv += ["-d", paths[2]] if len(paths) > 2 else []
    theirs = [run(theirs_argv) for _ in range(repeat)]
    if words(theirs[0][2]) != words(runs[0][2])[: len(words(theirs[0][2]))]:
        sys.exit(f"the outputs differ: {paths}")
    record["mweralign"] = {
        "seconds": statistics.median(r[0] for r in theirs),
        "peak_mb": max(r[1] for r in theirs),
    }
    record["speedup"] = record["mweralign"]["seconds"] / record["understudy"]["seconds"]
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--save", type=Path, default=REPO / "benchmarks" / "results" / "resegment.json")
    args = parser.parse_args()
    mweralign = shutil.which("mweralign", path=str(Path(sys.executable).parent)) or shutil.which("mweralign")
    if mweralign is None:
        sys.exit("mweralign is not installed: pip install -e '.[test]'")
    refs, hyps = lines("ref"), lines(SYSTEM)
    words_in_stream = len(" ".join(hyps).split())
    work = Path(tempfile.mkdtemp(prefix="understudy-reseg-bench-"))
    cases: dict[str, Any] = {}
    try:
        blocks = [" ".join(hyps[k : k + 20]) for k in range(0, len(hyps), 20)]
        docids = [f"block{k // 20}" for k in range(len(refs))]
        plan = [
            ("documents", refs, blocks, docids, args.repeat, mweralign),
            ("stream-1000", refs[:1000], [" ".join(hyps[:1000])], None, args.repeat, mweralign),
            ("stream", refs, [" ".join(hyps)], None, args.repeat, mweralign),
            ("stream-x10", refs * 10, [" ".join(hyps)] * 10, None, 1, None),
        ]
        for name, r, h, d, repeat, peer in plan:
            print(f"{name} ...", file=sys.stderr)
            cases[name] = {"segments": len(r), "words": len(" ".join(h).split())} | measure(
                case(work, name, r, h, d), repeat, peer
            )
    finally:
        shutil.rmtree(work)
    results = {
        "task": f"resegmentation of WMT17 {SYSTEM} ({len(hyps)} segments, {words_in_stream} words)"
        " against the reference, mweralign 1.4.1 -m none beside understudy resegment",
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "runs": args.repeat,
        "cases": cases,
    }
    args.save.parent.mkdir(parents=True, exist_ok=True)
    args.save.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
