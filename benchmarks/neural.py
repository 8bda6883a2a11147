"""COMET-22 and MetricX-24 at their real sizes on CPU: understudy against unbabel-comet 2.2.7's
Python predict and MetricX-24's predict.py.

The model is a randomly initialised checkpoint of wmt22-comet-da's shape (XLM-R large: 24 layers,
hidden 1024, 250,002 embedding rows; the estimator 3072-1024), built once into --work by
tests/support/neural_checkpoints.py (the tests' small tokenizer stands in for XLM-R's: no hub is
reachable, and both tools read the same one). The data are 4 WMT17 systems x 200 segments
against the reference; a fifth system's lines stand in for the English source the shared data
lack (a text of its own, so that nothing is shared that would not be). Each tool runs once, in
its own process (unbabel-comet in its own environment, --comet-python), fp32 on the CPU:

    python benchmarks/neural.py --comet-python /tmp/comet-venv/bin/python

MetricX-24 large (mt5-large's shape: 24+24 layers, d_model 1024, 1.2B weights, random; the
tests' small SentencePiece model as its tokenizer) runs against predict.py (google-research/
metricx at fc4978e, in its own environment, batch size 1 as its README runs it, for it cannot
pad a batch):

    python benchmarks/neural.py --metric metricx --metricx-python /tmp/mx-venv/bin/python \
        --metricx /tmp/metricx --segments 50

Reported: wall time and peak memory of each, understudy cold (no cache) and re-run (the cache
filled by the cold run), the ratios, and the largest difference between the two tools' segment
scores. Results go to benchmarks/results/neural-SIZE.json (with the machine and versions).

On a GPU (--device cuda), the same comparison on the same card with 8 systems x 1500 segments:
understudy in fp32, bf16 and fp16 against unbabel-comet's predict in fp32 (gpus=1) and after its
model.half(), each reported in segments per second (the model's reading excluded; the texts'
and scores' work included), peak device memory, the largest segment difference from the
reference's fp32, and whether the 8 systems rank alike. Results: neural-gpu-SIZE.json.

    python benchmarks/neural.py --device cuda --comet-python /tmp/comet-venv/bin/python
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

# understudy's run in a fresh process: {metric} is the metric object built from sys.argv.
OURS_TEMPLATE = """
import json, sys, time
start = time.perf_counter()
from understudy.neural import COMET, MetricX
data = json.load(open(sys.argv[1]))
cache = None if sys.argv[3] == "none" else sys.argv[3]
metric = {metric}
systems = {{str(k): hyps for k, hyps in enumerate(data["systems"])}}
scores = metric.system_scores(systems, data["ref"], data["src"])
flat = [s for k in systems for s in scores.sentence_scores(k).tolist()]
import resource
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
seconds = time.perf_counter() - start
print(json.dumps({{"seconds": seconds, "scores": flat, "computed": metric.computed, "peak_mb": peak}}))
"""
OURS = OURS_TEMPLATE.format(metric="COMET(sys.argv[2], batch_size=16, cache=cache, device='cpu')")

# On a GPU: the model read first (not timed), then the scoring, timed, with the card's peak memory.
OURS_GPU = """
import json, sys, time, torch
from understudy.neural import COMET
data = json.load(open(sys.argv[1]))
metric = COMET(sys.argv[2], batch_size=64, cache=None, device="cuda", precision=sys.argv[3])
metric.begin()
torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats()
systems = {str(k): hyps for k, hyps in enumerate(data["systems"])}
start = time.perf_counter()
scores = metric.system_scores(systems, data["ref"], data["src"])
torch.cuda.synchronize()
seconds = time.perf_counter() - start
flat = [s for k in systems for s in scores.sentence_scores(k).tolist()]
peak = torch.cuda.max_memory_allocated() / 2**20
print(json.dumps({"seconds": seconds, "scores": flat, "peak_mb": peak}))
"""

REFERENCE_GPU = """
import json, sys, time, torch
from comet import load_from_checkpoint
data = json.load(open(sys.argv[1]))
model = load_from_checkpoint(sys.argv[2] + "/checkpoints/model.ckpt")
if sys.argv[3] == "half":
    model = model.half()
triples = [(s, h, r) for hyps in data["systems"] for s, h, r in zip(data["src"], hyps, data["ref"])]
samples = [{"src": s, "mt": h, "ref": r} for s, h, r in triples]
torch.cuda.reset_peak_memory_stats()
start = time.perf_counter()
out = model.predict(samples, batch_size=64, gpus=1, progress_bar=False)
torch.cuda.synchronize()
seconds = time.perf_counter() - start
peak = torch.cuda.max_memory_allocated() / 2**20
print(json.dumps({"seconds": seconds, "scores": list(out.scores), "peak_mb": peak}))
"""
GPU_SYSTEMS = [
    "uedin-nmt.4722",
    "online-A.0",
    "PROMT-Rule-based.4735",
    "online-B.0",
    "LIUM-NMT.4900",
    "xmu.4910",
    "SYSTRAN.4847",
    "TALP-UPC.4834",
]
GPU_SEGMENTS = 1500
OURS_METRICX = OURS_TEMPLATE.format(
    metric="MetricX(sys.argv[2], tokenizer=sys.argv[4], batch_size=16, cache=cache, device='cpu')"
)


REFERENCE_METRICX = """
import json, resource, runpy, sys, time
start = time.perf_counter()
out = sys.argv[sys.argv.index("--output_file") + 1]
sys.argv = ["predict", *sys.argv[1:]]
runpy.run_module("metricx24.predict", run_name="__main__")
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
scores = [json.loads(line)["prediction"] for line in open(out)]
print(json.dumps({"seconds": time.perf_counter() - start, "scores": scores, "peak_mb": peak}))
"""


def lines(name: str) -> list[str]:
    path = DATA / f"newstest2017.{name}.en-de.de"
    with open(path, encoding="utf-8-sig", newline="\n") as fh:
        return [line.rstrip("\n") for line in fh][:SEGMENTS]


def write_data(path: Path, systems: list[str], n: int) -> Path:
    """The first ``n`` segments of the source stand-in, the reference and ``systems``, as JSON."""
    data = {
        "src": lines(SOURCE_STAND_IN)[:n],
        "ref": lines("ref")[:n],
        "systems": [lines(s)[:n] for s in systems],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def run(
    python: str, code: str, *argv: str, path: str | None = None, cwd: Path | None = None
) -> dict[str, Any]:
    """A tool's run in a fresh process (``path`` on its PYTHONPATH): its JSON answer (with its
    own peak memory) and the wall time, start-up and imports included."""
    env = {**os.environ, "PYTHONPATH": path} if path else None
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-c", code, *argv], capture_output=True, text=True, check=False, env=env, cwd=cwd
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{python} failed:\n{done.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer | {"wall": wall}


def main() -> None:
    """Build the model and data, run both tools, write and print the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metric", choices=["comet", "metricx"], default="comet")
    parser.add_argument("--comet-python", help="python of an environment with unbabel-comet 2.2.7")
    parser.add_argument("--metricx-python", help="python of an environment that runs MetricX-24's code")
    parser.add_argument("--metricx", type=Path, help="a checkout of google-research/metricx")
    parser.add_argument("--work", type=Path, default=Path("/tmp/understudy-neural-bench"))
    parser.add_argument("--size", choices=["large", "tiny"], default="large", help="tiny: a smoke run")
    parser.add_argument("--segments", type=int, help=f"default: {SEGMENTS} ({GPU_SEGMENTS} on a GPU)")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    args = parser.parse_args()
    if args.device == "cuda":
        if not args.comet_python:
            parser.error("--device cuda needs --comet-python")
        _gpu(args)
        return
    if args.metric == "comet" and not args.comet_python:
        parser.error("--metric comet needs --comet-python")
    if args.metric == "metricx" and not (args.metricx_python and args.metricx):
        parser.error("--metric metricx needs --metricx-python and --metricx")
    n = args.segments or SEGMENTS
    given = write_data(args.work / "data.json", SYSTEMS, n)
    reference, cold, cached = (_comet if args.metric == "comet" else _metricx)(args, given)
    diff = max(abs(a - b) for a, b in zip(cold["scores"], reference["scores"], strict=True))
    # Each segment's two scores, kept beside the model for a look at where they differ.
    pairs = [
        {"reference": a, "understudy": b} for a, b in zip(reference["scores"], cold["scores"], strict=True)
    ]
    (args.work / f"scores-{args.metric}.json").write_text(json.dumps(pairs) + "\n", encoding="utf-8")
    name, tool = (
        ("COMET-22", "unbabel_comet") if args.metric == "comet" else ("MetricX-24", "metricx_predict")
    )
    results = {
        "task": f"{name} ({args.size}), random weights, CPU fp32, {len(SYSTEMS)} systems x {n} segments",
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        tool: {k: reference[k] for k in ("wall", "peak_mb")},
        "understudy_cold": {k: cold[k] for k in ("wall", "peak_mb", "computed")},
        "understudy_cached": {k: cached[k] for k in ("wall", "computed")},
        "ratio_cold": reference["wall"] / cold["wall"],
        "ratio_cached": reference["wall"] / cached["wall"],
        "max_segment_difference": diff,
    }
    stem = "neural" if args.metric == "comet" else "neural-metricx"
    out = REPO / "benchmarks" / "results" / f"{stem}-{args.size}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


Runs = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def _comet(args: argparse.Namespace, given: Path) -> Runs:
    """unbabel-comet's run, understudy's cold and cached runs, on COMET-22's shape."""
    import tests.support.neural_checkpoints as nc

    model = args.work / f"comet22-{args.size}-random"
    if not (model / "checkpoints" / "model.ckpt").exists():
        print(f"building the {args.size} checkpoint ...", file=sys.stderr)
        nc.build_regression(model, 7, size=args.size)
    cache = args.work / "cache.sqlite"
    cache.unlink(missing_ok=True)
    print("understudy, cold ...", file=sys.stderr)
    cold = run(sys.executable, OURS, str(given), str(model), str(cache))
    print("understudy, cached ...", file=sys.stderr)
    cached = run(sys.executable, OURS, str(given), str(model), str(cache))
    print("unbabel-comet ...", file=sys.stderr)
    return run(args.comet_python, REFERENCE, str(given), str(model)), cold, cached


def _metricx(args: argparse.Namespace, given: Path) -> Runs:
    """predict.py's run, understudy's cold and cached runs, on MetricX-24 large's shape."""
    import tests.support.neural_checkpoints as nc

    model = args.work / f"metricx24-{args.size}-random"
    if not (model / "model.safetensors").exists():
        print(f"building the {args.size} checkpoint ...", file=sys.stderr)
        nc.build_metricx(model, 7, size=args.size)
    data = json.loads(given.read_text(encoding="utf-8"))
    rows = [
        {"source": s, "hypothesis": h, "reference": r}
        for hyps in data["systems"]
        for s, h, r in zip(data["src"], hyps, data["ref"], strict=True)
    ]
    jsonl = args.work / "metricx-in.jsonl"
    jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    cache = args.work / "cache-metricx.sqlite"
    cache.unlink(missing_ok=True)
    tokenizer = str(nc.MT5_TOKENIZER)
    print("understudy, cold ...", file=sys.stderr)
    cold = run(sys.executable, OURS_METRICX, str(given), str(model), str(cache), tokenizer)
    print("understudy, cached ...", file=sys.stderr)
    cached = run(sys.executable, OURS_METRICX, str(given), str(model), str(cache), tokenizer)
    print("MetricX-24 predict.py ...", file=sys.stderr)
    argv = ["--tokenizer", tokenizer, "--model_name_or_path", str(model), "--max_input_length", "1536"]
    argv += [
        "--batch_size",
        "1",
        "--input_file",
        str(jsonl),
        "--output_file",
        str(args.work / "metricx-out.jsonl"),
    ]
    reference = run(args.metricx_python, REFERENCE_METRICX, *argv, path=str(args.metricx), cwd=args.work)
    return reference, cold, cached


def _gpu(args: argparse.Namespace) -> None:
    """The GPU comparison: understudy's three precisions against the reference's fp32 and half."""
    import tests.support.neural_checkpoints as nc

    n = args.segments or GPU_SEGMENTS
    given = write_data(args.work / "data-gpu.json", GPU_SYSTEMS, n)
    model = args.work / f"comet22-{args.size}-random"
    if not (model / "checkpoints" / "model.ckpt").exists():
        nc.build_regression(model, 7, size=args.size)
    runs = {"reference_fp32": run(args.comet_python, REFERENCE_GPU, str(given), str(model), "fp32")}
    runs["reference_half"] = run(args.comet_python, REFERENCE_GPU, str(given), str(model), "half")
    for precision in ("fp32", "bf16", "fp16"):
        print(f"understudy {precision} ...", file=sys.stderr)
        runs[f"understudy_{precision}"] = run(sys.executable, OURS_GPU, str(given), str(model), precision)
    total = len(GPU_SYSTEMS) * n
    truth = runs["reference_fp32"]["scores"]

    def ranking(scores: list[float]) -> list[int]:
        means = [sum(scores[k * n : (k + 1) * n]) / n for k in range(len(GPU_SYSTEMS))]
        return sorted(range(len(means)), key=lambda k: -means[k])

    results: dict[str, Any] = {
        "task": f"COMET-22 ({args.size}), random weights, one GPU, {len(GPU_SYSTEMS)} systems x {n} segments",
        "machine": {"platform": platform.platform(), "python": platform.python_version()},
    }
    for name, answer in runs.items():
        results[name] = {
            "segments_per_second": total / answer["seconds"],
            "peak_device_mb": answer["peak_mb"],
            "max_segment_difference": max(abs(a - b) for a, b in zip(answer["scores"], truth, strict=True)),
            "same_ranking": ranking(answer["scores"]) == ranking(truth),
        }
    for precision in ("fp32", "bf16", "fp16"):
        ours = results[f"understudy_{precision}"]["segments_per_second"]
        results[f"ratio_{precision}"] = ours / results["reference_fp32"]["segments_per_second"]
    out = REPO / "benchmarks" / "results" / f"neural-gpu-{args.size}.json"
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
