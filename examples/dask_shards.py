"""Corpus BLEU of sharded files on a two-worker Dask cluster, equal to one process's score.

Run from a clone's top folder: ``python examples/dask_shards.py`` (extra ``dask``). The shards are
written into a temporary folder: the bundled sample's reference and one system, cut into 4 files each.
"""

import tempfile
from pathlib import Path

from dask.distributed import Client, LocalCluster
from understudy import BLEU
from understudy.execution import dask as ud
from understudy.inputs.files import read_lines

SAMPLE = "data/wmt17-en-de/newstest2017"


def write_shards(folder: Path, name: str, lines: list[str], shards: int) -> None:
    """``lines`` cut into ``shards`` files ``folder/name.00``, ``name.01``, ... in order."""
    size = -(-len(lines) // shards)
    for k in range(shards):
        text = "".join(line + "\n" for line in lines[k * size : (k + 1) * size])
        (folder / f"{name}.{k:02d}").write_text(text, encoding="utf-8")


def main() -> None:
    """Score the shards on the cluster and the whole files in this process; print both."""
    hyps, refs = read_lines(f"{SAMPLE}.uedin-nmt.4722.en-de.de"), read_lines(f"{SAMPLE}.ref.en-de.de")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        write_shards(folder, "hyp", hyps, 4)
        write_shards(folder, "ref", refs, 4)
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
        with cluster, Client(cluster):
            sharded = ud.corpus_score_files(BLEU(), f"{folder}/hyp.*", [f"{folder}/ref.*"])
    print(sharded)
    print("the same as one process:", sharded.score == BLEU().corpus_score(hyps, [refs]).score)


if __name__ == "__main__":  # the workers are processes that import this file: start them only here
    main()
