"""Fixtures from HF evaluate's metric scripts, which CI cannot reach (they live on the Hub and on
GitHub, not on PyPI): run outside the repository, kept in tests/fixtures/hf_evaluate.json.

    python scripts/hf_evaluate_fixtures.py --evaluate DIR --nmt DIR

``--evaluate`` is a checkout of huggingface/evaluate (its ``metrics/`` folder; the fixtures were
made at commit a7dd338), ``--nmt`` one of tensorflow/nmt, whose ``nmt/scripts/bleu.py`` HF's
``bleu`` script downloads as ``nmt_bleu.py``. Two things are recorded:

- ``bleu``: HF's ``bleu`` on seeded random corpora, computed by tensorflow/nmt's ``compute_bleu``
  over the tokens of HF's own ``Tokenizer13a`` (metrics/bleu/tokenizer_13a.py), as the script
  does (``_compute``: a reference string becomes a list of one; every sentence is tokenized);
- ``examples``: the documented examples of each metric script (its ``_KWARGS_DESCRIPTION``), with
  the file they come from, for tests/evaluate/test_adapter.py to run with ``evaluate`` meaning
  ``understudy.evaluate``.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests" / "fixtures" / "hf_evaluate.json"
METRICS = ("bleu", "google_bleu", "sacrebleu", "chrf", "ter", "wer", "cer")
WORDS = [
    "the",
    "cat",
    "sat",
    "on",
    "a",
    "mat",
    "The",
    "dog,",
    "ran.",
    "(fast)",
    "3.5",
    "9-11",
    "&amp;",
    "é",
    "\u2013",
]


def module_at(path: Path, name: str) -> ModuleType:
    """The Python file at ``path`` imported as ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sentence(rng: random.Random) -> str:
    """A random sentence of the words above (empty now and then)."""
    return " ".join(rng.choice(WORDS) for _ in range(rng.choice([0, 1, 3, 5, 8, 12])))


def bleu_cases(evaluate: Path, nmt: Path, n: int) -> list[dict[str, Any]]:
    """HF's ``bleu`` on ``n`` random corpora: its inputs, options and output."""
    tokenizer = module_at(
        evaluate / "metrics" / "bleu" / "tokenizer_13a.py", "hf_tokenizer_13a"
    ).Tokenizer13a()
    compute_bleu = module_at(nmt / "nmt" / "scripts" / "bleu.py", "nmt_bleu").compute_bleu
    rng, cases = random.Random(2026), []
    while len(cases) < n:
        segments = rng.randint(1, 4)
        predictions = [sentence(rng) for _ in range(segments)]
        references = [[sentence(rng) for _ in range(rng.randint(1, 3))] for _ in range(segments)]
        options = {"max_order": rng.choice([1, 2, 4, 5]), "smooth": rng.random() < 0.5}
        tokens = [[tokenizer(r) for r in refs] for refs in references]
        try:
            bleu, precisions, bp, ratio, length, ref_length = compute_bleu(
                tokens, [tokenizer(p) for p in predictions], **options
            )
        except ZeroDivisionError:
            continue  # an empty translation or reference corpus: HF raises too
        output = {
            "bleu": bleu,
            "precisions": precisions,
            "brevity_penalty": bp,
            "length_ratio": ratio,
            "translation_length": length,
            "reference_length": ref_length,
        }
        cases.append(
            {"predictions": predictions, "references": references, "options": options, "output": output}
        )
    return cases


def documented_examples(evaluate: Path) -> list[dict[str, str]]:
    """Each metric script's ``_KWARGS_DESCRIPTION`` (its documented examples), by file."""
    found = []
    for metric in METRICS:
        path = evaluate / "metrics" / metric / f"{metric}.py"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "_KWARGS_DESCRIPTION" for t in node.targets
            ):
                text = ast.literal_eval(node.value)
                found.append({"metric": metric, "file": f"metrics/{metric}/{metric}.py", "text": text})
    return found


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--evaluate", type=Path, required=True, help="a checkout of huggingface/evaluate")
    parser.add_argument("--nmt", type=Path, required=True, help="a checkout of tensorflow/nmt")
    parser.add_argument("--cases", type=int, default=300, help="random corpora for bleu (300)")
    args = parser.parse_args()
    fixtures = {
        "source": "huggingface/evaluate a7dd338, tensorflow/nmt nmt/scripts/bleu.py",
        "command": "python scripts/hf_evaluate_fixtures.py --evaluate DIR --nmt DIR",
        "bleu": bleu_cases(args.evaluate, args.nmt, args.cases),
        "examples": documented_examples(args.evaluate),
    }
    from understudy.files.atomic import atomic_write

    with atomic_write(OUT) as out:
        out.write((json.dumps(fixtures, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    print(f"{OUT}: {len(fixtures['bleu'])} bleu cases, {len(fixtures['examples'])} documented examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
