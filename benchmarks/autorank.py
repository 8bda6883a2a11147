"""AutoRank's certainty over all 31 WMT25 pairs: 1000 bootstrap resamples of each pair's
paragraphs (seed 12345), from the organisers' scores beside the clone:

    python benchmarks/autorank.py

Reported: the wall time, and how uncertain the report's positions are: the systems, the clusters,
the adjacent positions whose systems share a cluster, and the widest rank interval. Results:
benchmarks/results/autorank.json.
"""

from __future__ import annotations

import itertools
import json
import os
import platform
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
SCORES = REPO.parent / "shared" / "data" / "wmt25-general-mt" / "automatic_scores"
N, SEED = 1000, 12345


def main() -> None:
    """Rank every pair with its intervals; write the results."""
    from understudy.autorank.bootstrap import Position
    from understudy.autorank.files import read_scores
    from understudy.autorank.ranking import Asked, Resampling, rank
    from understudy.autorank.wmt25 import PRESET
    from understudy.files.atomic import atomic_write

    scores = read_scores(SCORES)
    start = time.perf_counter()
    rows = rank(scores, PRESET, Asked(resampling=Resampling(N, SEED)))
    wall = time.perf_counter() - start
    pairs: dict[str, list[Position]] = {}
    for row in rows:
        assert row.position is not None
        pairs.setdefault(row.language_pair, []).append(row.position)
    adjacent = shared = clusters = 0
    widest = 0
    for positions in pairs.values():
        clusters += len({p.cluster for p in positions})
        for a, b in itertools.pairwise(positions):
            adjacent += 1
            shared += a.cluster == b.cluster
        widest = max(widest, *(p.rank_interval[1] - p.rank_interval[0] for p in positions))
    result = {
        "pairs": len(pairs),
        "systems": len(rows),
        "resamples": N,
        "seed": SEED,
        "wall seconds": round(wall, 2),
        "clusters": clusters,
        "adjacent positions": adjacent,
        "adjacent positions in one cluster": shared,
        "widest rank interval": widest,
        "machine": {"python": platform.python_version(), "cpus": len(os.sched_getaffinity(0))},
        "command": "python benchmarks/autorank.py",
    }
    with atomic_write(REPO / "benchmarks" / "results" / "autorank.json") as handle:
        handle.write((json.dumps(result, indent=1) + "\n").encode("utf-8"))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
