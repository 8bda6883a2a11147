"""``-m bleu chrf ter`` on the command line: sacrebleu's numbers, one table, a signature per metric."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from understudy import CHRF, TER, CHRFConfig, TERConfig, streaming
from understudy.signature import Signature
from understudy.significance import paired_test

from tests.cli.test_testset import SYSTEMS, wmt_sgml  # noqa: F401  (a fixture)
from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE, first_lines, read_raw
from tests.support.twin_sets import run_sacrebleu

REF = SAMPLE / "newstest2017.ref.en-de.de"
UEDIN = SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de"
PROMT = SAMPLE / "newstest2017.PROMT-Rule-based.4735.en-de.de"


def test_table_of_three_metrics_for_two_systems(capfd: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # Given in any order, printed in sacrebleu's: BLEU, chrF, TER (of the first 1,000 lines).
    ref_path, uedin, promt = first_lines([REF, UEDIN, PROMT], tmp_path)
    status, out, err = run(
        capfd, "score", str(ref_path), "-i", str(uedin), str(promt), "-m", "ter", "chrf", "bleu"
    )
    assert status == 0, err
    records = json.loads(out)
    ref = read_raw(ref_path)
    for record, path in zip(records, [uedin, promt], strict=True):
        hyps = read_raw(path)
        assert list(record) == ["system", "BLEU", "chrF2", "TER"]
        assert record["chrF2"]["score"] == round(SacreCHRF().corpus_score(hyps, [ref]).score, 1)
        assert record["TER"]["score"] == round(SacreTER().corpus_score(hyps, [ref]).score, 1)
        assert Signature.parse(record["TER"]["signature"]).config == TERConfig()
    status, out, _ = run(
        capfd, "score", str(ref_path), "-i", str(uedin), str(promt), "-m", "chrf", "ter", "-f", "text"
    )
    lines = out.splitlines()
    assert lines[0].split() == ["System", "chrF2", "TER"]
    assert lines[-2].startswith("chrF2 signature: nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|beta:2|")
    assert lines[-1].startswith("TER signature: nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|")
    status, out, _ = run(
        capfd, "score", str(ref_path), "-i", str(uedin), str(promt), "-m", "chrf", "-f", "latex"
    )
    assert "\\toprule" in out and "% chrF2 signature:" in out


def test_metric_flags_reach_the_metrics(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    flags = ["-cc", "4", "-cw", "2", "--chrf-beta", "1", "--chrf-lowercase", "--chrf-whitespace"]
    flags += ["--chrf-eps-smoothing", "--ter-case-sensitive", "--ter-normalized", "--ter-no-punct"]
    flags += ["--ter-asian-support"]
    argv = [str(REF), "-i", str(UEDIN), "-m", "chrf", "ter", "-b", "-w", "6", *flags]
    theirs = run_sacrebleu(argv, capfd, monkeypatch)
    status, ours, err = run(capfd, "score", *argv)
    assert status == 0, err
    assert ours == theirs and len(json.loads(ours)) == 2  # sacrebleu's JSON list of scores
    status, out, _ = run(capfd, "score", str(REF), "-i", str(UEDIN), "-m", "chrf", "ter", *flags)
    (chrf, ter) = json.loads(out)
    assert Signature.parse(chrf["signature"]).config == CHRFConfig(4, 2, 1, True, True, True)
    assert Signature.parse(ter["signature"]).config == TERConfig(True, True, True, True)
    status, out, _ = run(
        capfd, "score", str(REF), "-i", str(REF), "-m", "ter", "--ter-normalized", "-b", "-w", "6"
    )
    assert float(out) > 0  # sacrebleu's double tokenization of references, kept under its name
    argv = [
        "score",
        str(REF),
        "-i",
        str(REF),
        "-m",
        "ter",
        "--ter-normalized",
        "--ter-tokenizer",
        "tercom-fixed",
    ]
    status, out, _ = run(capfd, *argv)
    assert json.loads(out)["score"] == 0.0 and json.loads(out)["tok"] == "tercom-fixed"


@pytest.mark.parametrize("metric", ["chrf", "ter"])
def test_sentence_level_equals_sacrebleu(
    metric: str, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    lines = read_raw(UEDIN)[:300]
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("\n".join(read_raw(REF)[:300]) + "\n", encoding="utf-8")
    status, out, _ = run(capfd, "score", str(ref), "-i", str(hyp), "-m", metric, "-sl")
    records = json.loads(out)
    assert len(records) == 300 and records[0]["name"] in ("chrF2", "TER")
    argv = [str(ref), "-i", str(hyp), "-m", metric, "-sl", "-b", "-w", "4"]
    status, ours, err = run(capfd, "score", *argv)
    assert status == 0, err
    theirs = run_sacrebleu(argv, capfd, monkeypatch)
    assert ours == theirs and len(ours.splitlines()) == 300


def test_sentence_level_takes_one_metric(capfd: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capfd, "score", str(REF), "-i", str(UEDIN), "-m", "chrf", "ter", "-sl")
    assert status == 1 and err.count("\n") == 1 and "one metric" in err


@pytest.mark.parametrize("metric", ["chrf", "ter"])
def test_chunked_streaming_equals_whole(
    metric: str, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["score", str(REF), "-i", str(UEDIN), str(PROMT), "-m", metric, "-cw", "2", "-w", "6"]
    _, whole, _ = run(capfd, *argv)
    monkeypatch.setattr(streaming, "CHUNK_LINES", 97)
    status, chunked, err = run(capfd, *argv)
    assert status == 0, err
    assert chunked == whole
    monkeypatch.setattr(streaming, "CHUNK_LINES", 97)
    _, sentences_chunked, _ = run(capfd, "score", str(REF), "-i", str(UEDIN), "-m", metric, "-sl", "-b")
    metric_object = CHRF() if metric == "chrf" else TER()
    expected = metric_object.sentence_scores(
        read_raw(UEDIN)[:1] and [h.lstrip("\ufeff") for h in read_raw(UEDIN)], [read_raw(REF)]
    )
    assert sentences_chunked.splitlines() == [f"{s:.1f}" for s in expected]


def test_paired_tests_and_confidence_for_every_metric(capfd: pytest.CaptureFixture[str]) -> None:
    argv = ["score", str(REF), "-i", str(UEDIN), str(PROMT), "-m", "bleu", "chrf", "ter"]
    status, out, err = run(capfd, *argv, "--paired-bs", "-pbsn", "200", "-f", "json")
    assert status == 0, err
    records = json.loads(out)
    assert [Signature.parse(r["signature"]).config.name for r in records] == ["BLEU", "chrF2", "TER"]
    ref, systems = read_raw(REF), [read_raw(UEDIN), read_raw(PROMT)]
    expected = paired_test(
        TER(references=[ref]).segment_stats_many(systems), [str(UEDIN), str(PROMT)], "bs", 200
    )
    assert records[2]["systems"][0]["p_value"] == expected.systems[0].p_value
    assert records[2]["baseline"]["mean"] == expected.baseline.mean
    status, out, _ = run(capfd, *argv, "--paired-ar", "-parn", "100", "-f", "text")
    # As sacrebleu's command line: randomization gives p-values, and no bootstrap interval.
    assert status == 0 and "μ" not in out and "TER signature: nrefs:1|ar:100|seed:12345|" in out
    status, out, _ = run(
        capfd, "score", str(REF), "-i", str(UEDIN), "-m", "chrf", "ter", "--confidence", "-cin", "100"
    )
    (chrf, ter) = json.loads(out)
    assert chrf["bs"] == 100 and ter["name"] == "TER" and ter["confidence_mean"] > 0


def test_compare_ranks_ter_lowest_first(capfd: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capfd, "compare", str(REF), "-i", str(PROMT), str(UEDIN), "-m", "ter", "-n", "100")
    assert status == 0, err
    table = out.splitlines()
    # Named as the report names them (without what the paths share); JSON has the paths whole.
    assert "TER (μ ± 95% CI)" in table[0] and table[2].split()[1] == "uedin-nmt.4722"
    status, out, _ = run(
        capfd, "compare", str(REF), "-i", str(PROMT), str(UEDIN), "-m", "chrf", "--blocks", "5"
    )
    assert status == 0 and "Mean and standard deviation of chrF2" in out


def test_test_set_with_every_metric(wmt_sgml, capfd, monkeypatch) -> None:  # noqa: F811
    argv = ["-t", "wmt97", "-l", "en-de", "-i", str(SYSTEMS[0]), "-m", "bleu", "chrf", "ter", "-b", "-w", "4"]
    theirs = run_sacrebleu(argv, capfd, monkeypatch)
    status, ours, err = run(capfd, "score", *argv)
    assert status == 0, err
    assert ours == theirs and len(json.loads(ours)) == 3
    status, out, _ = run(capfd, "score", *argv[:-3], "--origlang", "de")
    assert all(
        r["signature"].startswith("nrefs:1|test:wmt97|lang:en-de|origlang:de|") for r in json.loads(out)
    )


def test_compare_with_several_metrics_prints_one_json_document(capfd: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", str(REF), "-i", str(PROMT), str(UEDIN), "-m", "bleu", "ter", "-n", "50", "-f", "json"]
    status, out, err = run(capfd, *argv)
    assert status == 0, err
    records = json.loads(out)
    assert [Signature.parse(r["signature"]).config.name for r in records] == ["BLEU", "TER"]
    status, out, _ = run(capfd, *argv[:-2], "--blocks", "4", "-f", "json")
    assert [len(r["block_sizes"]) for r in json.loads(out)] == [4, 4]


def _unread_cases() -> list[tuple[str, list[str], str]]:
    """For each text family, one of its own options given with -m naming another metric, and
    the family that reads it: built from the declarations, so a new family is covered."""
    from understudy.metrics import FAMILIES
    from understudy.metrics.unread import unread

    cases = []
    for name, family in FAMILIES.items():
        own = [o for _, o in family.config.options() if o.flags and o.dest != "normalize_unicode"]
        option = own[0]
        other = "ter" if name != "ter" else "bleu"
        value = (
            []
            if option.type is None and option.choices is None
            else [str(option.choices[0] if option.choices else 1)]
        )
        said = unread({option.dest}, [other])
        assert said and said[0].startswith(f"{option.flags[0]} is read by -m {name}"), said
        cases.append((other, [option.flags[0], *value], said[0]))
    return cases


@pytest.mark.parametrize(("metric", "extra", "said"), _unread_cases())
@pytest.mark.parametrize("command", ["score", "compare", "report", "mbr"])
def test_an_option_no_chosen_metric_reads_is_said_in_every_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, metric: str, extra: list[str], said: str
) -> None:
    # Before: with -m comet alone, -lc, -tok, --chrf-lowercase and --normalize-unicode went
    # without a word; now every command that takes metric options says so, in one line each.
    hyps, ref = tmp_path / "h.txt", tmp_path / "r.txt"
    hyps.write_text("the cat sat\na dog barked\n" * 6, encoding="utf-8")
    ref.write_text("the cat sat down\na dog barked\n" * 6, encoding="utf-8")
    argv = {
        "score": ["score", str(ref), "-i", str(hyps)],
        "compare": ["compare", str(ref), "-i", str(hyps), str(ref), "-n", "50"],
        "report": ["report", str(ref), "-i", str(hyps), str(ref), "-o", str(tmp_path / "r.html"), "-n", "50"],
        "mbr": ["mbr", "--candidates", str(hyps), "-n", "2"],
    }[command]
    with pytest.warns(UserWarning) as caught:
        status, _, err = run(capsys, *argv, "-m", metric, *extra)
    assert status == 0, err
    assert [str(w.message) for w in caught if "ignored" in str(w.message)] == [said]
