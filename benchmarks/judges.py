"""An LLM judge's run against an endpoint that takes 200 ms an answer: how close understudy comes
to the bound the endpoint sets, and what a cached re-run costs.

The endpoint is the stand-in of the tests (``python -m understudy.judges.mock --latency 0.2``),
in a process of its own; it makes up a GEMBA-MQM answer from each hypothesis. The run is the
command a user types, in a fresh process each time (start-up included): 1000 segments of a WMT17
system (the reference's lines stand in for the English source the shared data lack), GEMBA-MQM
at ``--judge-concurrency 16``:

    python benchmarks/judges.py            # writes benchmarks/results/judges.json

The bound is the endpoint's: ceil(1000 / 16) rounds of 200 ms = 12.6 s. Cold runs start from an
empty cache; cached runs re-run the command on the cache the first cold run filled (no request).
Reported: the median wall time of each over --repeat runs, the bound, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import math
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


def lines(name: str, count: int) -> list[str]:
    """The first ``count`` lines of a WMT17 file, as the command line reads them."""
    with open(DATA / f"newstest2017.{name}.en-de.de", encoding="utf-8-sig", newline="\n") as fh:
        return [line.rstrip("\n") for line in fh][:count]


def start_endpoint(latency: float) -> tuple[subprocess.Popen[str], str]:
    """The stand-in endpoint in its own process, and its URL once it listens."""
    argv = [sys.executable, "-m", "understudy.judges.mock", "--latency", str(latency), "--idle", "600"]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    return server, server.stdout.readline().strip()


def timed(argv: list[str], cache: Path) -> float:
    """One run of the command in a fresh process: its wall time (it must succeed)."""
    env = {**os.environ, "UNDERSTUDY_CACHE": str(cache)}
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"the run failed:\n{done.stderr[-2000:]}")
    return wall


def measure(args: argparse.Namespace, work: Path, url: str) -> dict[str, Any]:
    """The median cold and cached wall times of the command over ``--repeat`` runs each."""
    for name, texts in (("src", lines("ref", args.segments)), ("hyp", lines(SYSTEM, args.segments))):
        (work / name).write_text("\n".join(texts) + "\n", encoding="utf-8")
    argv = ["understudy", "score", str(work / "src"), "-i", str(work / "hyp"), "-m", "gemba-mqm"]
    argv += ["--source", str(work / "src"), "-l", "en-de", "--judge-url", url, "--judge-model", "mock"]
    argv += ["--judge-concurrency", str(args.concurrency), "-q"]
    cold = []
    for k in range(args.repeat):
        print(f"cold run {k + 1} ...", file=sys.stderr)
        cache = work / f"cache-{k}"
        cold.append(timed(argv, cache))
    cached = [timed(argv, work / "cache-0") for _ in range(args.repeat)]
    bound = math.ceil(args.segments / args.concurrency) * args.latency
    return {
        "task": f"GEMBA-MQM, {args.segments} segments, concurrency {args.concurrency},"
        f" an endpoint taking {args.latency * 1000:.0f} ms an answer",
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "runs": args.repeat,
        "cold_seconds": statistics.median(cold),
        "cached_seconds": statistics.median(cached),
        "bound_seconds": bound,
        "cold_over_bound": statistics.median(cold) / bound,
        "all_cold": cold,
        "all_cached": cached,
    }


def main() -> None:
    """Start the endpoint, run the command cold and cached, write and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds an answer takes")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each (the median is reported)")
    parser.add_argument("--save", type=Path, default=REPO / "benchmarks" / "results" / "judges.json")
    args = parser.parse_args()
    server, url = start_endpoint(args.latency)
    work = Path(tempfile.mkdtemp(prefix="understudy-judge-bench-"))
    try:
        results = measure(args, work, url)
    finally:
        server.terminate()
        server.wait()
        shutil.rmtree(work)
    args.save.parent.mkdir(parents=True, exist_ok=True)
    args.save.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
