"""Make tests/fixtures/bleurt_tiny.json: bleurt-pytorch's BLEURT-20 scores of the tests' tiny
checkpoint (tests/support/neural_checkpoints.build_bleurt) on 40 WMT17 segments and a hostile
group, with the token ids its tokenizer gave each row.

bleurt-pytorch (lucadiliello/bleurt-pytorch at 279ca1b, git only) runs in an environment of its
own, beside bert-score's (transformers < 5; see scripts/bertscore_fixtures.py). Its setup.py
cannot build a wheel there, so its source goes on the path:

    git clone https://github.com/lucadiliello/bleurt-pytorch /tmp/bleurt-src   # (or fetch it)
    echo /tmp/bleurt-src > /tmp/bs-venv/lib/python3.11/site-packages/bleurt-src.pth
    /tmp/bs-venv/bin/python scripts/bleurt_fixtures.py

Scores are its README's call, ``tokenizer(references, candidates, padding="longest")`` then
``model(**inputs).logits``, on the CPU in fp32, with ``truncation=True, max_length=512``: without
it, a row over 512 tokens crashes the model (the tokenizer's saved limit is 1e30), so the faithful
run cuts as HF's ``longest_first`` does (TF BLEURT's ``_truncate_seq_pair`` on these rows). Batch
sizes 1 and 8 give the reference's own spread.
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

OUT = REPO / "tests" / "fixtures" / "bleurt_tiny.json"
COMMAND = "/tmp/bs-venv/bin/python scripts/bleurt_fixtures.py"
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
WMT17 = 40
BATCH_SIZES = (1, 8)

HOSTILE: list[tuple[str, str]] = [
    ("", "Eine Referenz."),
    ("Eine Hypothese.", ""),
    ("   \t ", "Nur Leerzeichen."),
    (" ".join(["Das ist ein sehr langer Satz mit vielen Wörtern"] * 67), "Kurz."),
    ("Kurz.", " ".join(["Eine sehr lange Referenz"] * 150)),
    ("Emoji 😀 und Zeichen 𠀀", "Emoji und Zeichen 𠀀"),
    ("שלום עולם مرحبا", "مرحبا"),
    ("Die Katze sitzt.", "Die Katze sitzt."),
    ("[CLS] Hallo [SEP] [PAD]", "Hallo [UNK] [MASK] <s> </s>"),
    ("Groß UND klein", "groß und Klein"),
]
"""(hypothesis, reference): empty either side, whitespace only, 600 words, a long reference,
astral and right-to-left characters, hypothesis equal to its reference, literal special tokens,
case."""


def read_lines(name: str, count: int = WMT17) -> list[str]:
    """The first lines of one WMT17 file, as read."""
    with open(DATA / name, encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(count)]


def samples() -> dict[str, list[str]]:
    """Hypotheses and references."""
    hyps = read_lines("newstest2017.uedin-nmt.4722.en-de.de") + [h for h, _ in HOSTILE]
    refs = read_lines("newstest2017.ref.en-de.de") + [r for _, r in HOSTILE]
    return {"hyps": hyps, "refs": refs}


def score(model: Any, tokenizer: Any, hyps: list[str], refs: list[str], size: int) -> list[float]:
    """The README's call, ``size`` rows at a time."""
    import torch

    out: list[float] = []
    with torch.no_grad():
        for start in range(0, len(hyps), size):
            inputs = tokenizer(
                refs[start : start + size],
                hyps[start : start + size],
                padding="longest",
                truncation=True,
                max_length=512,
                return_tensors="pt",
            )
            out += model(**inputs).logits.flatten().tolist()
    return out


def main() -> None:
    """Build the checkpoint, score with bleurt-pytorch, write the fixture."""
    from bleurt_pytorch import BleurtForSequenceClassification, BleurtTokenizer

    texts = samples()
    with tempfile.TemporaryDirectory() as tmp:
        folder = nc.build_bleurt(Path(tmp) / "bleurt")
        model = BleurtForSequenceClassification.from_pretrained(str(folder)).eval()
        tokenizer = BleurtTokenizer.from_pretrained(str(folder))
        hyps, refs = texts["hyps"], texts["refs"]
        scores = {str(size): score(model, tokenizer, hyps, refs, size) for size in BATCH_SIZES}
        ids = [
            tokenizer(r, h, truncation=True, max_length=512)["input_ids"]
            for h, r in zip(texts["hyps"], texts["refs"], strict=True)
        ]
    from importlib.metadata import version

    names = ["torch", "transformers", "sentencepiece", "numpy"]
    record = {
        "command": COMMAND,
        "reference": "bleurt-pytorch 0.0.1 (lucadiliello/bleurt-pytorch 279ca1b)",
        "tokenizer": type(tokenizer).__name__,
        "versions": {"python": platform.python_version(), **{n: version(n) for n in names}},
        "samples": texts,
        "scores": scores,
        "input_ids": ids,
    }
    partial = OUT.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, OUT)


if __name__ == "__main__":
    main()
