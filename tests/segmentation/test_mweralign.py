"""Resegmentation against mweralign 1.4.1 (``-m none``: whitespace words), run as a black box in
its own process: the same words in every segment, on 2,000 generated documents, on the WMT17
systems with their line breaks removed (blocks of 20 lines as documents), and on streams with
breaks at random places.

mweralign's two faults are not reproduced (docs/resegmentation.md): when a document's last
reference line is empty it writes one line fewer (the empty segment's), and with a single empty
reference line it writes nothing, its words lost (or crashes, with an empty hypothesis). The
comparison reads its output knowing the first; the generator leaves out the second.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from understudy.segmentation import resegment

from tests.support.paths import SHARED

MWERALIGN = shutil.which("mweralign", path=str(Path(sys.executable).parent)) or shutil.which("mweralign")
pytestmark = pytest.mark.skipif(MWERALIGN is None, reason="mweralign 1.4.1 (the test extra) is not installed")
SYSTEMS = sorted(p.name for p in SHARED.glob("newstest2017.*.en-de.de") if ".ref." not in p.name)


def mweralign(folder: Path, refs: list[str], hyps: list[str], docids: list[str] | None) -> list[str]:
    """mweralign's output lines for ``refs`` (one a line) and ``hyps`` (one a document, or the
    stream's lines without ``docids``)."""
    (folder / "ref").write_text("".join(line + "\n" for line in refs), encoding="utf-8")
    (folder / "hyp").write_text("".join(line + "\n" for line in hyps), encoding="utf-8")
    argv = [str(MWERALIGN), "-m", "none", "-r", str(folder / "ref"), "-t", str(folder / "hyp")]
    if docids is not None:
        (folder / "ids").write_text("".join(d + "\n" for d in docids), encoding="utf-8")
        argv += ["-d", str(folder / "ids")]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=True)
    return done.stdout.split("\n")[:-1]


def as_mweralign_writes(refs: list[str], sizes: list[int], ours: list[str]) -> list[list[str]]:
    """Our segments' words, as mweralign writes them: a document whose last reference line is
    empty without that (empty) segment."""
    out, start = [], 0
    for size in sizes:
        segments = ours[start : start + size]
        if not refs[start + size - 1].split():
            assert segments[-1] == ""  # the cut puts nothing after an empty last reference
            segments = segments[:-1]
        out += [segment.split() for segment in segments]
        start += size
    return out


def generated(rng: random.Random) -> tuple[list[str], str]:
    """A document: reference lines over a small vocabulary (some empty), and a hypothesis made
    from them with words dropped, replaced, inserted and repeated, sometimes shuffled."""
    vocabulary = [chr(97 + k) for k in range(rng.choice([3, 5, 8, 26]))]
    vocabulary += [w.upper() for w in vocabulary[:2]]  # compared lowercased
    lines = rng.randint(1, 8)
    refs = [
        " ".join(rng.choice(vocabulary) for _ in range(rng.choice([0, 1, 2, 3, 5, 8, 13])))
        for _ in range(lines)
    ]
    hyp: list[str] = []
    for word in " ".join(refs).split():
        roll = rng.random()
        if roll < 0.12:
            continue
        hyp.append(rng.choice(vocabulary) if roll < 0.25 else word)
        if rng.random() < 0.12:
            hyp.append(rng.choice(vocabulary))
        if rng.random() < 0.05:
            hyp += hyp[-3:]
    if rng.random() < 0.08:
        rng.shuffle(hyp)
    if len(refs) == 1 and not refs[0].split():
        refs[0] = "a"  # mweralign loses the words of a single empty reference line
    return refs, " ".join(hyp)


def test_two_thousand_generated_documents_cut_as_mweralign_cuts(tmp_path: Path) -> None:
    rng = random.Random(46)
    cases = [generated(rng) for _ in range(2000)]
    refs = [line for case_refs, _ in cases for line in case_refs]
    docids = [f"d{k}" for k, (case_refs, _) in enumerate(cases) for _ in case_refs]
    hyps = [hyp for _, hyp in cases]
    sizes = [len(case_refs) for case_refs, _ in cases]
    ours = resegment(hyps, refs, docids=docids)
    theirs = [line.split() for line in mweralign(tmp_path, refs, hyps, docids)]
    assert as_mweralign_writes(refs, sizes, ours) == theirs
    # The cases are hard ones: mweralign's ties and its extra cost at the first word decide
    # many of them (the least cost cuts at least 50 of them otherwise).
    least = resegment(hyps, refs, docids=docids, method="min-edit")
    assert sum(a != b for a, b in zip(least, ours, strict=True)) >= 50


def _lines(name: str) -> list[str]:
    with open(SHARED / name, encoding="utf-8-sig", newline="\n") as fh:
        return [line.rstrip("\n") for line in fh]


@pytest.mark.parametrize("system", SYSTEMS)
def test_wmt17_systems_without_their_line_breaks(system: str, tmp_path: Path) -> None:
    refs, lines = _lines("newstest2017.ref.en-de.de"), _lines(system)
    docids = [f"block{k // 20}" for k in range(len(refs))]
    hyps = [" ".join(lines[k : k + 20]) for k in range(0, len(lines), 20)]
    ours = resegment(hyps, refs, docids=docids)
    sizes = [min(20, len(refs) - k) for k in range(0, len(refs), 20)]
    assert as_mweralign_writes(refs, sizes, ours) == [
        line.split() for line in mweralign(tmp_path, refs, hyps, docids)
    ]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_stream_broken_at_random_places(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    system = SYSTEMS[seed * 5 % len(SYSTEMS)]
    start = rng.randrange(0, 2700)
    refs = _lines("newstest2017.ref.en-de.de")[start : start + 250]
    words = " ".join(_lines(system)[start : start + 250]).split()
    breaks = sorted(rng.sample(range(1, len(words)), 40))
    stream = [" ".join(words[a:b]) for a, b in zip([0, *breaks], [*breaks, len(words)], strict=True)]
    ours = resegment(stream, refs)
    assert as_mweralign_writes(refs, [len(refs)], ours) == [
        line.split() for line in mweralign(tmp_path, refs, stream, None)
    ]
