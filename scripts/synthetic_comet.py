"""Synthetic COMET-style segment scores, in comet-score's output format, for README examples.

    python scripts/synthetic_comet.py SYSTEM_FILE... --ref REF > comet.out

No COMET model runs here (it needs a GPU model download): each segment's score is a seeded,
deterministic stand-in on COMET's 0..1 scale, ``0.5 + 0.45 * tanh(2.5 * (chrF/100 - 0.45))``
plus Gaussian noise (sd 0.04), rounded to 4 decimals as comet-score prints them. The lines are
``FILE<TAB>Segment i<TAB>score: x`` (i from 0) and each file's ``FILE<TAB>score: mean``, where
FILE is the system file's name. The numbers show the plumbing; they are not COMET's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np


def main() -> int:
    """Write the scores of every system file to standard output."""
    from understudy import CHRF

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("systems", nargs="+", help="system output files")
    parser.add_argument("--ref", required=True, help="the reference file")
    parser.add_argument("--seed", type=int, default=2017)
    args = parser.parse_args()
    refs = Path(args.ref).read_text(encoding="utf-8").splitlines()
    chrf = CHRF(references=[refs])
    rng = np.random.default_rng(args.seed)
    lines, means = [], []
    for path in args.systems:
        hyps = Path(path).read_text(encoding="utf-8").splitlines()
        quality = chrf.sentence_scores(hyps) / 100
        scores = np.clip(0.5 + 0.45 * np.tanh(2.5 * (quality - 0.45)) + rng.normal(0, 0.04, len(hyps)), 0, 1)
        name = Path(path).name
        lines += [f"{name}\tSegment {i}\tscore: {v:.4f}" for i, v in enumerate(scores)]
        means.append(f"{name}\tscore: {np.mean(np.round(scores, 4)):.4f}")
    sys.stdout.write("\n".join(lines + means) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
