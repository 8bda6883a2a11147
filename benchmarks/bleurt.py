"""BLEURT-20 on CPU: understudy against bleurt-pytorch (its README's call, 16 rows at a time in
input order, cut at 512 positions as scripts/bleurt_fixtures.py calls it) on 1000 WMT17
hypotheses and references with the tests' tiny checkpoint
(tests/support/neural_checkpoints.build_bleurt), bleurt-pytorch in its own environment
(--bleurt-python; see scripts/bleurt_fixtures.py):

    python benchmarks/bleurt.py --bleurt-python /tmp/bs-venv/bin/python

Reported: each tool's wall time (the model's reading apart), understudy's from the filled cache,
the ratio, and the largest difference of their scores. Results: benchmarks/results/bleurt.json.
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
BATCH = 16

REFERENCE = """
import json, sys, time
import torch
from bleurt_pytorch import BleurtForSequenceClassification, BleurtTokenizer
data = json.load(open(sys.argv[1]))
start = time.perf_counter()
model = BleurtForSequenceClassification.from_pretrained(sys.argv[2]).eval()
tokenizer = BleurtTokenizer.from_pretrained(sys.argv[2])
read = time.perf_counter() - start
begun = time.perf_counter()
scores, size = [], int(sys.argv[3])
with torch.no_grad():
    for k in range(0, len(data["hyps"]), size):
        inputs = tokenizer(data["refs"][k : k + size], data["hyps"][k : k + size], padding="longest",
                           truncation=True, max_length=512, return_tensors="pt")
        scores += model(**inputs).logits.flatten().tolist()
print(json.dumps({"wall": time.perf_counter() - begun, "read": read, "scores": scores}))
"""


def lines(name: str) -> list[str]:
    """The first SEGMENTS lines of a WMT17 file."""
    with open(DATA / name, encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(SEGMENTS)]


def ours(model: Path, data: dict[str, list[str]], work: Path) -> dict[str, Any]:
    """understudy's times, cold and from the filled cache, and its scores."""
    from understudy.neural.bleurt import BLEURT

    cache = work / "cache.sqlite"
    cache.unlink(missing_ok=True)
    start = time.perf_counter()
    metric = BLEURT(model, device="cpu", cache=cache, batch_size=BATCH)
    metric.begin()
    out: dict[str, Any] = {"read": time.perf_counter() - start}
    for run in ("cold", "cached"):
        begun = time.perf_counter()
        out["scores"] = metric.sentence_scores(data["hyps"], data["refs"])
        out[run] = time.perf_counter() - begun
    return out


def main() -> None:
    """Run both tools and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bleurt-python", required=True, help="python of an environment with bleurt-pytorch")
    parser.add_argument("--work", type=Path, default=Path("/tmp/understudy-bleurt-bench"))
    args = parser.parse_args()
    import tests.support.neural_checkpoints as nc

    args.work.mkdir(parents=True, exist_ok=True)
    model = nc.build_bleurt(args.work / "bleurt")
    data = {"hyps": lines("newstest2017.uedin-nmt.4722.en-de.de"), "refs": lines("newstest2017.ref.en-de.de")}
    given = args.work / "data.json"
    given.write_text(json.dumps(data), encoding="utf-8")
    here = ours(model, data, args.work)
    done = subprocess.run(
        [args.bleurt_python, "-c", REFERENCE, str(given), str(model), str(BATCH)],
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    theirs = json.loads(done.stdout.splitlines()[-1])
    result = {
        "segments": SEGMENTS,
        "batch size": BATCH,
        "understudy": {k: round(v, 3) for k, v in here.items() if k != "scores"},
        "bleurt-pytorch": {k: round(v, 3) for k, v in theirs.items() if k != "scores"},
        "ratio cold": round(theirs["wall"] / here["cold"], 2),
        "largest difference": max(abs(a - b) for a, b in zip(here["scores"], theirs["scores"], strict=True)),
        "machine": {"python": platform.python_version(), "cpus": len(os.sched_getaffinity(0))},
        "command": "python benchmarks/bleurt.py --bleurt-python PYTHON",
    }
    out = REPO / "benchmarks" / "results" / "bleurt.json"
    from understudy.files.atomic import atomic_write

    with atomic_write(out) as handle:
        handle.write((json.dumps(result, indent=1) + "\n").encode("utf-8"))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
