"""The ledger under load and under kills, on SQLite and PostgreSQL: the figures of README's
ledger section and of issue 24's closing note.

    python scripts/ledger_stress.py [--writers 32] [--appends 50] [--kills 20]

Concurrency: WRITERS processes, released at once by a barrier, each append APPENDS records (each
with two tags and a 3004-segment row block); then every record must be there once, whole (its
tags, its statistics, its score theirs). Crashes: the tests' writer, appending in a loop, is killed with
SIGKILL KILLS times at random moments; then the ledger must open, hold only whole records, and
take new ones. PostgreSQL runs on a server started on 127.0.0.1 as the tests start it
(tests/support/postgres_server.py); without its programs, only SQLite is measured.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def _writer(location: str, k: int, appends: int, start: Any, done: Any) -> None:
    from understudy import BLEU
    from understudy.ledger import Ledger

    stats = BLEU().segment_stats([f"word {k} and more"] * 3004, [["word 1 and more"] * 3004])
    with Ledger(location) as ledger:
        start.wait(timeout=120)
        began = time.time()
        ids = [
            ledger.append(stats, f"w{k}", "toy", tags=[f"k{k}", "all"], note=str(j)) for j in range(appends)
        ]
        done.put((ids, began, time.time()))


def concurrency(location: str, writers: int, appends: int) -> str:
    """Run the writers; what the ledger holds after them."""
    from understudy.ledger import Ledger

    Ledger(location).close()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["understudy", "understudy.ledger"])
    start, done = context.Barrier(writers), context.Queue()
    processes = [
        context.Process(target=_writer, args=(location, k, appends, start, done)) for k in range(writers)
    ]
    for process in processes:
        process.start()
    reports = [done.get(timeout=600) for _ in processes]
    returned = [i for ids, _, _ in reports for i in ids]
    seconds = max(end for _, _, end in reports) - min(began for _, began, _ in reports)
    for process in processes:
        process.join()
    with Ledger(location) as ledger:
        records = ledger.records()
        whole = sum(
            r.tags == ("all", f"k{r.system[1:]}") and ledger.stats(r.id).score().score == r.score
            for r in records
        )
        notes = {(r.system, r.note) for r in records}
    expected = writers * appends
    return (
        f"{writers} processes x {appends} appends at once: {len(records)} records of {expected} "
        f"({len(set(returned))} distinct ids returned), {len(notes)} distinct (writer, append), "
        f"{whole} whole; {expected / seconds:.0f} appends/s while all wrote"
    )


def crashes(location: str, kills: int, seed: int = 7) -> str:
    """Kill a looping writer ``kills`` times; what the ledger holds after."""
    from understudy import BLEU
    from understudy.ledger import Ledger

    from tests.ledger.test_ledger import WRITER  # the tests' writer: appends in a loop until killed

    chance = random.Random(seed)
    for _ in range(kills):
        child = subprocess.Popen([sys.executable, "-c", WRITER, location], stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        time.sleep(chance.uniform(0.01, 0.5))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    with Ledger(location) as ledger:
        records = ledger.records()
        torn = [r.id for r in records if r.tags != ("x", "y") or len(r.note) != 10000]
        unreadable = [r.id for r in records if ledger.stats(r.id).score().score != r.score]
        after = ledger.append(BLEU().segment_stats(["a"], [["a"]]), "after", "toy")
        writable = ledger.get(after).system == "after"
    return (
        f"{kills} SIGKILLs mid-append: {len(records)} records kept, {len(torn)} torn, "
        f"{len(unreadable)} with unreadable statistics; opens and takes appends after: {writable}"
    )


def main() -> None:
    """Measure both backends and print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--writers", type=int, default=32)
    parser.add_argument("--appends", type=int, default=50)
    parser.add_argument("--kills", type=int, default=20)
    args = parser.parse_args()
    from tests.support import postgres_server

    folder = Path(tempfile.mkdtemp(prefix="understudy-stress-"))
    backends: list[tuple[str, Any]] = [("SQLite", iter(str(folder / f"{k}.sqlite") for k in range(2)))]
    server = None
    try:
        server = postgres_server.start()
        backends.append(("PostgreSQL", iter(server.database() for _ in range(2))))
    except (OSError, KeyError, RuntimeError) as err:
        print(f"no PostgreSQL server ({err}): SQLite alone", file=sys.stderr)
    try:
        for name, locations in backends:
            print(f"{name}: {concurrency(next(locations), args.writers, args.appends)}")
            print(f"{name}: {crashes(next(locations), args.kills)}")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
