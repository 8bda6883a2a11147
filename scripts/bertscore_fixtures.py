"""Make tests/fixtures/bertscore_tiny.json: bert-score 0.3.13's scores of the tests' tiny XLM-R
model (tests/support/neural_checkpoints.build_bertscore) on 40 WMT17 segments and a hostile
group, for several settings (layers, idf, several references, a baseline) and batch sizes.

bert-score 0.3.13 is the reference of understudy's BERTScore. It fails under transformers 5 (on
empty strings), so it runs here in an environment of its own with transformers < 5; torch,
NumPy and safetensors may come from the project's environment (a ``.pth`` file naming its
site-packages), the newer packages of its own coming first:

    python3 -m venv /tmp/bs-venv
    echo "$PWD/.venv/lib/python3.11/site-packages" > /tmp/bs-venv/lib/python3.11/site-packages/zz.pth
    /tmp/bs-venv/bin/pip install --no-deps "bert-score==0.3.13" "transformers==4.57.6" \\
        "huggingface_hub==0.36.2" "tokenizers==0.22.1" "evaluate==0.4.6" "datasets==5.0.1" \\
        dill multiprocess xxhash
    /tmp/bs-venv/bin/pip install httpx
    git clone https://github.com/huggingface/evaluate /tmp/evw  # or EVALUATE_CHECKOUT=DIR
    /tmp/bs-venv/bin/python scripts/bertscore_fixtures.py

HF evaluate's ``bertscore`` script is read from that checkout (``evaluate.load`` of its folder),
as its Hub copy would be.

The tiny model's tokenizer is a ``tokenizer.json`` only, so bert-score reads it with
``use_fast_tokenizer=True``; for XLM-R its slow and fast tokenizers give the same ids (shared
reference notes, BERTScore 1). Each setting is scored with ``bert_score.score(...)`` on the CPU
at batch sizes 1 and 64 (64 pads every batch: bert-score's zero floor of padded similarities).
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

OUT = REPO / "tests" / "fixtures" / "bertscore_tiny.json"
COMMAND = "/tmp/bs-venv/bin/python scripts/bertscore_fixtures.py"
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
EVALUATE = Path(os.environ.get("EVALUATE_CHECKOUT", "/tmp/evw"))
"""A checkout of huggingface/evaluate (its metrics/bertscore folder, the script evaluate.load
reads from the Hub), at EVALUATE_COMMIT."""
EVALUATE_COMMIT = "a7dd338"
BATCH_SIZES = (1, 64)
WMT17 = 40

HOSTILE: list[tuple[str, str]] = [
    ("", "Eine leere Übersetzung."),
    ("Eine leere Referenz.", ""),
    ("   \t ", "Nur Leerzeichen."),
    (" ".join(["Das ist ein sehr langer Satz mit vielen Wörtern"] * 67), "Ein kurzer Satz."),
    ("Kurz.", " ".join(["Eine sehr lange Referenz"] * 150)),
    ("Emoji 😀 und 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𠀀", "Emoji 😀 und Unicode"),  # noqa: RUF001 (astral letters, on purpose)
    ("שלום עולם مرحبا", "שלום עולם"),
    ("Die Katze sitzt auf der Matte.", "Die Katze sitzt auf der Matte."),
    ("<s> Hallo </s> <pad> <unk>", "Hallo <pad>"),
    ("  Leerzeichen  außen ", "Leerzeichen außen"),
]
"""Empty hypothesis or reference, whitespace only, 600 words, a long reference, astral and
right-to-left characters, hypothesis equal to reference, literal special tokens."""

SETTINGS: dict[str, dict[str, Any]] = {
    "L2": {"num_layers": 2},
    "L1-idf": {"num_layers": 1, "idf": True},
    "L0": {"num_layers": 0},
    "L2-multiref": {"num_layers": 2, "multiref": True},
    "L1-idf-multiref": {"num_layers": 1, "idf": True, "multiref": True},
    "L2-baseline": {"num_layers": 2, "baseline": True},
}
"""The settings scored: ``multiref`` gives each hypothesis two references (its own and
another system's line), ``baseline`` rescales with nc.bertscore_baseline's file."""


def read_lines(name: str) -> list[str]:
    """The first WMT17 lines of one file, as read (the BOM kept)."""
    with open(DATA / name, encoding="utf-8") as handle:
        return [next(handle).rstrip("\n") for _ in range(WMT17)]


def samples() -> dict[str, list[Any]]:
    """The hypotheses, their references and a second reference each."""
    ref = read_lines("newstest2017.ref.en-de.de")
    hyp = read_lines("newstest2017.KIT.4950.en-de.de")
    other = read_lines("newstest2017.uedin-nmt.4722.en-de.de")
    hyps = hyp + [h for h, _ in HOSTILE]
    refs = ref + [r for _, r in HOSTILE]
    return {"hyps": hyps, "refs": refs, "second": other + [h for h, _ in reversed(HOSTILE)]}


def score(
    model: Path, baseline: Path, texts: dict[str, list[Any]], setting: dict[str, Any]
) -> dict[str, Any]:
    """bert-score's P, R and F of the texts under ``setting``, per batch size."""
    import bert_score

    refs: list[Any] = texts["refs"]
    if setting.get("multiref"):
        refs = [[r, s] for r, s in zip(refs, texts["second"], strict=True)]
    options: dict[str, Any] = {"num_layers": setting["num_layers"], "idf": setting.get("idf", False)}
    if setting.get("baseline"):
        options |= {"rescale_with_baseline": True, "lang": "de", "baseline_path": str(baseline)}
    out: dict[str, Any] = {}
    for size in BATCH_SIZES:
        (p, r, f), hashed = bert_score.score(
            texts["hyps"],
            refs,
            model_type=str(model),
            batch_size=size,
            device="cpu",
            use_fast_tokenizer=True,
            return_hash=True,
            **options,
        )
        out[str(size)] = {"P": p.tolist(), "R": r.tolist(), "F": f.tolist()}
    out["hash"] = hashed.replace(str(model), "MODEL")
    return out


def hf_evaluate(model: Path, texts: dict[str, list[Any]], script: Path) -> dict[str, Any]:
    """HF evaluate's ``bertscore`` script (a local copy of its folder) on the texts: plain, with
    two references a hypothesis, and idf twice on one module (its cached scorer keeps the first
    call's idf weights) beside a fresh module's second call."""
    import evaluate

    hyps, refs, second = texts["hyps"], texts["refs"], texts["second"]
    options = {"model_type": str(model), "num_layers": 2, "device": "cpu", "use_fast_tokenizer": True}
    out: dict[str, Any] = {}
    out["plain"] = evaluate.load(str(script)).compute(predictions=hyps, references=refs, **options)
    multi = [[r, s] for r, s in zip(refs, second, strict=True)]
    out["multiref"] = evaluate.load(str(script)).compute(predictions=hyps, references=multi, **options)
    cached = evaluate.load(str(script))
    out["idf-first"] = cached.compute(predictions=hyps[:25], references=refs[:25], idf=True, **options)
    out["idf-second"] = cached.compute(predictions=hyps[25:], references=refs[25:], idf=True, **options)
    fresh = evaluate.load(str(script))
    out["idf-fresh"] = fresh.compute(predictions=hyps[25:], references=refs[25:], idf=True, **options)
    for result in out.values():
        result["hashcode"] = result["hashcode"].replace(str(model), "MODEL")
    return out


def versions() -> dict[str, str]:
    """The versions the scores were computed with."""
    from importlib.metadata import version

    names = ["bert-score", "evaluate", "datasets", "torch", "transformers", "tokenizers", "numpy"]
    return {"python": platform.python_version(), **{n: version(n) for n in names}}


def main() -> None:
    """Build the tiny model, score every setting with bert-score, write the fixture."""
    texts = samples()
    with tempfile.TemporaryDirectory() as tmp:
        model = nc.build_bertscore(Path(tmp) / "model")
        baseline = nc.bertscore_baseline(Path(tmp))
        scored = {name: score(model, baseline, texts, setting) for name, setting in SETTINGS.items()}
        hf = hf_evaluate(model, texts, EVALUATE / "metrics" / "bertscore")
    for name, result in scored.items():
        print(f"{name}: mean F {sum(result['1']['F']) / len(result['1']['F']):.6f}", file=sys.stderr)
    record = {
        "command": COMMAND,
        "versions": versions(),
        "baseline": nc.bertscore_baseline.__name__,
        "settings": SETTINGS,
        "samples": texts,
        "scores": scored,
        "hf_evaluate": {"commit": EVALUATE_COMMIT, "results": hf},
    }
    # Atomically (this environment has no understudy to lend its atomic_write): a new file, renamed.
    partial = OUT.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, OUT)


if __name__ == "__main__":
    main()
