"""Kept records as the Hugging Face Hub shows evaluation results: a model repository's
``.eval_results/*.yaml`` (the Hub's "Evaluation Results" specification: ``dataset.id``,
``dataset.task_id``, ``value``, ``date``, ``notes``), one file a benchmark variant as its rules
ask (a test set and a metric), and the model card's ``model-index`` made by huggingface_hub's own
classes (``ModelCardData``, ``EvalResult``). The signature goes where the method's details go:
``notes`` in the results file, ``metric_config`` in the model index. Each system's folder is
written whole; nothing is uploaded.

>>> variant_name("wmt17:en-de", "bleu")
'wmt17-en-de_bleu.yaml'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from understudy.errors import ConfigError, import_extra
from understudy.files.atomic import atomic_write
from understudy.ledger.ledger import Record

EXTRA = "writing the Hub's evaluation results needs huggingface_hub: pip install 'understudy-mt[neural]'"
FOLDER = ".eval_results"


def variant_name(testset: str, metric: str) -> str:
    """The file of one benchmark variant: the test set's and the metric's names, made safe."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{testset}_{metric}").strip("-.")
    return f"{safe}.yaml"


def latest(records: Sequence[Record]) -> dict[tuple[str, str, str], Record]:
    """The newest record of each system, test set and metric."""
    out: dict[tuple[str, str, str], Record] = {}
    for record in sorted(records, key=lambda r: (r.created, r.id)):
        out[(record.system, record.testset, record.metric)] = record
    return out


def entry(record: Record, dataset: str | None, task_id: str | None) -> dict[str, Any]:
    """One result as ``.eval_results`` holds it."""
    return {
        "dataset": {"id": dataset or record.testset, "task_id": task_id or record.testset},
        "value": record.score,
        "date": record.created,
        "notes": record.signature,
    }


def write_eval_results(
    records: Sequence[Record], out: Path, dataset: str | None = None, task_id: str | None = None
) -> list[Path]:
    """Each system's ``out/SYSTEM/.eval_results/*.yaml`` and ``out/SYSTEM/README.md`` (its
    ``model-index``), from the newest record of each variant; the files written."""
    yaml = import_extra("yaml", EXTRA)
    if not records:
        raise ConfigError("no records to export (score --log keeps them; the filters may match none)")
    written = []
    by_system: dict[str, list[Record]] = {}
    for record in latest(records).values():
        by_system.setdefault(record.system, []).append(record)
    for system, mine in sorted(by_system.items()):
        folder = out / re.sub(r"[^A-Za-z0-9._-]+", "-", system).strip("-.")
        (folder / FOLDER).mkdir(parents=True, exist_ok=True)
        for record in mine:
            path = folder / FOLDER / variant_name(task_id or record.testset, record.metric)
            text = yaml.safe_dump([entry(record, dataset, task_id)], sort_keys=False, allow_unicode=True)
            with atomic_write(path) as handle:
                handle.write(text.encode("utf-8"))
            written.append(path)
        written.append(_model_card(folder, system, mine, dataset))
    return written


def _model_card(folder: Path, system: str, records: Sequence[Record], dataset: str | None) -> Path:
    """The system's model card: its ``model-index`` by huggingface_hub's ``ModelCardData``."""
    hub = import_extra("huggingface_hub", EXTRA)
    results = [
        hub.EvalResult(
            task_type="translation",
            dataset_type=dataset or r.testset,
            dataset_name=r.testset,
            metric_type=r.metric,
            metric_value=r.score,
            metric_config=r.signature,
        )
        for r in records
    ]
    data = hub.ModelCardData(model_name=system, eval_results=results)
    path = folder / "README.md"
    with atomic_write(path) as handle:
        handle.write(f"---\n{data.to_yaml()}\n---\n\nScores kept by understudy.\n".encode())
    return path
