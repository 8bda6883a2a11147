"""Make tests/fixtures/comet_tiny.json: unbabel-comet's scores of the tests' tiny checkpoints
(the regression metric's kind; the unified metric's: CometKiwi's, and one reading references;
and xCOMET's, with its error spans, with references and without).

unbabel-comet 2.2.7 is the reference of understudy's COMET, and it cannot be installed beside
understudy's stack (it pins numpy<2 and transformers<5), so it runs here, in its own
environment, on the tiny checkpoints tests/support/neural_checkpoints.py builds (the same weights in
both environments: NumPy draws them):

    python3 -m venv /tmp/comet-venv
    /tmp/comet-venv/bin/pip install "unbabel-comet==2.2.7" "setuptools<81"
    /tmp/comet-venv/bin/python scripts/comet_fixtures.py

Each checkpoint's segment scores and system score come from ``model.predict(samples,
batch_size=B, gpus=0)`` (CPU, fp32: the Python API's reference numbers) for B = 1 and 8,
kept with the versions that computed them.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import tests.support.neural_checkpoints as nc  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "comet_tiny.json"
COMMAND = "/tmp/comet-venv/bin/python scripts/comet_fixtures.py"
BATCH_SIZES = (1, 8)


def predict(folder: Path, samples: list[dict[str, str]]) -> dict[str, Any]:
    """The reference code's scores of ``samples`` for each batch size."""
    from comet import load_from_checkpoint

    model = load_from_checkpoint(str(folder / "checkpoints" / "model.ckpt"))
    out = {}
    for size in BATCH_SIZES:
        result = model.predict(samples, batch_size=size, gpus=0, progress_bar=False)
        out[str(size)] = {"scores": list(result.scores), "system_score": result.system_score}
    return out


def predict_spans(folder: Path, samples: list[dict[str, str]]) -> dict[str, Any]:
    """xCOMET's scores and error spans of ``samples``, with their references and without."""
    from comet import load_from_checkpoint

    model = load_from_checkpoint(str(folder / "checkpoints" / "model.ckpt"))
    out: dict[str, Any] = {}
    for mode, chosen in (("ref", samples), ("qe", [{k: s[k] for k in ("src", "mt")} for s in samples])):
        for size in BATCH_SIZES:
            result = model.predict(chosen, batch_size=size, gpus=0, progress_bar=False)
            out[f"{mode}-{size}"] = {
                "scores": list(result.scores),
                "system_score": result.system_score,
                "error_spans": result.metadata.error_spans,
            }
    return out


def versions() -> dict[str, str]:
    """The versions the scores were computed with."""
    from importlib.metadata import version

    names = ["unbabel-comet", "torch", "transformers", "tokenizers", "numpy", "pytorch-lightning", "entmax"]
    return {"python": platform.python_version(), **{n: version(n) for n in names}}


def main() -> None:
    """Build each tiny checkpoint, score the samples with unbabel-comet, write the fixture."""
    models: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        builds = [(n, nc.build_regression, v) for n, v in nc.REGRESSION_VARIANTS.items()]
        builds += [(n, nc.build_unified, v) for n, v in nc.UNIFIED_VARIANTS.items()]
        for name, build, (seed, overrides) in builds:
            folder = build(Path(tmp) / name, seed, **overrides)
            models[name] = predict(folder, nc.SAMPLES)
            print(f"{name}: {models[name]['1']['system_score']:.6f}", file=sys.stderr)
        xcomet = {}
        for name, (seed, overrides) in nc.XCOMET_VARIANTS.items():
            xcomet[name] = predict_spans(nc.build_xcomet(Path(tmp) / name, seed, **overrides), nc.SAMPLES)
            print(f"{name}: {xcomet[name]['ref-1']['system_score']:.6f}", file=sys.stderr)
    record = {
        "command": COMMAND,
        "versions": versions(),
        "samples": nc.SAMPLES,
        "models": models,
        "xcomet": xcomet,
    }
    # Atomically (this environment has no understudy to lend its atomic_write): a new file, renamed.
    partial = OUT.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, OUT)


if __name__ == "__main__":
    main()
