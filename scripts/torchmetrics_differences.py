"""How far understudy.torchmetrics is from torchmetrics on WMT17 English-German, system by system:
the measured size of each documented difference (README, "Switching from torchmetrics").

    python scripts/torchmetrics_differences.py [--data ../shared/data/wmt17-en-de] [--metrics bleu chrf ...]

Needs the torch extra. torchmetrics' chrF takes about 70 s a system and its TER about 20 s here,
so the whole run takes about 25 minutes; it prints a Markdown table.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torchmetrics.functional.text as tm
from understudy.torchmetrics.functional import text as us

METRICS: dict[str, tuple[Callable[..., Any], Callable[..., Any], bool]] = {
    # name: (torchmetrics' function, understudy's, whether it takes a list of references each)
    "BLEUScore": (tm.bleu_score, us.bleu_score, True),
    "SacreBLEUScore": (tm.sacre_bleu_score, us.sacre_bleu_score, True),
    "CHRFScore": (tm.chrf_score, us.chrf_score, True),
    "TranslationEditRate": (tm.translation_edit_rate, us.translation_edit_rate, True),
    "WordErrorRate": (tm.word_error_rate, us.word_error_rate, False),
    "CharErrorRate": (tm.char_error_rate, us.char_error_rate, False),
}


def read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path(__file__).parents[2] / "shared/data/wmt17-en-de")
    parser.add_argument("--metrics", nargs="+", default=list(METRICS), choices=list(METRICS))
    args = parser.parse_args()
    ref = read(args.data / "newstest2017.ref.en-de.de")
    systems = sorted(p for p in args.data.glob("newstest2017.*.en-de.de") if ".ref." not in p.name)
    print("| class | systems that differ | largest difference (0-1 scale) | on system |")
    print("|---|---|---|---|")
    for name in args.metrics:
        theirs, ours, listed = METRICS[name]
        target: Any = [[line] for line in ref] if listed else ref
        gaps = []
        for path in systems:
            hyp = read(path)
            gaps.append((abs(float(theirs(hyp, target)) - float(ours(hyp, target))), path.name))
            print(f"{name} {path.name}: {gaps[-1][0]:.3g}", file=sys.stderr, flush=True)
        differing = sum(gap > 0 for gap, _ in gaps)
        largest = max(gaps)
        print(f"| {name} | {differing} of {len(gaps)} | {largest[0]:.2g} | {largest[1].split('.')[1]} |")


if __name__ == "__main__":
    main()
