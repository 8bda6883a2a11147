"""Make tests/fixtures/mbr/comet-mbr-tiny.json: COMET's MBR utilities as the reference code computes
them, for tests/mbr/test_comet_mbr.py.

mbrs 0.1.8's COMET metric embeds each candidate and source once with unbabel-comet 2.2.7's
``get_sentence_embedding`` and runs its ``estimate`` on every candidate x pseudo-reference pair
(as comet-mbr does). It runs here in unbabel-comet's own environment (scripts/comet_fixtures.py
says how to make it), with mbrs beside it and stand-ins for the model packages mbrs imports at
its top but this never calls, on the tiny regression checkpoint the tests build:

    /tmp/comet-venv/bin/pip install --no-deps mbrs==0.1.8 simple-parsing docstring-parser \
        tabulate fastchrf
    /tmp/comet-venv/bin/python scripts/comet_mbr_fixtures.py

Each source's utility matrix (float32, written as the float64 it widens to), expected utilities
and mbrs' exact MBR choice are kept with the versions that computed them.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from mbrs_fixtures import _Finder  # noqa: E402

import tests.support.neural_checkpoints as nc  # noqa: E402
from tests.support.comet_mbr import CANDIDATES, SOURCES, VARIANT  # noqa: E402

OUT = REPO / "tests" / "fixtures" / "mbr" / "comet-mbr-tiny.json"
COMMAND = "/tmp/comet-venv/bin/python scripts/comet_mbr_fixtures.py"


def utilities(folder: Path) -> list[dict[str, Any]]:
    """mbrs' COMET utilities, expected utilities and choice for each source."""
    sys.meta_path.insert(0, _Finder(("bert_score", "bleurt_pytorch")))
    import mbrs.metrics.comet as mbrs_comet
    from mbrs.decoders import DecoderMBR

    # A local checkpoint, not a hub name: the file comet.load_from_checkpoint reads.
    mbrs_comet.download_model = lambda model: model  # type: ignore[attr-defined]
    checkpoint = str(folder / "checkpoints" / "model.ckpt")
    metric = mbrs_comet.MetricCOMET(mbrs_comet.MetricCOMET.Config(model=checkpoint, cpu=True, batch_size=8))
    decoder = DecoderMBR(DecoderMBR.Config(), metric)
    out = []
    for source, hyps in zip(SOURCES, CANDIDATES, strict=True):
        matrix = metric.pairwise_scores(hyps, hyps, source)
        out.append(
            {
                "utilities": matrix.tolist(),
                "expected": metric.expected_scores(hyps, hyps, source).tolist(),
                "chosen": decoder.decode(hyps, hyps, source, nbest=1).idx[0],
            }
        )
    return out


def versions() -> dict[str, str]:
    """The versions the utilities were computed with."""
    from importlib.metadata import version

    names = ["mbrs", "unbabel-comet", "torch", "transformers", "numpy"]
    return {n: version(n) for n in names}


def main() -> None:
    seed, overrides = nc.REGRESSION_VARIANTS[VARIANT]
    with tempfile.TemporaryDirectory() as tmp:
        sources = utilities(nc.build_regression(Path(tmp) / VARIANT, seed, **overrides))
    record = {"command": COMMAND, "versions": versions(), "variant": VARIANT, "sources": sources}
    partial = OUT.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, OUT)


if __name__ == "__main__":
    main()
