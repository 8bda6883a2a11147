"""Make tests/fixtures/metricx_tiny.json: MetricX-24's predict.py scores of the tests' tiny model.

google-research/metricx (fc4978e, Apache-2.0) is the reference of understudy's MetricX; its
code pins transformers 4.30.2, so it runs here, as a black box, in an environment of its own,
on the tiny checkpoint tests/support/neural_checkpoints.py builds (NumPy draws the same weights):

    python3 -m venv /tmp/mx-venv
    /tmp/mx-venv/bin/pip install "transformers==4.30.2" "datasets==2.13.1" "pyarrow<15" "numpy<2" \\
        "accelerate==0.20.3" "fsspec==2023.6.0" "setuptools<81" "protobuf==3.20.3" sentencepiece torch
    git clone https://github.com/google-research/metricx /tmp/metricx   # at fc4978e
    /tmp/mx-venv/bin/python scripts/metricx_fixtures.py --metricx /tmp/metricx

For each mode (with references, and --qe) it runs ``python -m metricx24.predict`` with batch
size 1 (predict.py cannot pad) and max_input_length 1536, and keeps its predictions, the token
ids transformers 4.30.2's tokenizer gives each input, and the versions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import tests.support.neural_checkpoints as nc  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "metricx_tiny.json"
COMMAND = "/tmp/mx-venv/bin/python scripts/metricx_fixtures.py --metricx /tmp/metricx"


def predict(metricx: Path, model: Path, tmp: Path, qe: bool) -> list[float]:
    """predict.py's scores of the samples."""
    rows = [{"source": s["src"], "hypothesis": s["mt"], "reference": s["ref"]} for s in nc.METRICX_SAMPLES]
    given, out = tmp / f"in-{qe}.jsonl", tmp / f"out-{qe}.jsonl"
    given.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    argv = [sys.executable, "-m", "metricx24.predict", "--tokenizer", str(nc.MT5_TOKENIZER)]
    argv += ["--model_name_or_path", str(model), "--max_input_length", "1536", "--batch_size", "1"]
    argv += ["--input_file", str(given), "--output_file", str(out), *(["--qe"] if qe else [])]
    subprocess.run(argv, check=True, cwd=tmp, env={**os.environ, "PYTHONPATH": str(metricx)})
    return [json.loads(line)["prediction"] for line in out.read_text(encoding="utf-8").splitlines()]


def token_ids(qe: bool) -> list[list[int]]:
    """transformers 4.30.2's ids of each input string (before predict.py drops the last)."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(nc.MT5_TOKENIZER))
    texts = [
        f"source: {s['src']} candidate: {s['mt']}" + ("" if qe else f" reference: {s['ref']}")
        for s in nc.METRICX_SAMPLES
    ]
    return [tokenizer(t, max_length=1536, truncation=True)["input_ids"] for t in texts]


def versions() -> dict[str, str]:
    """The versions the scores were computed with."""
    from importlib.metadata import version

    names = ["transformers", "tokenizers", "torch", "numpy", "datasets", "sentencepiece", "protobuf"]
    return {"python": platform.python_version(), "metricx": "fc4978e", **{n: version(n) for n in names}}


def main() -> None:
    """Build the tiny checkpoint, run predict.py in both modes, write the fixture."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--metricx", type=Path, required=True, help="a checkout of google-research/metricx")
    args = parser.parse_args()
    record: dict[str, Any] = {"command": COMMAND, "versions": versions(), "samples": nc.METRICX_SAMPLES}
    with tempfile.TemporaryDirectory() as tmp:
        model = nc.build_metricx(Path(tmp) / "metricx-tiny", 1)
        for qe in (False, True):
            mode = "qe" if qe else "ref"
            record[mode] = {"scores": predict(args.metricx, model, Path(tmp), qe), "token_ids": token_ids(qe)}
    # Atomically (this environment has no understudy to lend its atomic_write): a new file, renamed.
    partial = OUT.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, OUT)


if __name__ == "__main__":
    main()
