"""Write understudy's test-set registry from the facts sacrebleu 2.6.0 publishes.

The registry is package data (``python/understudy/datasets/registry.json``); this
script is how it was made and how a new sacrebleu release would be followed. It needs
sacrebleu installed (a test dependency), and the package never imports sacrebleu.

    python scripts/export_registry.py > python/understudy/datasets/registry.json

What is rewritten on the way, so the data says what the code must do:
- each set's parser is named by ``format`` (not by a Python class);
- a downloaded file that is not an archive is named by its URL's basename
  (sacrebleu prefixes the set's name);
- TSV files give their column in ``columns`` (sacrebleu writes ``2:path``);
- the per-pair reference choice of the WMT21+ XML sets is ``refs``.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from sacrebleu.dataset import DATASETS, SUBSETS

FORMATS = {
    "FakeSGMLDataset": "wmt-sgml",
    "WMTAdditionDataset": "wmt-sgml",
    "IWSLTXMLDataset": "iwslt-xml",
    "WMTXMLDataset": "wmt-xml",
    "PlainTextDataset": "plain",
    "TSVDataset": "tsv",
}
ARCHIVES = (".tar.gz", ".tgz", ".zip")


def _pair(name: str, kind: str, value: Any, urls: list[str]) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if isinstance(value, dict):
        files = [value["path"]]
        if "refs" in value:
            entry["refs"] = list(value["refs"])
    else:
        files = list(value)
    plain_names = {
        f"{name.replace('/', '_')}.{os.path.basename(u)}": os.path.basename(u)
        for u in urls
        if not u.endswith(ARCHIVES)
    }
    files = [plain_names.get(f, f) for f in files]
    if kind == "tsv":
        columns = []
        for k, spec in enumerate(files):
            column, sep, path = spec.partition(":")
            columns.append(int(column) if sep else (0 if k == 0 else 1))
            files[k] = path if sep else spec
        entry["columns"] = columns
    return {"files": files, **entry}


def export() -> dict[str, Any]:
    """The registry as a JSON-ready dict."""
    sets: dict[str, Any] = {}
    for name, dataset in DATASETS.items():
        kind = FORMATS[type(dataset).__name__]
        record: dict[str, Any] = {"format": kind, "description": dataset.description.strip()}
        if kind == "wmt-sgml" and name.startswith("wmt08"):
            record["doc_fields"] = False
        record["downloads"] = [{"url": u, "md5": m} for u, m in zip(dataset.data, dataset.md5, strict=True)]
        if "refs" in dataset.kwargs:
            record["refs"] = list(dataset.kwargs["refs"])
        if dataset.citation:
            record["citation"] = dataset.citation
        record["langpairs"] = {
            pair: _pair(name, kind, value, dataset.data) for pair, value in dataset.langpairs.items()
        }
        sets[name] = record
    return {
        "schema": 1,
        "source": "sacrebleu 2.6.0, sacrebleu/dataset/__init__.py (DATASETS, SUBSETS); models: "
        "sacrebleu/tokenizers/tokenizer_spm.py (SPM_MODELS), which publishes no checksums",
        "testsets": sets,
        "subsets": {name: dict(tags) for name, tags in SUBSETS.items()},
        "models": _models(),
    }


def _models() -> dict[str, Any]:
    """The SentencePiece models by tokenizer name ('spm' is an alias of flores101, not a model)."""
    from sacrebleu.tokenizers.tokenizer_spm import SPM_MODELS

    return {
        name: {"url": spec["url"], "md5": None, "description": MODEL_DESCRIPTIONS[name]}
        for name, spec in SPM_MODELS.items()
        if name != "spm"
    }


MODEL_DESCRIPTIONS = {
    "flores101": "SentencePiece model of FLORES-101 (spBLEU), sacrebleu's 'flores101' and 'spm' tokenizers",
    "flores200": "SentencePiece model of FLORES-200 (NLLB), sacrebleu's 'flores200' tokenizer",
    "spBLEU-1K": "SentencePiece model of spBLEU-1K (1,000 languages), sacrebleu's 'spBLEU-1K' tokenizer",
}


if __name__ == "__main__":
    json.dump(export(), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
