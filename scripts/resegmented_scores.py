"""What resegmentation costs a score: each WMT17 system's BLEU and chrF as submitted, and after its
line breaks were removed (20-line blocks as documents) and the blocks were cut back into the
reference's lines by ``understudy.segmentation.resegment`` (mweralign's cut). The differences
measure the method: a word at a boundary that matches nothing can land on either side.

    python scripts/resegmented_scores.py [DATA]    # DATA: the WMT17 en-de folder (../shared/data/wmt17-en-de)
"""

from __future__ import annotations

import sys
from pathlib import Path

from understudy import BLEU, CHRF
from understudy.segmentation import resegment

BLOCK = 20


def lines(path: Path) -> list[str]:
    with open(path, encoding="utf-8-sig", newline="\n") as fh:
        return [line.rstrip("\n") for line in fh]


def rows(data: Path) -> list[tuple[str, float, float, float, float, float]]:
    """Each system: BLEU, its change, chrF, its change, the share of segments cut as submitted."""
    refs = lines(data / "newstest2017.ref.en-de.de")
    docids = [f"block{k // BLOCK}" for k in range(len(refs))]
    out = []
    for path in sorted(data.glob("newstest2017.*.en-de.de")):
        if ".ref." in path.name:
            continue
        hyps = lines(path)
        blocks = [" ".join(hyps[k : k + BLOCK]) for k in range(0, len(hyps), BLOCK)]
        cut = resegment(blocks, refs, docids=docids)
        bleu, chrf = BLEU().corpus_score(hyps, [refs]).score, CHRF().corpus_score(hyps, [refs]).score
        bleu_cut, chrf_cut = BLEU().corpus_score(cut, [refs]).score, CHRF().corpus_score(cut, [refs]).score
        same = sum(a.split() == b.split() for a, b in zip(cut, hyps, strict=True)) / len(hyps)
        name = path.name.removeprefix("newstest2017.").removesuffix(".en-de.de")
        out.append((name, bleu, bleu_cut - bleu, chrf, chrf_cut - chrf, same))
    return out


def table(data: Path) -> str:
    """The rows as a Markdown table (the documentation's, rendered by ``scripts/docs_hooks.py``)."""
    lines = [
        "| system | BLEU | resegmented | chrF2 | resegmented | segments as submitted |",
        "|---|---|---|---|---|---|",
    ]
    for name, bleu, d_bleu, chrf, d_chrf, same in rows(data):
        lines.append(f"| {name} | {bleu:.2f} | {d_bleu:+.2f} | {chrf:.2f} | {d_chrf:+.2f} | {same:.1%} |")
    return "\n".join(lines)


def main() -> None:
    here = Path(__file__).resolve().parent.parent
    print(table(Path(sys.argv[1]) if len(sys.argv) > 1 else here.parent / "shared" / "data" / "wmt17-en-de"))


if __name__ == "__main__":
    main()
