"""BERTScore on CPU: understudy against bert-score 0.3.13's ``score`` on 2 WMT17 systems x 1000
segments against the reference.

The model is a randomly initialised XLM-R of the size asked (``tiny``: the tests' model, 2
layers of 32; ``base``: xlm-roberta-base's shape, 12 layers of 768, 250,002 rows cut to the
tests' small vocabulary), built by tests/support/neural_checkpoints.py into --work, layer 2 read
(``base``: 9, bert-score's for xlm-roberta-base). bert-score runs in its own environment
(--bertscore-python; transformers < 5, as scripts/bertscore_fixtures.py says), one call of
``bert_score.score`` for both systems at its default batch size (64) (its wall time includes its
reading of the model, as every call of ``score`` reads it; the reading is also timed alone), then
one call a system, as its ``bert-score`` command scores them. understudy runs cold (no cache;
the model's reading included) and again (the cache filled):

    python benchmarks/bertscore.py --bertscore-python /tmp/bs-venv/bin/python

Reported: each tool's wall time with and without the model's reading, the ratios, and the largest
difference of their F1. Results: benchmarks/results/bertscore-SIZE.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
SYSTEMS = ["uedin-nmt.4722", "online-A.0"]
SEGMENTS = 1000
LAYERS = {"tiny": 2, "base": 9}

REFERENCE = """
import json, sys, time
start = time.perf_counter()
import bert_score
data = json.load(open(sys.argv[1]))
hyps = [h for system in data["systems"] for h in system]
refs = data["ref"] * len(data["systems"])
loaded = time.perf_counter()
bert_score.utils.get_model(sys.argv[2], int(sys.argv[3]))  # the model's reading, timed alone
read = time.perf_counter() - loaded
options = dict(model_type=sys.argv[2], num_layers=int(sys.argv[3]), device="cpu", use_fast_tokenizer=True)
begun = time.perf_counter()
P, R, F = bert_score.score(hyps, refs, **options)
wall = time.perf_counter() - begun
begun = time.perf_counter()
for system in data["systems"]:  # as the bert-score command runs: one system a call
    bert_score.score(system, data["ref"], **options)
apart = time.perf_counter() - begun
print(json.dumps({"wall": wall, "per system": apart, "read": read, "f1": F.tolist()}))
"""


def lines(name: str) -> list[str]:
    """The first SEGMENTS lines of a WMT17 file."""
    with open(DATA / name, encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(SEGMENTS)]


def build(work: Path, size: str) -> Path:
    """The model of ``size`` in ``work`` (built once)."""
    import tests.support.neural_checkpoints as nc

    folder = work / f"xlmr-{size}"
    if not (folder / "model.safetensors").is_file():
        nc.build_bertscore(folder, size="tiny" if size == "tiny" else "base")
    return folder


def understudy_runs(model: Path, data: dict[str, Any], layers: int, work: Path) -> dict[str, Any]:
    """understudy's wall times, cold and from the filled cache, and its F1."""
    from understudy.neural.bertscore import BERTScore

    cache = work / "cache.sqlite"
    cache.unlink(missing_ok=True)
    systems = {f"s{k}": hyps for k, hyps in enumerate(data["systems"])}
    out: dict[str, Any] = {}
    start = time.perf_counter()
    metric = BERTScore(model, num_layers=layers, device="cpu", cache=cache)
    metric.begin()
    out["read"] = time.perf_counter() - start
    for run in ("cold", "cached"):
        begun = time.perf_counter()
        scores = metric.system_scores(systems, data["ref"], None)
        out[run] = time.perf_counter() - begun
    out["f1"] = [f for name in systems for f in scores.sentence_scores(name).tolist()]
    return out


def main() -> None:
    """Run both tools and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bertscore-python", required=True, help="python of an environment with bert-score")
    parser.add_argument("--work", type=Path, default=Path("/tmp/understudy-bertscore-bench"))
    parser.add_argument("--size", choices=["tiny", "base"], default="tiny")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    model, layers = build(args.work, args.size), LAYERS[args.size]
    data = {
        "ref": lines("newstest2017.ref.en-de.de"),
        "systems": [lines(f"newstest2017.{s}.en-de.de") for s in SYSTEMS],
    }
    given = args.work / "data.json"
    given.write_text(json.dumps(data), encoding="utf-8")
    ours = understudy_runs(model, data, layers, args.work)
    done = subprocess.run(
        [args.bertscore_python, "-c", REFERENCE, str(given), str(model), str(layers)],
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    theirs = json.loads(done.stdout.splitlines()[-1])
    result = {
        "size": args.size,
        "segments": SEGMENTS * len(SYSTEMS),
        "understudy": {k: round(v, 3) for k, v in ours.items() if k != "f1"},
        "bert-score": {k: round(v, 3) for k, v in theirs.items() if k != "f1"},
        # Each tool's scoring alone: bert-score's score() reads the model on every call.
        "ratio cold": round((theirs["wall"] - theirs["read"]) / ours["cold"], 2),
        "ratio cold, bert-score a call a system": round(
            (theirs["per system"] - len(SYSTEMS) * theirs["read"]) / ours["cold"], 2
        ),
        "ratio cached": round(theirs["wall"] / ours["cached"], 1),
        "largest F1 difference": max(abs(a - b) for a, b in zip(ours["f1"], theirs["f1"], strict=True)),
        "machine": {"python": platform.python_version(), "processor": platform.processor(), "cpus": _cpus()},
        "command": f"python benchmarks/bertscore.py --bertscore-python PYTHON --size {args.size}",
    }
    out = REPO / "benchmarks" / "results" / f"bertscore-{args.size}.json"
    from understudy.files.atomic import atomic_write

    with atomic_write(out) as handle:
        handle.write((json.dumps(result, indent=1) + "\n").encode("utf-8"))
    print(json.dumps(result, indent=1))


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0))


if __name__ == "__main__":
    main()
