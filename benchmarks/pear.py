"""PEAR on CPU: understudy against pear-mt 1.1.1's ``score_pairwise`` on 1000 WMT17 segments (two
systems' translations of each, the reference's lines standing in for the source) with the tests'
tiny checkpoint (tests/support/neural_checkpoints.build_pear), pear-mt in its own environment
(--pear-python; see scripts/pear_fixtures.py), at its default batch size (8):

    python benchmarks/pear.py --pear-python /tmp/bs-venv/bin/python

Reported: each tool's wall time (the model's reading apart), understudy's from the filled cache,
the ratio, and the largest difference of their scores. Results: benchmarks/results/pear.json.
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
sys.path.insert(0, str(REPO))
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
SEGMENTS = 1000

REFERENCE = """
import json, sys, time
from pear.inference import load_metric, score_pairwise
data = json.load(open(sys.argv[1]))
start = time.perf_counter()
model = load_metric(sys.argv[2] + "/checkpoints/model.ckpt")
read = time.perf_counter() - start
begun = time.perf_counter()
scores = score_pairwise(model, data["src"], data["a"], data["b"], gpus=0, progress_bar=False)
print(json.dumps({"wall": time.perf_counter() - begun, "read": read, "scores": scores}))
"""


def lines(name: str) -> list[str]:
    """The first SEGMENTS lines of a WMT17 file."""
    with open(DATA / name, encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(SEGMENTS)]


def ours(model: Path, data: dict[str, list[str]], work: Path) -> dict[str, Any]:
    """understudy's times, cold and from the filled cache, and its scores."""
    from understudy.neural.pear import Pear

    cache = work / "cache.sqlite"
    cache.unlink(missing_ok=True)
    start = time.perf_counter()
    metric = Pear(model, device="cpu", cache=cache)
    metric.begin()
    out: dict[str, Any] = {"read": time.perf_counter() - start}
    for run in ("cold", "cached"):
        begun = time.perf_counter()
        out["scores"] = metric.pairwise(data["src"], data["a"], data["b"])
        out[run] = time.perf_counter() - begun
    return out


def main() -> None:
    """Run both tools and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pear-python", required=True, help="python of an environment with pear-mt")
    parser.add_argument("--work", type=Path, default=Path("/tmp/understudy-pear-bench"))
    args = parser.parse_args()
    import tests.support.neural_checkpoints as nc

    args.work.mkdir(parents=True, exist_ok=True)
    model = args.work / "pear"
    if not (model / "hparams.yaml").is_file():
        nc.build_pear(model)
    data = {
        "src": lines("newstest2017.ref.en-de.de"),
        "a": lines("newstest2017.uedin-nmt.4722.en-de.de"),
        "b": lines("newstest2017.online-A.0.en-de.de"),
    }
    given = args.work / "data.json"
    given.write_text(json.dumps(data), encoding="utf-8")
    here = ours(model, data, args.work)
    done = subprocess.run(
        [args.pear_python, "-c", REFERENCE, str(given), str(model)],
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    theirs = json.loads(done.stdout.splitlines()[-1])
    result = {
        "segments": SEGMENTS,
        "understudy": {k: round(v, 3) for k, v in here.items() if k != "scores"},
        "pear-mt": {k: round(v, 3) for k, v in theirs.items() if k != "scores"},
        "ratio cold": round(theirs["wall"] / here["cold"], 2),
        "largest difference": max(abs(a - b) for a, b in zip(here["scores"], theirs["scores"], strict=True)),
        "machine": {"python": platform.python_version(), "cpus": len(os.sched_getaffinity(0))},
        "command": "python benchmarks/pear.py --pear-python PYTHON",
    }
    out = REPO / "benchmarks" / "results" / "pear.json"
    from understudy.files.atomic import atomic_write

    with atomic_write(out) as handle:
        handle.write((json.dumps(result, indent=1) + "\n").encode("utf-8"))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
