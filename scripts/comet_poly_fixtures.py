"""Make tests/fixtures/comet_poly_tiny.json: the COMET-poly fork's scores of the tests' five tiny
checkpoints (tests/support/neural_checkpoints.build_comet_poly: base, cand1, cand2, ic1, ic3) on
40 WMT17 segments and a hostile group, each with its other translations and in-context examples.

The fork (zouharvi/COMET-poly at d559a61, git only) cannot be installed beside unbabel-comet and
needs transformers < 5 and setuptools < 81, so it runs in an environment of its own, beside
bert-score's (see scripts/bertscore_fixtures.py), its source on the path and entmax added:

    git clone https://github.com/zouharvi/COMET-poly /tmp/poly-src    # (or fetch it)
    echo /tmp/poly-src/comet_poly > /tmp/bs-venv/lib/python3.11/site-packages/comet-poly-src.pth
    /tmp/bs-venv/bin/pip install --no-deps entmax
    /tmp/bs-venv/bin/python scripts/comet_poly_fixtures.py

Scores are ``comet_poly.load_from_checkpoint(...).predict(samples, gpus=0)`` (its Python API: its
``comet-poly-score`` command does not run) at batch sizes 1 and 8. A sample carries ``src``,
``mt``, ``mt2``, ``mt3``, ... (other translations of the source) and ``src2``/``mt2``/``score2``,
... (in-context examples, nearest first), as its ``prepare_sample`` reads them. The WMT17 data
hold no English source: the reference's lines stand in for it (a text of their own, which is all
the model needs).
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

OUT = REPO / "tests" / "fixtures" / "comet_poly_tiny.json"
COMMAND = "/tmp/bs-venv/bin/python scripts/comet_poly_fixtures.py"
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
WMT17 = 40
BATCH_SIZES = (1, 8)
SYSTEMS = ("uedin-nmt.4722", "online-A.0", "KIT.4950", "PROMT-Rule-based.4735")

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
"""(source, translation, another translation): empty translation or source, whitespace only, 600
words, a long source, astral and right-to-left characters, the translation equal to the other and
to the source, literal special tokens."""


def read_lines(name: str, count: int = WMT17) -> list[str]:
    """The first lines of one WMT17 file, as read."""
    with open(DATA / name, encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(count)]


def samples() -> dict[str, Any]:
    """Sources, translations, each segment's 3 other translations and 3 in-context examples
    (another segment's source and translation, with a score of 0-100; the hostile group's
    examples are hostile rows too)."""
    columns = [read_lines(f"newstest2017.{s}.en-de.de") for s in SYSTEMS]
    src = read_lines("newstest2017.ref.en-de.de") + [s for s, _, _ in HOSTILE]
    mt = columns[0] + [m for _, m, _ in HOSTILE]
    others = [list(row) for row in zip(*columns[1:], strict=True)]
    others += [[o, m, s] for s, m, o in HOSTILE]
    count = len(src)
    examples = [
        [
            {
                "src": src[(k + 7 * j + 1) % count],
                "mt": mt[(k + 3 * j + 2) % count],
                "score": (k * 37 + j * 11) % 101,
            }
            for j in range(3)
        ]
        for k in range(count)
    ]
    examples[-1][0]["score"] = 33.9  # a fraction, as DA and MQM+100 scores are
    return {"src": src, "mt": mt, "candidates": others, "examples": examples}


def rows(texts: dict[str, Any]) -> list[dict[str, Any]]:
    """The samples as ``predict`` reads them: every variant's keys (each ignores the rest)."""
    out = []
    for k, (src, mt) in enumerate(zip(texts["src"], texts["mt"], strict=True)):
        row: dict[str, Any] = {"src": src, "mt": mt}
        row |= {f"mt{j + 2}": other for j, other in enumerate(texts["candidates"][k])}
        out.append(row)
    return out


def examples_rows(texts: dict[str, Any]) -> list[dict[str, Any]]:
    """The samples with in-context examples in the ``mtX`` places."""
    out = []
    for k, (src, mt) in enumerate(zip(texts["src"], texts["mt"], strict=True)):
        row: dict[str, Any] = {"src": src, "mt": mt}
        for j, example in enumerate(texts["examples"][k]):
            row |= {
                f"src{j + 2}": example["src"],
                f"mt{j + 2}": example["mt"],
                f"score{j + 2}": example["score"],
            }
        out.append(row)
    return out


def main() -> None:
    """Build the checkpoints, score with the fork, write the fixture."""
    import comet_poly

    texts = samples()
    scores: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for variant, (kind, _, _) in nc.COMET_POLY_VARIANTS.items():
            folder = nc.build_comet_poly(Path(tmp) / variant, variant)
            model = comet_poly.load_from_checkpoint(str(folder / "checkpoints" / "model.ckpt"))
            given = rows(texts) if kind == "polycand_metric" else examples_rows(texts)
            scores[variant] = {
                str(size): [
                    float(s) for s in model.predict(given, batch_size=size, gpus=0, progress_bar=False).scores
                ]
                for size in BATCH_SIZES
            }
    from importlib.metadata import version

    names = ["torch", "transformers", "pytorch-lightning", "entmax", "numpy"]
    record = {
        "command": COMMAND,
        "reference": "comet-poly 2.2.4 (zouharvi/COMET-poly d559a61)",
        "versions": {"python": platform.python_version(), **{n: version(n) for n in names}},
        "samples": texts,
        "scores": scores,
    }
    partial = OUT.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, OUT)


if __name__ == "__main__":
    main()
