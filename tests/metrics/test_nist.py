"""NIST against mteval-v13a.pl's scores (fixtures: tests/fixtures/mteval_nist.json, made outside the
tests by scripts/mteval_fixtures.py, whose command each case records) and against NLTK's
``corpus_nist`` where NLTK follows mteval (one reference; NLTK has no ``0`` bug)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from nltk.translate.nist_score import corpus_nist as nltk_corpus_nist
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from understudy import Signature
from understudy.errors import ConfigError
from understudy.metrics.nist import NIST, NISTConfig

from tests.support.cli import run_cli as run
from tests.support.paths import FIXTURES, SAMPLE, SHARED

FIXTURE = json.loads((FIXTURES / "mteval_nist.json").read_text(encoding="utf-8"))
TED = SHARED.parent / "wmt21-ted-zh-en-mqm"

# understudy's information sums are exact at 2^-26 bits a weight; mteval sums floats.
CORPUS_TOLERANCE = 1e-8
SEGMENT_TOLERANCE = 5e-8


def read(path: Path) -> list[str]:
    """A data file's lines as scripts/mteval_fixtures.py gave them to mteval."""
    return path.read_text(encoding="utf-8-sig").split("\n")[:-1]


def check(key: str, refs: list[list[str]], systems: dict[str, list[str]]) -> None:
    want = FIXTURE[key]
    assert want["command"].startswith("perl mteval-v13a.pl -n --metricsMATR")
    metric = NIST(preserve_case=key.endswith("-c"), references=refs)
    assert set(want["system"]) == set(systems)
    for name, hyps in systems.items():
        got = metric.corpus_score(hyps).score
        assert abs(got - want["system"][name]) < CORPUS_TOLERANCE, (key, name)
        assert f"{got:.4f}" == f"{want['system'][name]:.4f}", (key, name)  # what mteval prints
    for name, scores in want["segments"].items():
        got_segments = metric.sentence_scores(systems[name])
        np.testing.assert_allclose(
            got_segments, scores, rtol=0, atol=SEGMENT_TOLERANCE, err_msg=f"{key} {name}"
        )


@pytest.mark.parametrize("key", ["wmt17", "wmt17-c"])
def test_wmt17_systems_are_mtevals(key: str, wmt17_dir: Path) -> None:
    systems = {
        p.name.split(".")[1]: read(p)
        for p in sorted(wmt17_dir.glob("newstest2017.*.de"))
        if ".ref." not in p.name
    }
    check(key, [read(wmt17_dir / "newstest2017.ref.en-de.de")], systems)


@pytest.mark.parametrize("key", ["ted", "ted-c"])
def test_ted_with_two_references_is_mtevals(key: str, wmt17_dir: Path) -> None:
    systems = {p.stem: read(p) for p in sorted(TED.glob("*.txt")) if not p.stem.startswith("ref-")}
    check(key, [read(TED / "ref-A.txt"), read(TED / "ref-B.txt")], systems)


@pytest.mark.parametrize("key", ["generated", "generated-c"])
def test_generated_adversarial_lines_are_mtevals(key: str) -> None:
    lines = FIXTURE["generated"]["lines"]
    # Unicode whitespace, combining marks, İ and ß, entities, digits with periods and commas, empty
    # hypotheses: all there.
    assert any("\u3000" in line for line in lines["ref"]) and "" in lines["far"]
    check(key, [lines["ref"]], {"near": lines["near"], "far": lines["far"]})


def test_mtevals_zero_bug_is_kept_and_fixed_by_name(wmt17_dir: Path) -> None:
    ref = read(wmt17_dir / "newstest2017.ref.en-de.de")
    hyps = read(wmt17_dir / "newstest2017.uedin-nmt.4722.en-de.de")
    # Segment 1308: "12-0 und ...": mteval weighs "0 und" against every word of the corpus.
    kept, fixed = (NIST(fix_zero=f, references=[ref]).sentence_scores(hyps)[1307] for f in (False, True))
    assert abs(kept - FIXTURE["wmt17"]["segments"]["uedin-nmt"][1307]) < SEGMENT_TOLERANCE
    assert fixed < kept - 1
    assert str(Signature(1, NISTConfig(fix_zero=True))).startswith(
        "metric:nist|nrefs:1|case:lc-ascii|zero:fixed|"
    )


def test_nltk_agrees_where_it_follows_mteval(wmt17_dir: Path) -> None:
    # One reference, case kept, 13a tokens given to NLTK, no "0" bug: the same NIST to rounding.
    tok = Tokenizer13a()
    ref = read(wmt17_dir / "newstest2017.ref.en-de.de")[:600]
    hyps = read(wmt17_dir / "newstest2017.online-A.0.en-de.de")[:600]
    want = nltk_corpus_nist([[tok(r).split()] for r in ref], [tok(h).split() for h in hyps], n=5)
    got = NIST(preserve_case=True, fix_zero=True).corpus_score(hyps, [ref]).score
    assert abs(got - want) < CORPUS_TOLERANCE


def test_signature_and_summing_from_parts_is_refused() -> None:
    for config in (NISTConfig(), NISTConfig(True, True)):
        signature = Signature(2, config)
        assert Signature.parse(signature.format()) == signature
        assert Signature.parse(signature.format(short=True)) == signature
    nist = NIST()
    with pytest.raises(ConfigError, match="NIST needs the whole reference corpus"):
        nist.accumulator()
    a, b = nist.segment_stats(["a b"], [["a c"]]), nist.segment_stats(["c"], [["c d"]])
    with pytest.raises(ConfigError, match="NIST needs the whole reference corpus"):
        a + b


def test_command_line_prints_every_family_in_one_table(capsys: pytest.CaptureFixture[str]) -> None:
    ref = SAMPLE / "newstest2017.ref.en-de.de"
    systems = sorted(str(p) for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)
    status, out, err = run(
        capsys, "score", str(ref), "-i", *systems, "-m", "bleu", "chrf", "ter", "wer", "nist", "-f", "text"
    )
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].split()[-5:] == ["BLEU", "chrF2", "TER", "WER", "NIST"]
    for line in lines[2 : 2 + len(systems)]:
        name = Path(line.split()[0]).name.split(".")[1]
        assert line.split()[-1] == f"{FIXTURE['wmt17']['system'][name]:.4f}", name
    status, _, err = run(capsys, "score", str(ref), "-i", systems[0], "-m", "nist", "--dask", "local")
    assert status != 0 and err.strip().endswith(
        "--dask scores chunks apart, and NIST needs the whole corpus at once"
    )
