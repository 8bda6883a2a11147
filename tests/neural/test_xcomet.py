"""xCOMET against unbabel-comet 2.2.7 on tiny checkpoints: segment scores and error spans.

The reference numbers are the ``xcomet`` part of tests/fixtures/comet_tiny.json, made by
scripts/comet_fixtures.py (``XCOMETMetric.predict``, with references and without, batch sizes
1 and 8) on the checkpoints tests/support/neural_checkpoints.py builds. Spans must be identical in
text, start, end and severity; their confidence, a mean of probabilities, and the scores within
the issue's 2e-6 a segment and 1e-6 a system (the reference code moves by 4.8e-7 between batch
sizes).
"""

from __future__ import annotations

import json
import sqlite3
from html import escape
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

import torch
import understudy
from understudy.errors import InputError, ModelError
from understudy.neural import XCOMET, ErrorSpan
from understudy.neural.xcomet import LABELS, _regression, penalty
from understudy.signature import Signature

import tests.support.neural_checkpoints as nc
from tests.support.cli import run_cli
from tests.support.neural_checkpoints import MT, REF, SRC

FIXTURE = nc.comet_fixture()


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("xcomet")
    return {
        name: nc.build_xcomet(root / name, seed, **overrides)
        for name, (seed, overrides) in nc.XCOMET_VARIANTS.items()
    }


def _without_confidence(spans: list[list[dict[str, object]]]) -> list[list[dict[str, object]]]:
    return [[{k: v for k, v in span.items() if k != "confidence"} for span in per] for per in spans]


def test_fixture_is_of_these_samples() -> None:
    assert FIXTURE["samples"] == nc.SAMPLES
    assert set(FIXTURE["xcomet"]) == set(nc.XCOMET_VARIANTS)
    # The tiny models must exercise what is decoded: spans in most segments, all severities,
    # a span opened by <s>, and segments without any.
    spans = FIXTURE["xcomet"]["xcomet-like"]["ref-1"]["error_spans"]
    assert sum(1 for per in spans if per) >= 6 and any(not per for per in spans)
    severities = {
        s["severity"] for v in FIXTURE["xcomet"].values() for per in v["ref-1"]["error_spans"] for s in per
    }
    assert severities == {"minor", "major", "critical"}
    assert any(s["text"].startswith("<s>") for per in spans for s in per)


@pytest.mark.parametrize("batch_size", [1, 8])
@pytest.mark.parametrize("mode", ["ref", "qe"])
@pytest.mark.parametrize("variant", list(nc.XCOMET_VARIANTS))
def test_scores_and_spans_equal_unbabel_comet(
    checkpoints: dict[str, Path], variant: str, mode: str, batch_size: int
) -> None:
    metric = XCOMET(checkpoints[variant], batch_size=batch_size, cache=None)
    refs = REF if mode == "ref" else None
    scores = np.array(metric.sentence_scores(MT, refs, sources=SRC))
    spans = [[s.as_dict() for s in per] for per in metric.error_spans(MT, refs, sources=SRC)]
    system = metric.corpus_score(MT, refs, sources=SRC).score
    for reference_batch in (1, 8):
        want = FIXTURE["xcomet"][variant][f"{mode}-{reference_batch}"]
        assert np.max(np.abs(scores - want["scores"])) <= 2e-6
        assert abs(system - want["system_score"]) <= 1e-6
        assert _without_confidence(spans) == _without_confidence(want["error_spans"])
        confidences = [
            (a["confidence"], b["confidence"])
            for p, q in zip(spans, want["error_spans"], strict=True)
            for a, b in zip(p, q, strict=True)
        ]
        assert max(abs(a - b) for a, b in confidences) <= 2e-6
    assert metric.uses_reference() is (mode == "ref")


def test_the_score_is_the_weighted_formula(checkpoints: dict[str, Path]) -> None:
    # Rebuilt from the fixture's own spans: 0.78 (capped) sentence score + 0.22 MQM in QE, so
    # the sentence score is recoverable; and in the tiny model some pass the cap at 1.
    want = FIXTURE["xcomet"]["xcomet-like"]["qe-1"]
    mqm = [(25 - penalty([ErrorSpan(**s) for s in per])) / 25 for per in want["error_spans"]]
    sentence = [(score - 0.22 * m) / 0.78 for score, m in zip(want["scores"], mqm, strict=True)]
    assert max(sentence) == pytest.approx(1.0, abs=1e-6)  # capped
    assert min(sentence) < 0.999
    scores = torch.tensor([[1.5, 0.5, 2.0], [-0.2, 1.0, 0.25]])
    assert _regression(scores).tolist() == pytest.approx([0.12 + 0.33 * 0.5 + 0.33, -0.024 + 0.33 + 0.0825])
    assert _regression(torch.tensor([[3.0], [-1.0]])).tolist() == pytest.approx([0.78, -0.78])


def test_the_mqm_penalty_caps_at_25() -> None:
    def spans(*severities: str) -> list[ErrorSpan]:
        return [ErrorSpan("x", 0.5, s, 0, 1) for s in severities]

    assert penalty([]) == 0
    assert penalty(spans("minor", "major", "critical")) == 16
    assert penalty(spans("critical", "critical", "major", "minor")) == 25
    assert penalty(spans(*["minor"] * 30)) == 25


def test_decoding_keeps_the_reference_codes_quirks() -> None:
    # Tags by token: a run's severity is its first token's; an open run at the end is dropped.
    tags = [0, 1, 2, 0, 3, 3, 0, 2, 2]
    probs = torch.full((len(tags), 4), 0.1)
    for k, tag in enumerate(tags):
        probs[k, tag] = 0.6 + 0.01 * k
    tokenizer = SimpleNamespace(pad_id=1, decode=lambda ids: " ".join(map(str, ids)))
    metric = XCOMET.__new__(XCOMET)
    metric._tokens = {"mt": ([], [(k, k + 1) for k in range(len(tags))])}
    model: Any = SimpleNamespace(tokenizer=tokenizer)  # what _decode reads of a model
    spans = metric._decode(model, list(range(100, 105)), probs, "mt")
    assert [(s.text, s.severity, s.start, s.end) for s in spans] == [
        ("101 102", "minor", 1, 3),
        ("104 1", "critical", 4, 6),  # past the sequence's end: pad ids, as the reference reads
    ]
    assert spans[0].confidence == pytest.approx((0.61 + 0.62) / 2)
    assert LABELS == ("O", "minor", "major", "critical")


def test_signature_names_reference_and_parses(checkpoints: dict[str, Path]) -> None:
    metric = XCOMET(checkpoints["xcomet-like"], cache=None)
    with_ref = metric.corpus_score(MT[:2], REF[:2], sources=SRC[:2]).signature
    without = metric.corpus_score(MT[:2], None, sources=SRC[:2]).signature
    assert metric.name == "xCOMET"
    assert "|ref:yes|" in str(with_ref) and "|ref:no|" in str(without)
    assert "model:xcomet-like|" in str(with_ref)
    assert Signature.parse(str(with_ref)).config == with_ref.config
    assert with_ref.config != without.config


def test_bad_input_and_checkpoints_are_named(checkpoints: dict[str, Path], tmp_path: Path) -> None:
    metric = XCOMET(checkpoints["xcomet-like"], cache=None)
    with pytest.raises(InputError, match="xCOMET needs the source"):
        metric.sentence_scores(MT, REF)
    regression = nc.build_regression(tmp_path / "regression", 1)
    with pytest.raises(ModelError, match="class 'regression_metric'; this metric reads xcomet_metric"):
        XCOMET(regression, cache=None).sentence_scores(MT[:1], REF[:1], sources=SRC[:1])
    assert understudy.XCOMET is XCOMET


def test_a_rerun_takes_spans_from_the_cache(checkpoints: dict[str, Path], tmp_path: Path) -> None:
    cache = tmp_path / "scores.sqlite"
    first = XCOMET(checkpoints["xcomet-like"], cache=cache)
    spans = first.error_spans(MT, REF, sources=SRC)
    assert first.computed == len(MT)
    again = XCOMET(checkpoints["xcomet-like"], cache=cache)
    assert again.error_spans(MT, REF, sources=SRC) == spans
    assert again.computed == 0
    # A score kept without its spans (a cache from before spans were kept) is computed again.
    with sqlite3.connect(cache) as db:
        db.execute("DELETE FROM details WHERE key = (SELECT key FROM details LIMIT 1)")
    third = XCOMET(checkpoints["xcomet-like"], cache=cache)
    recomputed = third.error_spans(MT, REF, sources=SRC)
    assert third.computed == 1
    # Computed alone, not in a batch of ten: the same spans, the confidence to float32 noise.
    assert [[(s.text, s.severity, s.start, s.end) for s in per] for per in recomputed] == [
        [(s.text, s.severity, s.start, s.end) for s in per] for per in spans
    ]
    confidences = [
        (a.confidence, b.confidence)
        for p, q in zip(recomputed, spans, strict=True)
        for a, b in zip(p, q, strict=True)
    ]
    assert max(abs(a - b) for a, b in confidences) <= 1e-6


def test_the_command_line_writes_spans(
    checkpoints: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    rows = [{k: v.replace("\t", " ").rstrip() for k, v in s.items()} for s in nc.SAMPLES]
    paths = {}
    for name in ("src", "mt", "ref"):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(r[name] for r in rows) + "\n", encoding="utf-8")
    out_spans = tmp_path / "spans.jsonl"
    argv = ["score", str(paths["ref"]), "-i", str(paths["mt"]), "-m", "xcomet", "--source", str(paths["src"])]
    argv += ["--xcomet-model", str(checkpoints["xcomet-like"]), "--xcomet-spans", str(out_spans)]
    with pytest.warns(UserWarning, match="xCOMET: 2 input"):
        status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    lines = [json.loads(line) for line in out_spans.read_text(encoding="utf-8").splitlines()]
    metric = XCOMET(checkpoints["xcomet-like"], cache=None)
    mt, src, ref = ([r[k] for r in rows] for k in ("mt", "src", "ref"))
    want = metric.error_spans(mt, ref, sources=src)
    assert [line["segment"] for line in lines] == list(range(1, len(rows) + 1))
    assert [line["spans"] for line in lines] == [[s.as_dict() for s in per] for per in want]
    assert [line["score"] for line in lines] == pytest.approx(
        metric.sentence_scores(mt, ref, sources=src), abs=0
    )
    result = json.loads(out)
    assert result["name"] == "xCOMET" and "|ref:yes|" in result["signature"]
    assert result["score"] == round(float(np.mean([line["score"] for line in lines])), 3)


@pytest.fixture
def files(checkpoints: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    rows = [{k: v.replace("\t", " ").rstrip() for k, v in s.items()} for s in nc.SAMPLES]
    texts = {
        "src": [r["src"] for r in rows],
        "ref": [r["ref"] for r in rows],
        "a": [r["mt"] for r in rows],
        "b": [r["ref"].upper() for r in rows],
        "c": [r["mt"][::-1] for r in rows],
    }
    out = {"model": checkpoints["xcomet-like"]}
    for name, lines in texts.items():
        out[name] = tmp_path / f"{name}.txt"
        out[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def test_the_report_marks_spans_by_severity(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    page = files["a"].parent / "report.html"
    argv = ["report", str(files["ref"]), "-i", str(files["a"]), str(files["b"]), "-m", "bleu", "xcomet"]
    argv += [
        "--source",
        str(files["src"]),
        "--xcomet-model",
        str(files["model"]),
        "--pair",
        str(files["a"]),
        str(files["b"]),
    ]
    with pytest.warns(UserWarning, match="xCOMET: 2 input"):
        status, _, err = run_cli(capsys, *argv, "-o", str(page))
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    metric = XCOMET(files["model"], cache=None)
    rows = [{k: v.replace("\t", " ").rstrip() for k, v in s.items()} for s in nc.SAMPLES]
    want = metric.error_spans(
        [r["mt"] for r in rows], [r["ref"] for r in rows], sources=[r["src"] for r in rows]
    )
    # Every span of system A is marked, by severity, with its text escaped.
    for span in (s for per in want for s in per):
        title = f"xCOMET: {span.severity} error"
        mark = f'<mark class="sev-{span.severity}" title="{title}">{escape(span.text)}</mark>'
        assert mark in html
    assert "xCOMET's error spans by severity" in html


def test_correlate_takes_xcomet(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    human = files["a"].parent / "human.tsv"
    human.write_text("a\t0.9\nb\t0.5\nc\t0.1\n", encoding="utf-8")
    systems = [str(files[k]) for k in "abc"]
    argv = ["correlate", str(files["ref"]), "-i", *systems, "--human", str(human), "-m", "xcomet"]
    argv += ["--source", str(files["src"]), "--xcomet-model", str(files["model"]), "-f", "json"]
    with pytest.warns(UserWarning, match="xCOMET: 3 input"):
        status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    result = json.loads(out)
    metric = XCOMET(files["model"], cache=None)
    # As the command line reads them: lines right-stripped (a reversed line can end in spaces).
    texts = {
        k: [line.rstrip() for line in files[k].read_text(encoding="utf-8").split("\n")[:-1]]
        for k in ("src", "ref", "a", "b", "c")
    }
    # The three systems scored together, as the command line scores them (the same batches).
    given = metric.system_scores({k: texts[k] for k in "abc"}, texts["ref"], texts["src"])
    scores = [r.score for r in given.corpus_scores()]
    pearson = next(c for c in result["correlations"] if c["statistic"] == "pearson")
    assert pearson["metric"] == "xCOMET"
    assert pearson["value"] == pytest.approx(float(np.corrcoef(scores, [0.9, 0.5, 0.1])[0, 1]), abs=1e-9)


@pytest.mark.parametrize(("seed", "word_layer", "layers_run"), [(1, 1, 2), (12, 0, 1)])
def test_layers_nothing_reads_are_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, word_layer: int, layers_run: int
) -> None:
    # Seed 1's sparsemax weighs layers 0 and 1 of 0-2, seed 12's layer 0 only. XLM-R XL
    # normalises its last layer's output, so a layer above the highest read one still runs
    # (seed 1: both layers); with nothing read above layer 0, one layer runs. Scores and spans
    # are the whole encoder's, bit for bit.
    from understudy.neural.comet_model import CometParts

    folder = nc.build_xcomet(tmp_path / "x", seed, word_layer=word_layer)
    metric = XCOMET(folder, batch_size=4, cache=None)
    kept = metric.error_spans(MT, REF, sources=SRC)
    assert metric._model is not None and len(metric._model.encoder.encoder.layer) == layers_run
    monkeypatch.setattr(CometParts, "keep_layers", lambda self, read: None)
    whole = XCOMET(folder, batch_size=4, cache=None)
    assert whole.error_spans(MT, REF, sources=SRC) == kept
    assert whole._model is not None and len(whole._model.encoder.encoder.layer) == nc.LAYERS
