"""MBR with COMET-22 as the utility on CPU: understudy's ``mbr.select`` against mbrs 0.1.8's exact
decoder with its COMET metric (unbabel-comet 2.2.7 inside), on a randomly initialised checkpoint of
wmt22-comet-da's shape (built by tests/support/neural_checkpoints.py, as benchmarks/neural.py's).

Both embed each distinct candidate and source once and run only COMET's estimator on the
candidate x pseudo-reference pairs; what differs is how: understudy batches all sources' sentences
together sorted by length (little padding) and runs the estimator over the pairs in large
blocks; mbrs batches each source's sentences in their given order (64 a batch, its default).
The data: 50 WMT17 sources (a system's German lines stand in for the English the shared data
lack) x 16 candidates (the 16 systems' lines). Each tool runs once in its own process, fp32:

    python benchmarks/comet_mbr.py --mbrs-python /tmp/comet-venv/bin/python

(mbrs installed there with ``pip install --no-deps mbrs==0.1.8 simple-parsing docstring-parser
tabulate fastchrf``; see scripts/comet_mbr_fixtures.py). Results: benchmarks/results/comet-mbr.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

from neural import DATA, SOURCE_STAND_IN, lines, run  # noqa: E402

SOURCES, CANDIDATES = 50, 16

OURS = """
import json, resource, sys, time
start = time.perf_counter()
from understudy.mbr import select
from understudy.neural import COMET
data = json.load(open(sys.argv[1]))
metric = COMET(sys.argv[2], batch_size=16, cache=None, device="cpu")
choices = select(data["candidates"], metric, sources=data["src"])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": time.perf_counter() - start, "chosen": [c.index for c in choices],
                  "expected": [list(c.expected) for c in choices], "peak_mb": peak}))
"""

MBRS = """
import json, resource, sys, time
start = time.perf_counter()
sys.path.insert(0, sys.argv[3])
from mbrs_fixtures import _Finder
sys.meta_path.insert(0, _Finder(("bert_score", "bleurt_pytorch")))
import mbrs.metrics.comet as mbrs_comet
from mbrs.decoders import DecoderMBR
mbrs_comet.download_model = lambda model: model
data = json.load(open(sys.argv[1]))
config = mbrs_comet.MetricCOMET.Config(model=sys.argv[2] + "/checkpoints/model.ckpt", cpu=True)
metric = mbrs_comet.MetricCOMET(config)
decoder = DecoderMBR(DecoderMBR.Config(), metric)
chosen = []
for source, hyps in zip(data["src"], data["candidates"]):
    chosen.append(decoder.decode(hyps, hyps, source, nbest=1).idx[0])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": time.perf_counter() - start, "chosen": chosen, "peak_mb": peak}))
"""


def write_data(path: Path) -> Path:
    """The sources and each source's candidates, as JSON."""
    sys.path.insert(0, str(REPO))
    from tests.support.mbr_candidates import candidates

    data = {
        "src": lines(SOURCE_STAND_IN)[:SOURCES],
        "candidates": [c[:CANDIDATES] for c in candidates(SOURCES, DATA)],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def encoder_work(data_path: Path, model: Path) -> dict[str, int]:
    """Token positions each tool runs through the encoder (padding included), from the
    checkpoint's tokenizer: understudy's distinct texts in its length-sorted batches
    (``neural.base.batches``, 16 a batch, at most ``CPU_TOKENS`` positions on a CPU), mbrs'
    each source's candidates as one batch (its 64 exceed 16) and the source alone. On a CPU both
    are bound by the encoder's matrix products, so this ratio is about all batching can give."""
    from tokenizers import Tokenizer
    from understudy.neural.base import CPU_TOKENS, batches

    tokenizer = Tokenizer.from_file(str(model / "encoder" / "tokenizer.json"))
    data = json.loads(data_path.read_text(encoding="utf-8"))

    def length(texts: list[str]) -> list[int]:
        return [len(e.ids) for e in tokenizer.encode_batch(texts)]

    distinct = sorted(set(data["src"]) | {c for cs in data["candidates"] for c in cs})
    lengths = length(distinct)
    ours = sum(len(b) * lengths[b[0]] for b in batches(lengths, 16, CPU_TOKENS))
    pairs = zip(data["candidates"], data["src"], strict=True)
    theirs = sum(len(cs) * max(length(cs)) + length([src])[0] for cs, src in pairs)
    return {"understudy_positions": ours, "mbrs_positions": theirs, "distinct_texts": len(distinct)}


def main() -> None:
    """Build the model and data, run both tools, write and print the results."""
    import tests.support.neural_checkpoints as nc

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--mbrs-python", required=True, help="python of an environment with mbrs and unbabel-comet"
    )
    parser.add_argument("--work", type=Path, default=Path("/tmp/understudy-neural-bench"))
    parser.add_argument("--size", choices=["large", "tiny"], default="large", help="tiny: a smoke run")
    args = parser.parse_args()
    given = write_data(args.work / "mbr-data.json")
    model = args.work / f"comet22-{args.size}-random"
    if not (model / "checkpoints" / "model.ckpt").exists():
        print(f"building the {args.size} checkpoint ...", file=sys.stderr)
        nc.build_regression(model, 7, size=args.size)
    print("understudy ...", file=sys.stderr)
    ours = run(sys.executable, OURS, str(given), str(model))
    print("mbrs ...", file=sys.stderr)
    theirs = run(args.mbrs_python, MBRS, str(given), str(model), str(REPO / "scripts"))
    same = sum(a == b for a, b in zip(ours["chosen"], theirs["chosen"], strict=True))
    results = {
        "task": f"COMET-22 MBR ({args.size}), random weights, CPU fp32, "
        f"{SOURCES} sources x {CANDIDATES} candidates",
        "command": f"python benchmarks/comet_mbr.py --mbrs-python {args.mbrs_python}",
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
        },
        "understudy": {k: ours[k] for k in ("wall", "peak_mb")},
        "mbrs": {k: theirs[k] for k in ("wall", "peak_mb")},
        "ratio": theirs["wall"] / ours["wall"],
        "same_choices": same,
        "encoder_work": encoder_work(given, model),
    }
    out = REPO / "benchmarks" / "results" / f"comet-mbr-{args.size}.json"
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
