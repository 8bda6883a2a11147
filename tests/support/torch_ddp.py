"""Two processes under torch.distributed (gloo, 127.0.0.1), as torchmetrics' DDP tests run a metric:
rank r updates batches r, r + 2, ...; compute() syncs the states of both and returns on each."""

from __future__ import annotations

import importlib
import pickle
from pathlib import Path
from typing import Any

WORLD = 2

Job = tuple[str, dict[str, Any], list[Any], list[Any]]
"""A metric class by dotted name, its arguments, and the batches of predictions and targets."""


def _rank_main(rank: int, port: int, jobs: list[Job], out: str) -> None:
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD)
    try:
        results = []
        for dotted, args, preds, targets in jobs:
            module, name = dotted.rsplit(".", 1)
            metric = getattr(importlib.import_module(module), name)(**args)
            for i in range(rank, len(preds), WORLD):
                metric.update(preds[i], targets[i])
            results.append(metric.compute())
        Path(f"{out}.{rank}").write_bytes(pickle.dumps(results))
    finally:
        dist.destroy_process_group()


def run(jobs: list[Job], out: Path, port: int) -> list[list[Any]]:
    """What ``compute()`` returns for each job, on each of the two ranks (``[rank][job]``)."""
    import torch.multiprocessing as mp

    mp.spawn(_rank_main, args=(port, jobs, str(out)), nprocs=WORLD, join=True)
    return [pickle.loads(Path(f"{out}.{rank}").read_bytes()) for rank in range(WORLD)]
