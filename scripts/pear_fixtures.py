"""Make tests/fixtures/pear_tiny.json: pear-mt 1.1.1's scores of the tests' tiny PEAR checkpoint
(tests/support/neural_checkpoints.build_pear) on 40 WMT17 segments and a hostile group, and its
MBR utility matrices (full and half) of 10 sources' 4 candidates each.

pear-mt runs in an environment of its own (it needs pytorch-lightning; transformers < 5 beside
bert-score there), torch and NumPy from the project's (see scripts/bertscore_fixtures.py):

    /tmp/bs-venv/bin/pip install --no-deps "pear-mt==1.1.1" pytorch-lightning lightning-utilities torchmetrics
    /tmp/bs-venv/bin/python scripts/pear_fixtures.py

Scores are ``pear.inference.score_pairwise`` on the CPU (``gpus=0``) at batch sizes 1 and 8;
the matrices ``pear.mbr.pear_utility_matrix`` with ``mode="full"`` and ``"half"`` and the choice
``select_mbr_hypothesis``. The WMT17 data hold no English source: the reference's lines stand
in for it (a text of their own, which is all the model needs).
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

OUT = REPO / "tests" / "fixtures" / "pear_tiny.json"
COMMAND = "/tmp/bs-venv/bin/python scripts/pear_fixtures.py"
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
WMT17 = 40
BATCH_SIZES = (1, 8)

HOSTILE: list[tuple[str, str, str]] = [
    ("Eine Quelle.", "", "Eine Übersetzung."),
    ("", "Keine Quelle.", "Ohne Quelle."),
    ("Nur Leerzeichen.", "   \t ", "Leerzeichen."),
    ("Lang.", " ".join(["Das ist ein sehr langer Satz mit vielen Wörtern"] * 67), "Kurz."),
    (" ".join(["Eine sehr lange Quelle"] * 150), "Kurz.", "Auch kurz."),
    ("Emoji 😀 und Zeichen 𠀀", "Emoji 😀 und 𠀀", "Emoji und Zeichen"),
    ("שלום עולם", "שלום עולם مرحبا", "مرحبا"),
    ("Die Katze sitzt.", "Die Katze sitzt.", "Die Katze sitzt."),
    ("Spezial", "<s> Hallo </s> <pad>", "Hallo <unk>"),
    ("Gleich", "Die Katze sitzt.", "Die Katze sitzt auf der Matte."),
]
"""Empty translation or source, whitespace only, 600 words, a long source, astral and
right-to-left characters, both translations equal, literal special tokens."""


def read_lines(name: str, count: int = WMT17) -> list[str]:
    """The first lines of one WMT17 file, as read."""
    with open(DATA / name, encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(count)]


def samples() -> dict[str, list[str]]:
    """Sources (the reference standing in), translations a and b."""
    src = read_lines("newstest2017.ref.en-de.de") + [s for s, _, _ in HOSTILE]
    a = read_lines("newstest2017.uedin-nmt.4722.en-de.de") + [x for _, x, _ in HOSTILE]
    b = read_lines("newstest2017.online-A.0.en-de.de") + [y for _, _, y in HOSTILE]
    return {"src": src, "a": a, "b": b}


def mbr_lists() -> dict[str, list[Any]]:
    """10 sources, each with 4 systems' translations as candidates."""
    systems = ["uedin-nmt.4722", "online-A.0", "KIT.4950", "PROMT-Rule-based.4735"]
    columns = [read_lines(f"newstest2017.{s}.en-de.de", 50)[40:50] for s in systems]
    return {
        "src": read_lines("newstest2017.ref.en-de.de", 50)[40:50],
        "candidates": [list(c) for c in zip(*columns, strict=True)],
    }


def main() -> None:
    """Build the checkpoint, score with pear-mt, write the fixture."""
    from pear.inference import load_metric, score_pairwise
    from pear.mbr import pear_utility_matrix, select_mbr_hypothesis

    texts, lists = samples(), mbr_lists()
    with tempfile.TemporaryDirectory() as tmp:
        model = load_metric(
            str(nc.build_pear(Path(tmp) / "pear") / "checkpoints" / "model.ckpt"), strict=True
        )
        scores = {
            str(size): score_pairwise(
                model, texts["src"], texts["a"], texts["b"], batch_size=size, gpus=0, progress_bar=False
            )
            for size in BATCH_SIZES
        }
        mbr: dict[str, Any] = {}
        for mode in ("full", "half"):
            matrices = [
                pear_utility_matrix(model, s, c, mode=mode, gpus=0, progress_bar=False)
                for s, c in zip(lists["src"], lists["candidates"], strict=True)
            ]
            mbr[mode] = {
                "matrices": [m.tolist() for m in matrices],
                "chosen": [list(select_mbr_hypothesis(m)) for m in matrices],
            }
    from importlib.metadata import version

    names = ["pear-mt", "pytorch-lightning", "torch", "transformers", "tokenizers", "numpy"]
    record = {
        "command": COMMAND,
        "versions": {"python": platform.python_version(), **{n: version(n) for n in names}},
        "samples": texts,
        "scores": scores,
        "mbr_lists": lists,
        "mbr": mbr,
    }
    partial = OUT.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, OUT)


if __name__ == "__main__":
    main()
