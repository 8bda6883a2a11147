"""``understudy site`` on a team-sized ledger: 10,000 records over 20 test sets, 50 systems and 6
metrics (BLEU, chrF, chrF++, TER, WER, GLEU), each test set 1000 WMT17 segments.

The records: every system's latest record under each metric (6,000), and 4,000 earlier ones
(BLEU, chrF, TER and WER kept once before), so each page has history. The 50 systems are
seeded mixtures of the 16 WMT17 systems' lines (system k takes each segment from a system drawn
with its own weights), so their scores differ by small, realistic margins and the clusters are
not trivial. Each test set is 1000 consecutive lines of the 3004, starting 150 lines further on
for each.

Timed: the site built by the command line in a fresh process (``understudy site --ledger L -o
DIR``, 1000 bootstrap resamples per column, as compare), beside ``understudy ledger list`` of
the same records as JSON in the same run (the terminal view of them, no clusters); then the
largest test-set page opened in headless Chromium (its load time and console errors), when
Chromium and selenium are installed. Each once: the build is a run of many seconds.

    python benchmarks/site.py

Results: benchmarks/results/site.json.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
TESTSETS, SYSTEMS, SEGMENTS, STRIDE = 20, 50, 1000, 150


def lines(path: Path) -> list[str]:
    """A file's lines as sacrebleu's command line reads them."""
    return path.read_text(encoding="utf-8-sig").splitlines()


def mixtures(systems: list[list[str]], seed: int = 0) -> list[list[str]]:
    """``SYSTEMS`` systems, each segment of system k from a real system drawn with k's weights."""
    rng = np.random.default_rng(seed)
    made = []
    for _ in range(SYSTEMS):
        weights = rng.dirichlet(np.full(len(systems), 0.3))
        picks = rng.choice(len(systems), size=len(systems[0]), p=weights)
        made.append([systems[p][i] for i, p in enumerate(picks)])
    return made


def fill(location: str) -> int:
    """The ledger of 10,000 records; their number."""
    from understudy import BLEU, CHRF, GLEU, TER, WER
    from understudy.ledger import Ledger

    ref = lines(DATA / "newstest2017.ref.en-de.de")
    real = [lines(p) for p in sorted(DATA.glob("newstest2017.*.de")) if ".ref." not in p.name]
    latest, earlier = mixtures(real, 1), mixtures(real, 2)
    metrics: list[Any] = [BLEU(), CHRF(), CHRF(word_order=2), TER(), WER(), GLEU()]
    count = 0
    with Ledger(location) as ledger:
        for run, systems, chosen in (
            ("earlier", earlier, metrics[:2] + metrics[3:5]),
            ("latest", latest, metrics),
        ):
            for t in range(TESTSETS):
                window = [(t * STRIDE + i) % len(ref) for i in range(SEGMENTS)]
                refs = [[ref[i] for i in window]]
                hyps = [[system[i] for i in window] for system in systems]
                entries = []
                for metric in chosen:
                    for k, stats in enumerate(metric.segment_stats_many(hyps, refs)):
                        entries.append((stats, f"system-{k:02d}", f"bench-{t:02d}:en-de", ""))
                count += len(ledger.append_many(entries, tags=[run, f"team-{t % 3}"], revision=run))
    return count


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, timeout=600)
    return time.perf_counter() - start


def opened(page: Path) -> dict[str, Any]:
    """The page's load time and console errors in headless Chromium (None without it)."""
    try:
        from tests.support.browser import chromium, console_errors
    except ImportError:
        return {"open_ms": None, "console_errors": None}
    driver_of = chromium()
    try:
        driver = next(driver_of)
    except BaseException:  # pytest.skip without Chromium
        return {"open_ms": None, "console_errors": None}
    try:
        driver.get(page.as_uri())
        ms = driver.execute_script(
            "const t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd - t.startTime"
        )
        return {"open_ms": ms, "console_errors": len(console_errors(driver))}
    finally:
        driver_of.close()


def main() -> None:
    """Fill the ledger, build the site, list the records, open the largest page; write the results."""
    folder = Path(tempfile.mkdtemp(prefix="understudy-bench-site-"))
    location = str(folder / "l.sqlite")
    records = fill(location)
    cli = [sys.executable, "-m", "understudy"]
    site = folder / "site"
    build = timed([*cli, "site", "--ledger", location, "-o", str(site)])
    listing = timed([*cli, "ledger", "list", "--ledger", location, "-f", "json"])
    pages = sorted((site / "testsets").glob("*.html"), key=lambda p: p.stat().st_size)
    results = {
        "command": "python benchmarks/site.py",
        "date": time.strftime("%Y-%m-%d"),
        "machine": {
            "platform": platform.platform(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
        },
        "ledger": {
            "records": records,
            "testsets": TESTSETS,
            "systems": SYSTEMS,
            "metrics": 6,
            "segments": SEGMENTS,
        },
        "site_seconds": build,
        "ledger_list_seconds": listing,
        "ratio_site_to_list": build / listing,
        "files": sum(1 for _ in site.rglob("*.html")),
        "largest_testset_page_bytes": pages[-1].stat().st_size,
        "largest_record_page_bytes": max(p.stat().st_size for p in (site / "records").glob("*.html")),
        **opened(pages[-1]),
    }
    out = REPO / "benchmarks" / "results" / "site.json"
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
