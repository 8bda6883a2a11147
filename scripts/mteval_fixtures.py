"""Make tests/fixtures/mteval_nist.json: mteval-v13a.pl's NIST scores, the oracle CI cannot download.

mteval-v13a.pl is in moses-smt/mosesdecoder (scripts/generic/mteval-v13a.pl); it is not shipped
here. Run this outside the tests, with Perl, on a copy of the script:

    python scripts/mteval_fixtures.py --mteval /tmp/mteval-v13a.pl

Each case is written as mteval's SGML (one document, segments numbered from 1), scored with
``perl mteval-v13a.pl -n --metricsMATR [-c] -r ref.sgm -s src.sgm -t tst.sgm``, and the system and
segment scores of NIST-sys.scr and NIST-seg.scr (Perl's full precision) are recorded with the
command line. Cases: the WMT17 English-German systems (one reference), the WMT21 TED
Chinese-English systems (two references), and seeded generated lines with Unicode whitespace,
combining marks, case-changing letters, entities, digits with periods and commas, and empty
hypotheses. Lines never contain ``<`` (the SGML reader would take it for a tag), and references
are never empty (mteval divides by a segment's reference length).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path

from understudy.files.atomic import atomic_write

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
OUT = REPO / "tests" / "fixtures" / "mteval_nist.json"

PIECES = [
    "The", "the", "Über", "über", "ÄRGER", "İstanbul", "straße", "STRASSE", "e\u0301", "é", "中文", "日本",
    "cat", "cat,", "3.14", "1,000", "U.S.", "end.", "(x)", "&amp;", "&quot;", "a-b", "9-", "--", "'s", "n't",
    "$5", "@user", "#tag", "…", "—", "«", "»",
]  # fmt: skip
SPACES = [" ", " ", " ", "  ", "\t", "\u00a0", "\u2003", "\u3000", "\u202f", " \u00a0 "]


def generated(seed: int, n: int) -> dict[str, list[str]]:
    """Seeded adversarial lines: a reference (never empty) and two systems."""
    rng = random.Random(seed)

    def line(min_words: int) -> str:
        words = [rng.choice(PIECES) for _ in range(rng.randint(min_words, 14))]
        return "".join(w + rng.choice(SPACES) for w in words).strip(" ") if words else ""

    ref = [line(1) for _ in range(n)]
    near = [r if rng.random() < 0.3 else line(0) for r in ref]
    far = [line(0) for _ in range(n)]
    return {"ref": ref, "near": near, "far": far}


def sgml(kind: str, name: str, lines: list[str]) -> str:
    """One of mteval's SGML files: a set of one document."""
    head = {"src": "srcset", "ref": "refset", "tst": "tstset"}[kind]
    who = {"src": "", "ref": f' sysid="{name}"', "tst": f' sysid="{name}"'}[kind]
    segs = "".join(f'<seg id="{i}">{text}</seg>\n' for i, text in enumerate(lines, 1))
    return (
        f'<{head} setid="fixture" srclang="any" trglang="any">\n'
        f'<doc docid="doc"{who} genre="any">\n{segs}</doc>\n</{head}>\n'
    )


def run_mteval(
    mteval: Path, refs: dict[str, list[str]], systems: dict[str, list[str]], preserve_case: bool
) -> tuple[list[str], dict[str, float], dict[str, list[float]]]:
    """mteval's NIST of every system: the command, system scores and segment scores."""
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        first = next(iter(refs.values()))
        (work / "src.sgm").write_text(sgml("src", "src", ["x"] * len(first)), encoding="utf-8")
        ref_sets = "".join(sgml("ref", name, lines) for name, lines in refs.items())
        (work / "ref.sgm").write_text(ref_sets, encoding="utf-8")
        (work / "tst.sgm").write_text(
            "".join(sgml("tst", name, lines) for name, lines in systems.items()), encoding="utf-8"
        )
        command = [
            "perl",
            str(mteval),
            "-n",
            "--metricsMATR",
            "-r",
            "ref.sgm",
            "-s",
            "src.sgm",
            "-t",
            "tst.sgm",
        ]
        command += ["-c"] * preserve_case
        subprocess.run(command, cwd=work, check=True, capture_output=True)
        system_scores = {
            sys: float(score)
            for _, sys, score in (
                line.split("\t") for line in (work / "NIST-sys.scr").read_text(encoding="utf-8").splitlines()
            )
        }
        segments: dict[str, list[float]] = {name: [0.0] * len(first) for name in systems}
        for line in (work / "NIST-seg.scr").read_text(encoding="utf-8").splitlines():
            _, sys, _, seg, score = line.split("\t")
            segments[sys][int(seg) - 1] = float(score)
    shown = ["perl", "mteval-v13a.pl", *command[2:]]
    return shown, system_scores, segments


def read(path: Path) -> list[str]:
    """A data file's lines, as the tests read them (UTF-8, a BOM dropped, split at newlines)."""
    return path.read_text(encoding="utf-8-sig").split("\n")[:-1]


def cases() -> dict[str, dict[str, object]]:
    """Every case's references and systems, and whether segment scores are kept."""
    wmt17 = SHARED / "wmt17-en-de"
    systems = {
        p.name.split(".")[1]: read(p)
        for p in sorted(wmt17.glob("newstest2017.*.de"))
        if ".ref." not in p.name
    }
    ted = SHARED / "wmt21-ted-zh-en-mqm"
    ted_systems = {p.stem: read(p) for p in sorted(ted.glob("*.txt")) if not p.stem.startswith("ref-")}
    made = generated(2026, 400)
    wmt17_refs = {"ref": read(wmt17 / "newstest2017.ref.en-de.de")}
    ted_refs = {n: read(ted / f"{n}.txt") for n in ("ref-A", "ref-B")}
    made_systems = {"near": made["near"], "far": made["far"]}
    return {
        "wmt17": {"refs": wmt17_refs, "systems": systems, "segments": ["uedin-nmt"]},
        "ted": {"refs": ted_refs, "systems": ted_systems, "segments": ["Online-W"]},
        "generated": {
            "refs": {"ref": made["ref"]},
            "systems": made_systems,
            "segments": ["near", "far"],
            "lines": made,
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--mteval", type=Path, required=True, help="a copy of mteval-v13a.pl (outside the repository)"
    )
    args = parser.parse_args()
    fixture: dict[str, object] = {"made_by": "python scripts/mteval_fixtures.py --mteval mteval-v13a.pl"}
    for name, case in cases().items():
        for preserve_case in (False, True):
            command, sys_scores, seg_scores = run_mteval(
                args.mteval,
                case["refs"],
                case["systems"],
                preserve_case,  # type: ignore[arg-type]
            )
            key = f"{name}{'-c' if preserve_case else ''}"
            fixture[key] = {
                "command": " ".join(command),
                "system": sys_scores,
                "segments": {s: seg_scores[s] for s in case["segments"]},  # type: ignore[attr-defined]
                **({"lines": case["lines"]} if "lines" in case and not preserve_case else {}),
            }
            print(key, sys_scores)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(OUT) as out:
        out.write((json.dumps(fixture, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
