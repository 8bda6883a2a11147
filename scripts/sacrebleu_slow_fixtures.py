"""Make tests/fixtures/sacrebleu_slow.json: sacrebleu's answers to the comparisons too slow to run live.

sacrebleu is the oracle of understudy's paired tests and of its TER; asking it live cost over
five minutes of CPU in every test run (its paired bootstrap and approximate randomization on
16 WMT17 systems, its TER on 120-word sentences, its BLEU and chrF rows of every WMT17 system
under each tokenizer, its zh and intl tokenizers on every code point). It is asked here once,
outside the tests:

    python scripts/sacrebleu_slow_fixtures.py          # the data in ../shared beside the clone
    python scripts/sacrebleu_slow_fixtures.py --only unicode   # one part anew, the others kept

The inputs are tests/support/recorded_oracles.py's, read as the tests read them; each paired answer is
kept with the SHA-256 of the lines it was computed on, and the test refuses a stale one.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from understudy import TERConfig  # noqa: E402
from understudy.files.atomic import atomic_write  # noqa: E402

from tests.support.parity import their_rows, theirs  # noqa: E402
from tests.support.paths import SHARED, read_raw  # noqa: E402
from tests.support.recorded_oracles import (  # noqa: E402
    FIXTURE,
    PAIRED_CONFIGS,
    PAIRED_SEED,
    PAIRED_TESTS,
    SWEEP_CONFIGS,
    TER_BEAM_PAIRWISE,
    lines_sha256,
    paired_data,
    recorded,
    rows_sha256,
    ter_beam_cases,
    unicode_lines,
)

COMMAND = "python scripts/sacrebleu_slow_fixtures.py"


def _plain(value: Any) -> Any:
    """A NumPy scalar (sacrebleu's float32 means) as the Python number it equals."""
    return value.item() if hasattr(value, "item") else value


def paired(data: Path) -> dict[str, Any]:
    """sacrebleu's paired bootstrap and approximate randomization of each configuration."""
    from sacrebleu.significance import PairedTest

    os.environ["SACREBLEU_SEED"] = str(PAIRED_SEED)
    ref_all = read_raw(data / "newstest2017.ref.en-de.de")
    paths = sorted(p for p in data.glob("newstest2017.*.de") if ".ref." not in p.name)
    systems_all = {p.name.split(".")[1]: read_raw(p) for p in paths}
    out: dict[str, Any] = {}
    for config in PAIRED_CONFIGS:
        ref, names, systems = paired_data(config, ref_all, systems_all)
        for test, n in PAIRED_TESTS:
            _, results = PairedTest(
                list(zip(names, systems, strict=True)),
                {"M": theirs(config, [ref])},
                None,
                test_type=test,
                n_samples=n,
                n_ar_confidence=0 if test == "ar" else -1,
            )()
            (rows,) = (v for k, v in results.items() if k != "System")
            out[f"{config}|{test}|{n}"] = {
                "sha256": [lines_sha256(lines) for lines in [ref, *systems]],
                "results": [[_plain(v) for v in (r.score, r.mean, r.ci, r.p_value)] for r in rows],
            }
            print(f"{config} {test}: done", file=sys.stderr)
    return out


def sweeps(data: Path) -> dict[str, Any]:
    """sacrebleu's statistics rows (their SHA-256) and corpus score of every WMT17 system under
    each sweep configuration."""
    ref = read_raw(data / "newstest2017.ref.en-de.de")
    paths = sorted(p for p in data.glob("newstest2017.*.de") if ".ref." not in p.name)
    systems = {p.name.split(".")[1]: read_raw(p) for p in paths}
    names = sorted(systems)
    out: dict[str, Any] = {}
    for config in SWEEP_CONFIGS:
        metric = theirs(config, [ref])
        rows = [their_rows(config, metric, systems[name], None) for name in names]
        out[str(config)] = {
            "systems": names,
            "sha256": [lines_sha256(ref), *(lines_sha256(systems[n]) for n in names)],
            "rows_sha256": [rows_sha256(r) for r in rows],
            "scores": [metric._aggregate_and_compute(r.tolist()).score for r in rows],
        }
        print(f"{config}: done", file=sys.stderr)
    return out


def unicode_sweeps() -> dict[str, Any]:
    """The SHA-256 of sacrebleu's zh and intl tokens of every code point's line, and the Unicode
    and regex versions they hold for."""
    import unicodedata

    import regex
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    tokenizers = {"zh": TokenizerZh(), "intl": TokenizerV14International()}
    out: dict[str, Any] = {"unicode": unicodedata.unidata_version, "regex": regex.__version__}
    for name, tokenizer in tokenizers.items():
        out[name] = lines_sha256([tokenizer(line.rstrip()) for line in unicode_lines(name)])
        print(f"unicode {name}: done", file=sys.stderr)
    return out


def million(data: Path) -> dict[str, Any]:
    """sacrebleu's BLEU (order 5) of one segment of over a million tokens: the WMT17 test set
    twenty times over as one line, uedin-nmt's against the reference."""
    from sacrebleu.metrics import BLEU

    ref, hyp = (read_raw(data / f"newstest2017.{name}.de") for name in ("ref.en-de", "uedin-nmt.4722.en-de"))
    result = BLEU(max_ngram_order=5).corpus_score([" ".join(hyp * 20)], [[" ".join(ref * 20)]])
    sha256 = [lines_sha256(ref), lines_sha256(hyp)]
    return {"sha256": sha256, "counts": result.counts, "totals": result.totals, "score": result.score}


def ter_beam() -> dict[str, Any]:
    """sacrebleu's TER statistics, corpus score, sentence scores and all pairs of the beam cases."""
    hyps, refs = ter_beam_cases()
    config = TERConfig()
    metric = theirs(config, [refs])
    k = TER_BEAM_PAIRWISE
    return {
        "rows": their_rows(config, metric, hyps, None).tolist(),
        "corpus": metric.corpus_score(hyps, None).score,
        "sentences": [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)],
        "pairs": [[metric.sentence_score(h, [r]).score for r in refs[:k]] for h in hyps[:k]],
    }


PARTS = {
    "ter_beam": lambda data: ter_beam(),
    "paired": paired,
    "sweeps": sweeps,
    "unicode": lambda data: unicode_sweeps(),
    "million": million,
}
"""Each part of the fixture and what makes it from the WMT17 folder."""


def main() -> None:
    """Ask sacrebleu and write the fixture."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=SHARED, help=f"the WMT17 folder (default: {SHARED})")
    parser.add_argument(
        "--only", choices=sorted(PARTS), action="append", help="make this part anew, keep the rest"
    )
    args = parser.parse_args()
    import sacrebleu

    record = {"command": COMMAND, "oracle": f"sacrebleu {sacrebleu.__version__}"}
    kept = recorded() if args.only else {}
    for part, make in PARTS.items():
        record[part] = make(args.data) if not args.only or part in args.only else kept[part]
    with atomic_write(FIXTURE) as fh:
        fh.write((json.dumps(record, indent=1) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
