"""COMET-poly on CPU: understudy against the fork's ``predict`` (zouharvi/COMET-poly at d559a61,
batch size 16, ``gpus=0``) on 1000 WMT17 segments with the tests' tiny cand1 checkpoint
(tests/support/neural_checkpoints.build_comet_poly), each translation read beside another
system's; the fork in its own environment (--poly-python; see scripts/comet_poly_fixtures.py):

    python benchmarks/comet_poly.py --poly-python /tmp/bs-venv/bin/python

Reported: each tool's wall time (the model's reading apart), understudy's from the filled cache,
the ratio, and the largest difference of their scores. Results: benchmarks/results/comet_poly.json.
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
import comet_poly
data = json.load(open(sys.argv[1]))
start = time.perf_counter()
model = comet_poly.load_from_checkpoint(sys.argv[2] + "/checkpoints/model.ckpt")
read = time.perf_counter() - start
samples = [{"src": s, "mt": m, "mt2": o} for s, m, o in zip(data["src"], data["mt"], data["other"])]
begun = time.perf_counter()
scores = model.predict(samples, batch_size=16, gpus=0, progress_bar=False).scores
print(json.dumps({"wall": time.perf_counter() - begun, "read": read, "scores": [float(s) for s in scores]}))
"""


def lines(name: str) -> list[str]:
    """The first SEGMENTS lines of a WMT17 file."""
    with open(DATA / name, encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(SEGMENTS)]


def ours(model: Path, data: dict[str, list[str]], work: Path) -> dict[str, Any]:
    """understudy's times, cold and from the filled cache, and its scores."""
    from understudy.neural.comet_poly import CometPoly

    cache = work / "cache.sqlite"
    cache.unlink(missing_ok=True)
    start = time.perf_counter()
    metric = CometPoly(model, device="cpu", cache=cache)
    metric.begin()
    out: dict[str, Any] = {"read": time.perf_counter() - start}
    others = [[o] for o in data["other"]]
    for run in ("cold", "cached"):
        begun = time.perf_counter()
        out["scores"] = metric.sentence_scores(data["mt"], sources=data["src"], candidates=others)
        out[run] = time.perf_counter() - begun
    return out


def main() -> None:
    """Run both tools and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--poly-python", required=True, help="python of an environment with the fork")
    parser.add_argument("--work", type=Path, default=Path("/tmp/understudy-comet-poly-bench"))
    args = parser.parse_args()
    import tests.support.neural_checkpoints as nc

    args.work.mkdir(parents=True, exist_ok=True)
    model = nc.build_comet_poly(args.work / "cand1", "cand1")
    data = {
        "src": lines("newstest2017.ref.en-de.de"),
        "mt": lines("newstest2017.uedin-nmt.4722.en-de.de"),
        "other": lines("newstest2017.online-A.0.en-de.de"),
    }
    given = args.work / "data.json"
    given.write_text(json.dumps(data), encoding="utf-8")
    here = ours(model, data, args.work)
    done = subprocess.run(
        [args.poly_python, "-c", REFERENCE, str(given), str(model)],
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    theirs = json.loads(done.stdout.splitlines()[-1])
    result = {
        "segments": SEGMENTS,
        "understudy": {k: round(v, 3) for k, v in here.items() if k != "scores"},
        "comet-poly": {k: round(v, 3) for k, v in theirs.items() if k != "scores"},
        "ratio cold": round(theirs["wall"] / here["cold"], 2),
        "largest difference": max(abs(a - b) for a, b in zip(here["scores"], theirs["scores"], strict=True)),
        "machine": {"python": platform.python_version(), "cpus": len(os.sched_getaffinity(0))},
        "command": "python benchmarks/comet_poly.py --poly-python PYTHON",
    }
    out = REPO / "benchmarks" / "results" / "comet_poly.json"
    from understudy.files.atomic import atomic_write

    with atomic_write(out) as handle:
        handle.write((json.dumps(result, indent=1) + "\n").encode("utf-8"))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
