"""Resegmentation by characters (``split="chars"``), for languages written without spaces.

On text of Han characters alone, mweralign's ``-m cj`` (Han characters as units) is the same
alignment, so its cuts are the oracle: 500 generated Chinese documents. (Elsewhere ``cj`` is not
a character-level variant: it takes the text between two Han characters, spaces and all, as one
unit, so an English line is one unit.) On WMT21 TED's English output, cut back from 20-line
blocks by characters against both references: nothing lost, and most segments as submitted.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from understudy.segmentation import resegment

from tests.segmentation.test_mweralign import MWERALIGN
from tests.support.paths import SHARED

TED = SHARED.parent / "wmt21-ted-zh-en-mqm"
HAN = (
    "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着"
    "去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主"
    "行方又如前所本见经头面公同三已老从动两长"
)


def _documents(rng: random.Random) -> tuple[list[str], str]:
    """Reference lines of Han characters, and a hypothesis made from them with characters
    dropped, replaced and inserted."""
    alphabet = HAN[: rng.choice([4, 10, 60])]
    refs = [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(rng.randint(1, 6))
    ]
    hyp = []
    for char in "".join(refs):
        roll = rng.random()
        if roll < 0.1:
            continue
        hyp.append(rng.choice(alphabet) if roll < 0.2 else char)
        if rng.random() < 0.1:
            hyp.append(rng.choice(alphabet))
    return refs, "".join(hyp) or alphabet[0]


@pytest.mark.skipif(MWERALIGN is None, reason="mweralign 1.4.1 (the test extra) is not installed")
def test_han_text_cuts_as_mweralign_cj_cuts(tmp_path: Path) -> None:
    import subprocess

    rng = random.Random(2025)
    cases = [_documents(rng) for _ in range(500)]
    refs = [line for case_refs, _ in cases for line in case_refs]
    docids = [f"d{k}" for k, (case_refs, _) in enumerate(cases) for _ in case_refs]
    hyps = [hyp for _, hyp in cases]
    for name, lines in [("ref", refs), ("hyp", hyps), ("ids", docids)]:
        (tmp_path / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    argv = [str(MWERALIGN), "-m", "cj", "-r", str(tmp_path / "ref"), "-t", str(tmp_path / "hyp")]
    done = subprocess.run([*argv, "-d", str(tmp_path / "ids")], capture_output=True, text=True, check=True)
    theirs = done.stdout.split("\n")[:-1]
    assert resegment(hyps, refs, docids=docids, split="chars") == theirs


def _lines(name: str) -> list[str]:
    with open(TED / name, encoding="utf-8-sig", newline="\n") as fh:
        return [line.rstrip("\n") for line in fh]


@pytest.mark.parametrize("system", ["Facebook-AI.txt", "Online-W.txt", "metricsystem1.txt"])
def test_ted_cut_back_by_characters_against_two_references(system: str) -> None:
    refs = [_lines("ref-A.txt"), _lines("ref-B.txt")]
    lines = _lines(system)
    docids = [f"block{k // 20}" for k in range(len(lines))]
    blocks = [" ".join(lines[k : k + 20]) for k in range(0, len(lines), 20)]
    cut = resegment(blocks, refs, docids=docids, split="chars", case="unicode")
    assert len(cut) == len(lines)
    # Nothing lost or reordered: the characters of the cut are the system's.
    assert "".join(cut).replace(" ", "") == "".join(lines).replace(" ", "")
    same = sum(a.split() == b.split() for a, b in zip(cut, lines, strict=True))
    assert same > 0.5 * len(lines)
