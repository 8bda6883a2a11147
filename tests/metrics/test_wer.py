"""WER, CER, MER, WIL and WIP: jiwer 4's numbers and counts, on the WMT17 systems, on generated
and adversarial text, on long lines; and the command line's ``-m wer cer mer wil wip``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from understudy import BLEU, Signature
from understudy.errors import InputError
from understudy.metrics.wer import CER, WER, WERConfig, corpus_cer, corpus_wer

from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE

SPACES = [" ", "  ", "\t", " \t", "\u00a0", "\u2003", "\n", " \u3000 "]
WORDS = ["a", "b", "ab", "The", "the", "cat,", "cat", "e\u0301", "é", "İ", "ß", "...", "—", "x"]
TEXT = st.lists(st.tuples(st.sampled_from(WORDS), st.sampled_from(SPACES)), max_size=12).map(
    lambda parts: "".join(w + s for w, s in parts)
)


def _jiwer(config: WERConfig, refs: list[str], hyps: list[str]) -> jiwer.WordOutput:
    steps: list[jiwer.AbstractTransform] = [jiwer.ToLowerCase()] * config.lowercase + [
        jiwer.RemovePunctuation()
    ] * config.no_punct
    if config.unit == "characters":
        steps += [jiwer.Strip(), jiwer.ReduceToListOfListOfChars()]
    else:
        steps += [jiwer.RemoveMultipleSpaces(), jiwer.Strip(), jiwer.ReduceToListOfListOfWords()]
    transform = jiwer.Compose(steps)
    return jiwer.process_words(refs, hyps, transform, transform)


CONFIGS = [
    WERConfig(measure=m, unit=u, lowercase=lc, no_punct=p)
    for m in ("wer", "mer", "wil", "wip")
    for u in ("words", "characters")
    for lc, p in ((False, False), (True, True))
]


@settings(max_examples=300, deadline=None)
@given(config=st.sampled_from(CONFIGS), pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=5))
def test_generated_text_gives_jiwers_counts_and_measures(
    config: WERConfig, pairs: list[tuple[str, str]]
) -> None:
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    want = _jiwer(config, refs, hyps)
    got = WER.from_config(config).corpus_score(hyps, [refs])
    assert (got.substitutions, got.deletions, got.insertions, got.hits) == (
        want.substitutions,
        want.deletions,
        want.insertions,
        want.hits,
    )
    assert got.score == getattr(want, config.measure)


@settings(max_examples=100, deadline=None)
@given(
    ref=st.lists(st.sampled_from("abc"), max_size=80).map(" ".join),
    hyp=st.lists(st.sampled_from("abc"), max_size=80).map(" ".join),
)
def test_equal_cost_alignments_split_as_jiwer_splits_them(ref: str, hyp: str) -> None:
    # Three words: many alignments of equal cost, which jiwer (rapidfuzz) splits its own way.
    want = jiwer.process_words(ref, hyp)
    got = WER().sentence_score(hyp, [ref])
    assert (got.substitutions, got.deletions, got.insertions) == (
        want.substitutions,
        want.deletions,
        want.insertions,
    )


def test_long_lines_split_as_jiwer_splits_them() -> None:
    # Beyond a million matrix cells rapidfuzz aligns by Hirschberg's method: the split is the same.
    import random

    rng = random.Random(11)
    ref = " ".join(rng.choice("abcdefgh") for _ in range(3000))
    hyp = " ".join(rng.choice("abcdefgh") for _ in range(3600))
    want = jiwer.process_words(ref, hyp)
    got = WER().sentence_score(hyp, [ref])
    assert (got.substitutions, got.deletions, got.insertions, got.hits) == (
        want.substitutions,
        want.deletions,
        want.insertions,
        want.hits,
    )


def test_wmt17_corpora_are_jiwers(wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]) -> None:
    for name, hyps in sorted(wmt17_systems.items())[::3]:
        for config in (WERConfig(), WERConfig(unit="characters"), WERConfig(measure="wip", lowercase=True)):
            want = _jiwer(config, wmt17_ref, hyps)
            got = WER.from_config(config).corpus_score(hyps, [wmt17_ref])
            assert got.score == getattr(want, config.measure), (name, config)
            assert got.hits == want.hits
    uedin = wmt17_systems["uedin-nmt"]
    assert corpus_wer(uedin, [wmt17_ref]).score == jiwer.wer(wmt17_ref, uedin)
    assert corpus_cer(uedin, [wmt17_ref]).score == jiwer.cer(wmt17_ref, uedin)


def test_edge_cases_are_jiwers() -> None:
    # No reference words: WER is the number of insertions; MER, WIL, WIP by jiwer's rules.
    for refs, hyps in [
        ([""], ["a b"]),
        ([""], [""]),
        ([" "], ["a"]),
        (["a b"], [""]),
        (["a", ""], ["", "b c"]),
    ]:
        for measure in ("wer", "mer", "wil", "wip"):
            want = getattr(jiwer.process_words(refs, hyps), measure)
            assert WER(measure).corpus_score(hyps, [refs]).score == want, (refs, hyps, measure)
    assert CER().sentence_score(" kitten ", ["sitting"]).score == jiwer.cer("sitting", " kitten ")


def test_long_form_lines_are_scored_as_jiwer_scores_them() -> None:
    # The bound is on memory (2^32 cells, 1 GiB of alignment bits), not on length: 9,000
    # characters against 9,000 are 81 million cells, 20 MiB. jiwer scores them too.
    import random

    rng = random.Random(8)
    ref = "".join(rng.choice("abcd ") for _ in range(9000)).strip()
    hyp = list(ref)
    for _ in range(1500):
        k = rng.randrange(len(hyp))
        hyp[k : k + 1] = rng.choice([[], [rng.choice("abcd")], [hyp[k], rng.choice("abcd")]])
    hyp_text = "".join(hyp).strip()
    want = jiwer.process_characters(ref, hyp_text)
    got = CER().segment_stats([hyp_text], [[ref]]).rows[0].tolist()
    assert got[:4] == [want.substitutions, want.deletions, want.insertions, want.hits]


def test_a_pair_too_long_to_align_is_refused_naming_the_metric_and_unit() -> None:
    # Beyond 2^32 cells the alignment would take more than 1 GiB: refused before any is taken.
    long = "w" * 70_000
    with pytest.raises(
        InputError, match="segment 2: CER of a 70000-character hypothesis against a 70000-character"
    ):
        CER().corpus_score(["a", long], [["a", long]])
    words = " ".join(["w"] * 70_000)
    with pytest.raises(InputError, match=r"segment 1: WER of a 70000-word hypothesis.*more memory"):
        WER().sentence_score(words, [words])
    assert CER().corpus_score([long[:9000]], [[long[:9000]]]).score == 0.0


def test_the_closest_of_several_references_is_scored() -> None:
    wer = WER(references=[["a b c d", "x"], ["a b c", "y z"]])
    stats = wer.segment_stats(["a b c", "y"])
    # Segment 1: the second reference (no edit); segment 2: the first (one substitution, not two).
    assert stats.rows.tolist() == [[0, 0, 0, 3, 3], [1, 0, 0, 0, 1]]
    assert wer.corpus_score(["a b c", "y"]).score == 1 / 4


def test_signature_and_names() -> None:
    for config in CONFIGS:
        signature = Signature(1, config)
        assert Signature.parse(signature.format()) == signature
        assert Signature.parse(signature.format(short=True)) == signature
    assert WERConfig(unit="characters").name == "CER" and WERConfig(measure="wil").name == "WIL"
    assert str(
        Signature(1, WERConfig())
    ) == "metric:wer|nrefs:1|measure:wer|unit:words|case:mixed|punct:yes|version:" + (
        Signature(1, WERConfig()).version
    )


def test_command_line_scores_every_family_in_one_table(capsys: pytest.CaptureFixture[str]) -> None:
    ref = SAMPLE / "newstest2017.ref.en-de.de"
    systems = sorted(str(p) for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)
    argv = ["score", str(ref), "-i", *systems, "-m", "bleu", "chrf", "ter", "wer", "cer", "wip", "-f", "json"]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    records = json.loads(out)
    refs = Path(ref).read_text(encoding="utf-8").splitlines()
    for record, path in zip(records, systems, strict=True):
        hyps = Path(path).read_text(encoding="utf-8").splitlines()
        assert record["WER"]["score"] == round(jiwer.wer(refs, hyps), 4)
        assert record["CER"]["score"] == round(jiwer.cer(refs, hyps), 4)
        assert record["WIP"]["score"] == round(jiwer.wip(refs, hyps), 4)
    status, out, _ = run(capsys, *argv[:-2], "-f", "text")
    assert status == 0 and out.splitlines()[0].split()[-6:] == ["BLEU", "chrF2", "TER", "WER", "CER", "WIP"]
    status, out, _ = run(capsys, "compare", str(ref), "-i", *systems, "-m", "wer", "-n", "100", "-f", "json")
    ranking = [s["name"] for s in json.loads(out)["ranking"]]
    hyps_of = {p: Path(p).read_text(encoding="utf-8").splitlines() for p in systems}
    assert ranking == sorted(systems, key=lambda p: jiwer.wer(refs, hyps_of[p]))  # lowest WER first


def test_the_report_buckets_wer_on_its_own_scale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("jinja2")
    from tests.report.test_report import _rows

    ref = SAMPLE / "newstest2017.ref.en-de.de"
    copy = tmp_path / "copy.de"
    copy.write_text(ref.read_text(encoding="utf-8"), encoding="utf-8")
    system = str(SAMPLE / "newstest2017.online-A.0.en-de.de")
    out = tmp_path / "report.html"
    status, _, err = run(
        capsys, "report", str(ref), "-i", str(copy), system, "-m", "wer", "-n", "20", "-o", str(out)
    )
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    labels = ["[0,0.1)", "[0.1,0.2)", "[0.2,0.3)", "[0.3,0.4)", "[0.4,0.5)"]
    assert "".join(f"<th>{label}</th>" for label in labels) in page and "<th>&gt;=0.9</th>" in page
    start = page.index('<table class="buckets" data-analysis="segments by sentence WER"')
    table = {row[0]: row[1:] for row in _rows(page[start:], "buckets")[:2]}  # short names: ".de" cut
    lines = len(ref.read_text(encoding="utf-8").splitlines())
    assert table["copy"] == [str(lines)] + ["0"] * 9  # every segment of a copy: WER 0
    hyps = Path(system).read_text(encoding="utf-8").splitlines()
    refs = ref.read_text(encoding="utf-8").splitlines()
    high = sum(jiwer.wer(r, h) >= 0.9 for r, h in zip(refs, hyps, strict=True))
    assert table["newstest2017.online-A.0.en-de"][-1] == str(high)


def _jiwer_chunks(output: jiwer.WordOutput | jiwer.CharacterOutput) -> list[tuple[str, int, int, int, int]]:
    return [
        (c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in output.alignments[0]
    ]


def _chunks(alignment: Any) -> list[tuple[str, int, int, int, int]]:
    return [
        (c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in alignment.chunks
    ]


@settings(max_examples=300, deadline=None)
@given(config=st.sampled_from(CONFIGS[:2]), ref=TEXT, hyp=TEXT)
def test_alignments_are_jiwers_chunk_for_chunk(config: WERConfig, ref: str, hyp: str) -> None:
    want = _jiwer(config, [ref], [hyp])
    got = WER.from_config(config).alignments([hyp], [[ref]])[0]
    assert _chunks(got) == _jiwer_chunks(want)
    units = [list(u) for u in (want.references[0], want.hypotheses[0])] if config.unit == "words" else None
    if units is not None:
        assert [list(got.reference), list(got.hypothesis)] == units


@settings(max_examples=100, deadline=None)
@given(
    ref=st.lists(st.sampled_from("abc"), max_size=60).map(" ".join),
    hyp=st.lists(st.sampled_from("abc"), max_size=60).map(" ".join),
)
def test_equal_cost_alignments_are_jiwers_chunk_for_chunk(ref: str, hyp: str) -> None:
    assert _chunks(WER().alignments([hyp], [[ref]])[0]) == _jiwer_chunks(jiwer.process_words(ref, hyp))
    chars = CER().alignments([hyp], [[ref]])[0]
    assert _chunks(chars) == _jiwer_chunks(jiwer.process_characters(ref, hyp))
    assert "".join(chars.hypothesis) == hyp.strip()


def test_wmt17_alignments_are_jiwers(wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]) -> None:
    hyps, refs = wmt17_systems["online-A"][:400], wmt17_ref[:400]
    got = WER().alignments(hyps, [refs])
    for alignment, ref, hyp in zip(got, refs, hyps, strict=True):
        assert _chunks(alignment) == _jiwer_chunks(jiwer.process_words(ref, hyp))


def test_alignment_is_with_the_closest_reference_the_counts_use() -> None:
    hyp = "a b c d"
    refs: list[list[str | None]] = [["x y", "a b c e", "a b c d e"], [None, "a b c d", None]]
    got = WER().alignments([hyp] * 3, refs)
    assert [a.reference_index for a in got] == [0, 1, 0]  # the second segment's: an exact match
    assert _chunks(got[1]) == [("equal", 0, 4, 0, 4)]
    assert _chunks(got[2]) == _jiwer_chunks(jiwer.process_words("a b c d e", hyp))
    with pytest.raises(InputError, match="segment 1"):
        WER().alignments(["a"], [[None]])


def test_the_reports_diff_shows_the_alignment_when_it_ranks_by_wer(
    wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    pytest.importorskip("jinja2")
    from understudy.report import build, render

    names = ["online-A", "uedin-nmt"]
    systems, refs = [wmt17_systems[n][:60] for n in names], [wmt17_ref[:60]]
    report = build([WER()], names, systems, refs, "understudy report -m wer", n=10)
    assert report.pair is not None and report.pair.aligned
    kinds = set()
    for row in report.pair.rows:
        sides = ((row.runs_a, row.rest_a, report.pair.a), (row.runs_b, row.rest_b, report.pair.b))
        for runs, rest, name in sides:
            hyps = systems[names.index(name)]
            kinds |= {run.kind for run in runs}
            if rest:  # folded: the page shows the start of a long segment
                continue
            # The runs spell the hypothesis (deletions aside) and the reference (insertions aside).
            hyp_words = " ".join(r.text for r in runs if r.kind != "delete").split()
            ref_words = " ".join(r.was or r.text for r in runs if r.kind != "insert").split()
            assert hyp_words == hyps[row.number - 1].split()
            assert ref_words == refs[0][row.number - 1].split()
    assert kinds == {"equal", "substitute", "delete", "insert"}
    page = render(report)
    assert 'class="e-substitute" title="reference: ' in page and "aligned with its closest reference" in page
    plain = build([BLEU(), WER()], names, systems, refs, "understudy report -m bleu wer", n=10)
    assert plain.pair is not None and not plain.pair.aligned  # ranked by BLEU: its matched n-grams
