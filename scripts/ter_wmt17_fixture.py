"""Make tests/fixtures/ter_wmt17.json.gz: sacrebleu's TER statistics of the 16 WMT17 systems.

sacrebleu's TER is the oracle of understudy's, and recomputing it for 16 systems of 3,004
segments took 567 s of CPU in every test run. It is computed here once, outside the tests:

    python scripts/ter_wmt17_fixture.py            # the data in ../shared beside the clone

Each system's lines are read as the tests read them (UTF-8, BOM kept, split on \\n, right-stripped),
scored with sacrebleu.metrics.TER() (its defaults: understudy's TERConfig()), and kept with the
SHA-256 of the file, sacrebleu's segment statistics (edits, average reference length) and its
corpus score. The test refuses a fixture whose hashes do not match the data (regenerate it then).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from pathlib import Path

from understudy.files.atomic import atomic_write

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data" / "wmt17-en-de"
OUT = REPO / "tests" / "fixtures" / "ter_wmt17.json.gz"
COMMAND = "python scripts/ter_wmt17_fixture.py"


def read_raw(path: Path) -> list[str]:
    """Lines as sacrebleu's API users read them (tests/conftest.py's reader)."""
    with open(path, encoding="utf-8", newline="\n") as fh:
        return [line.rstrip() for line in fh]


def sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    """Score every system with sacrebleu's TER and write the fixture."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=SHARED, help=f"the WMT17 folder (default: {SHARED})")
    args = parser.parse_args()
    import sacrebleu
    from sacrebleu.metrics import TER

    ref_path = args.data / "newstest2017.ref.en-de.de"
    ter = TER(references=[read_raw(ref_path)])
    systems = {}
    for path in sorted(p for p in args.data.glob("newstest2017.*.de") if ".ref." not in p.name):
        rows = ter._extract_corpus_statistics(read_raw(path), None)
        score = ter._aggregate_and_compute(rows).score
        systems[path.name.split(".")[1]] = {"sha256": sha256(path), "rows": rows, "score": score}
        print(f"{path.name}: TER {score:.4f}", file=sys.stderr)
    record = {
        "command": COMMAND,
        "oracle": f"sacrebleu {sacrebleu.__version__}, sacrebleu.metrics.TER()",
        "reference_sha256": sha256(ref_path),
        "systems": systems,
    }
    with atomic_write(OUT) as fh, gzip.GzipFile(fileobj=fh, mode="wb", mtime=0) as packed:
        packed.write(json.dumps(record).encode("utf-8"))


if __name__ == "__main__":
    main()
