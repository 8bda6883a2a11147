"""COMET-22 at its real size on CPU: understudy against unbabel-comet 2.2.7's Python predict.

The model is a randomly initialised checkpoint of wmt22-comet-da's shape (XLM-R large: 24 layers,
hidden 1024, 250,002 embedding rows; the estimator 3072-1024), built once into --work by
tests/neural_checkpoints.py (the tests' small tokenizer stands in for XLM-R's: no hub is
reachable, and both tools read the same one). The data are 4 WMT17 systems x 200 segments
against the reference; a fifth system's lines stand in for the English source the shared data
lack (a text of its own, so that nothing is shared that would not be). Each tool runs once, in
its own process (unbabel-comet in its own environment, --comet-python), fp32 on the CPU:

    python benchmarks/neural.py --comet-python /tmp/comet-venv/bin/python

Reported: wall time and peak memory of each, understudy cold (no cache) and re-run (the cache
filled by the cold run), the ratios, and the largest difference between the two tools' segment
scores. Results go to benchmarks/results/neural-SIZE.json (with the machine and versions).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
SYSTEMS = ["uedin-nmt.4722", "online-A.0", "PROMT-Rule-based.4735", "online-B.0"]
SOURCE_STAND_IN = "KIT.4950"
SEGMENTS = 200

REFERENCE = """
import json, sys, time
from comet import load_from_checkpoint
data = json.load(open(sys.argv[1]))
start = time.perf_counter()
model = load_from_checkpoint(sys.argv[2] + "/checkpoints/model.ckpt")
triples = [(s, h, r) for hyps in data["systems"] for s, h, r in zip(data["src"], hyps, data["ref"])]
samples = [{"src": s, "mt": h, "ref": r} for s, h, r in triples]
out = model.predict(samples, batch_size=16, gpus=0, progress_bar=False)
import resource
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": time.perf_counter() - start, "scores": list(out.scores), "peak_mb": peak}))
"""

OURS = """
import json, sys, time
start = time.perf_counter()
from understudy.neural import COMET
data = json.load(open(sys.argv[1]))
metric = COMET(sys.argv[2], batch_size=16, cache=None if sys.argv[3] == "none" else sys.argv[3])
systems = {str(k): hyps for k, hyps in enumerate(data["systems"])}
scores = metric.system_scores(systems, data["ref"], data["src"])
flat = [s for k in systems for s in scores.sentence_scores(k).tolist()]
import resource
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "scores": flat, "computed": metric.computed, "peak_mb": peak}))
"""


def lines(name: str) -> list[str]:
    path = DATA / f"newstest2017.{name}.en-de.de"
    with open(path, encoding="utf-8-sig", newline="\n") as fh:
        return [line.rstrip("\n") for line in fh][:SEGMENTS]


def run(python: str, code: str, *argv: str) -> dict[str, Any]:
    """A tool's run in a fresh process: its JSON answer (with its own peak memory) and the wall
    time, start-up and imports included."""
    start = time.perf_counter()
    done = subprocess.run([python, "-c", code, *argv], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{python} failed:\n{done.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer | {"wall": wall}


def main() -> None:
    """Build the model and data, run both tools, write and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--comet-python", required=True, help="python of an environment with unbabel-comet 2.2.7"
    )
    parser.add_argument("--work", type=Path, default=Path("/tmp/understudy-neural-bench"))
    parser.add_argument("--size", choices=["large", "tiny"], default="large", help="tiny: a smoke run")
    parser.add_argument("--segments", type=int, default=SEGMENTS)
    args = parser.parse_args()
    import neural_checkpoints as nc

    model = args.work / f"comet22-{args.size}-random"
    if not (model / "checkpoints" / "model.ckpt").exists():
        print(f"building the {args.size} checkpoint ...", file=sys.stderr)
        nc.build_regression(model, 7, size=args.size)
    n = args.segments
    data = {
        "src": lines(SOURCE_STAND_IN)[:n],
        "ref": lines("ref")[:n],
        "systems": [lines(s)[:n] for s in SYSTEMS],
    }
    given = args.work / "data.json"
    given.write_text(json.dumps(data), encoding="utf-8")
    cache = args.work / "cache.sqlite"
    cache.unlink(missing_ok=True)
    print("understudy, cold ...", file=sys.stderr)
    cold = run(sys.executable, OURS, str(given), str(model), str(cache))
    print("understudy, cached ...", file=sys.stderr)
    cached = run(sys.executable, OURS, str(given), str(model), str(cache))
    print("unbabel-comet ...", file=sys.stderr)
    reference = run(args.comet_python, REFERENCE, str(given), str(model))
    diff = max(abs(a - b) for a, b in zip(cold["scores"], reference["scores"], strict=True))
    results = {
        "task": f"COMET-22 ({args.size}), random weights, CPU fp32, {len(SYSTEMS)} systems x {n} segments",
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "unbabel_comet": {k: reference[k] for k in ("wall", "peak_mb")},
        "understudy_cold": {k: cold[k] for k in ("wall", "peak_mb", "computed")},
        "understudy_cached": {k: cached[k] for k in ("wall", "computed")},
        "ratio_cold": reference["wall"] / cold["wall"],
        "ratio_cached": reference["wall"] / cached["wall"],
        "max_segment_difference": diff,
    }
    out = REPO / "benchmarks" / "results" / f"neural-{args.size}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
