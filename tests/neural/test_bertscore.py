"""BERTScore against bert-score 0.3.13 on a tiny XLM-R model.

The reference numbers are tests/fixtures/bertscore_tiny.json, made by scripts/bertscore_fixtures.py
running bert-score (transformers 4.57.6) in its own environment on the model
tests/support/neural_checkpoints.py builds (here, the same weights): 40 WMT17 segments and a hostile
group, six settings (layers 0 to 2, idf, two references, a baseline). bert-score's own spread,
batch size 1 against 64, is at most 4.8e-7 (the fixture holds both); understudy is held to it.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy import BERTScore
from understudy.errors import InputError, ModelError
from understudy.neural.base import layouts
from understudy.neural.bertscore import IdfWeights, references_of
from understudy.neural.metricx import MetricX
from understudy.signature import Signature

import tests.support.neural_checkpoints as nc
from tests.support import fake_hub
from tests.support.cli import run_cli

FIXTURE = nc.bertscore_fixture()
SAMPLES = FIXTURE["samples"]
HYPS, REFS = SAMPLES["hyps"], SAMPLES["refs"]
SPREAD = 4.8e-7


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return nc.build_bertscore(tmp_path_factory.mktemp("bertscore") / "tiny-xlmr")


@pytest.fixture(scope="module")
def baseline(model: Path) -> Path:
    return nc.bertscore_baseline(model.parent)


def _refs(setting: dict[str, Any]) -> list[Any]:
    if setting.get("multiref"):
        return [[r, s] for r, s in zip(REFS, SAMPLES["second"], strict=True)]
    return list(REFS)


def _metric(model: Path, baseline: Path, setting: dict[str, Any], **options: Any) -> BERTScore:
    return BERTScore(
        model,
        num_layers=setting["num_layers"],
        idf=setting.get("idf", False),
        baseline=baseline if setting.get("baseline") else None,
        cache=None,
        device="cpu",
        **options,
    )


def test_fixture_is_of_these_samples() -> None:
    assert len(HYPS) == len(REFS) == 50 and FIXTURE["versions"]["bert-score"] == "0.3.13"
    assert FIXTURE["versions"]["transformers"].startswith("4.")
    # The reference's own spread, as the docstring says.
    for result in FIXTURE["scores"].values():
        spread = max(abs(a - b) for k in "PRF" for a, b in zip(result["1"][k], result["64"][k], strict=True))
        assert spread <= SPREAD


@pytest.mark.parametrize("name", list(FIXTURE["settings"]))
def test_scores_are_bert_scores(model: Path, baseline: Path, name: str) -> None:
    setting = FIXTURE["settings"][name]
    metric = _metric(model, baseline, setting)
    got = metric.sentence_scores(HYPS, _refs(setting))
    # The 600-word hypothesis and the long reference, cut at 512 tokens as bert-score cuts them.
    assert len(metric.notices()) == 1 and "2 input(s) longer than the model's limit" in metric.notices()[0]
    want = FIXTURE["scores"][name]["1"]
    for k, key in enumerate("PRF"):
        assert max(abs(g[k] - w) for g, w in zip(got, want[key], strict=True)) <= SPREAD, key


def test_empty_sides_score_zero_and_rescale_as_bert_score_does(model: Path, baseline: Path) -> None:
    plain = BERTScore(model, num_layers=2, cache=None, device="cpu").sentence_scores(
        ["", "Hallo", "  \t "], ["Hallo", "", "Hallo"]
    )
    assert [tuple(s) for s in plain] == [(0.0, 0.0, 0.0)] * 3
    rescaled = BERTScore(model, num_layers=2, baseline=baseline, cache=None, device="cpu")
    p, r, f = (0.52, 0.49, 0.51)  # row 2 of the baseline: (0 - b) / (1 - b), each apart
    assert rescaled.sentence_scores([""], ["Hallo"])[0] == pytest.approx(
        (-p / (1 - p), -r / (1 - r), -f / (1 - f))
    )


def test_batches_and_the_cache_change_nothing(model: Path, tmp_path: Path) -> None:
    hyps, refs = HYPS[:20], REFS[:20]
    one = BERTScore(model, num_layers=2, batch_size=1, cache=None, device="cpu").sentence_scores(hyps, refs)
    cached = BERTScore(model, num_layers=2, batch_size=8, cache=tmp_path / "c.sqlite", device="cpu")
    first = cached.sentence_scores(hyps, refs)
    assert max(abs(a - b) for x, y in zip(one, first, strict=True) for a, b in zip(x, y, strict=True)) <= 2e-7
    again = cached.sentence_scores(hyps, refs)
    assert cached.computed == 0 and again == first


def test_idf_weights_come_from_the_references_of_the_call(model: Path, tmp_path: Path) -> None:
    metric = BERTScore(model, num_layers=1, idf=True, cache=tmp_path / "c.sqlite", device="cpu")
    alone = metric.sentence_scores(HYPS[:3], REFS[:3])
    more = metric.sentence_scores(HYPS[:6], REFS[:6])[:3]
    # Other references, other weights: the cache does not hand the first call's scores on.
    assert metric.computed == 6 and alone != more
    weights = IdfWeights.of([[0, 7, 2], [0, 7, 7, 9, 2]])
    assert weights.table[7] == 0.0 and weights.table[9] == pytest.approx(math.log(3 / 2))
    assert weights.unseen == pytest.approx(math.log(3))


def test_the_signature_pins_layer_idf_and_baseline(model: Path, baseline: Path) -> None:
    metric = BERTScore(model, num_layers=1, idf=True, baseline=baseline, lang="de", cache=None, device="cpu")
    signature = metric.segment_stats(["Hallo"], ["Hallo Welt"]).signature
    text = str(signature)
    assert "|model:tiny-xlmr|set:L1+idf+rescaled:" in text and "+lang:de|rev:sha256-" in text
    assert Signature.parse(text).items() == signature.items()
    assert metric.name == "BERTScore-idf-rescaled"


def test_references_a_hypothesis_or_streams() -> None:
    assert references_of([["a", "b"], ["c"]], 2) == [("a", "b"), ("c",)]
    assert references_of([["a", "b"], ["c", "d"], ["e", "f"]], 2) == [("a", "c", "e"), ("b", "d", "f")]
    with pytest.raises(InputError, match="3 references for 2 hypotheses"):
        references_of(["a", "b", "c"], 2)
    with pytest.raises(InputError, match="segment 2: expected a reference string"):
        references_of([["a"], []], 2)


def test_a_model_without_a_known_layer_says_what_to_give(model: Path, baseline: Path, tmp_path: Path) -> None:
    with pytest.raises(ModelError, match=r"no default layer for tiny-xlmr .*--bertscore-layers N"):
        BERTScore(model, cache=None, device="cpu")
    with pytest.raises(ModelError, match="beyond the model's 2 layers"):
        BERTScore(model, num_layers=3, cache=None, device="cpu").sentence_scores(["a"], ["b"])
    with pytest.raises(ModelError, match="no row for layer 5"):
        BERTScore(model, num_layers=5, baseline=baseline, cache=None, device="cpu")
    bad = tmp_path / "bad.tsv"
    bad.write_text("LAYER,P,R,F\n0,x,0.1,0.1\n", encoding="utf-8")
    with pytest.raises(ModelError, match=r"bad.tsv, line 2: expected LAYER,P,R,F numbers"):
        BERTScore(model, num_layers=0, baseline=bad, cache=None, device="cpu")


def test_its_layout_is_a_model_folder_with_its_tokenizer(model: Path, tmp_path: Path) -> None:
    assert BERTScore in layouts() and BERTScore.recognises(model) and not MetricX.recognises(model)
    assert BERTScore.names_beside(model, "unused") is None
    metricx = nc.build_metricx(tmp_path / "metricx", 1)
    assert MetricX.recognises(metricx) and not BERTScore.recognises(metricx)


def test_score_prints_bertscore_beside_bleu(
    model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    rows = [(h, r) for h, r in zip(HYPS[:40], REFS[:40], strict=True)]
    (tmp_path / "hyp.txt").write_text("".join(h + "\n" for h, _ in rows), encoding="utf-8")
    (tmp_path / "ref.txt").write_text("".join(r + "\n" for _, r in rows), encoding="utf-8")
    argv = ["score", str(tmp_path / "ref.txt"), "-i", str(tmp_path / "hyp.txt"), "-m", "bleu", "bertscore"]
    status, out, err = run_cli(
        capsys, *argv, "--bertscore-model", str(model), "--bertscore-layers", "2", "-w", "6"
    )
    assert status == 0, err
    bleu, result = json.loads(out)
    assert bleu["name"] == "BLEU" and result["name"] == "BERTScore" and result["segments"] == 40
    want = FIXTURE["scores"]["L2"]["1"]["F"][:40]
    assert result["score"] == pytest.approx(sum(want) / len(want), abs=1e-6)
    assert "|set:L2+no-idf|" in result["signature"]


def test_score_takes_several_reference_files_for_bertscore_alone(
    model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    files = {}
    for name, lines in (("hyp", HYPS[:40]), ("ref", REFS[:40]), ("second", SAMPLES["second"][:40])):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    argv = ["score", str(files["ref"]), str(files["second"]), "-i", str(files["hyp"]), "-m", "bertscore"]
    options = ["--bertscore-model", str(model), "--bertscore-layers", "2", "-w", "6"]
    status, out, err = run_cli(capsys, *argv, *options)
    assert status == 0, err
    want = FIXTURE["scores"]["L2-multiref"]["1"]["F"][:40]  # each hypothesis's best reference
    assert json.loads(out)["score"] == pytest.approx(sum(want) / len(want), abs=1e-6)
    status, _, err = run_cli(capsys, *argv, "comet", *options)
    assert status != 0 and "-m comet needs the source segments" in err  # the metric that needs them
    status, _, err = run_cli(capsys, *argv, "comet", *options, "--source", str(files["ref"]))
    assert status != 0 and "comet takes one reference; 2 reference files are given" in err


def test_fetch_model_takes_the_model_alone_and_it_scores_offline(model: Path, tmp_path: Path) -> None:
    server = fake_hub.Hub()
    repo = fake_hub.Repo()
    commit = repo.add(fake_hub.folder_files(model))
    server.repos["org/tiny-bertscore"] = repo
    env = {**os.environ, "HF_ENDPOINT": server.url, "HF_HOME": str(tmp_path), "HF_HUB_DISABLE_TELEMETRY": "1"}
    env.pop("HF_HUB_OFFLINE", None)
    try:
        command = [sys.executable, "-m", "understudy", "fetch-model", "org/tiny-bertscore"]
        fetched = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    finally:
        server.close()
    assert fetched.returncode == 0, fetched.stderr
    assert [line.split()[0] for line in fetched.stdout.splitlines()] == [f"org/tiny-bertscore@{commit}"]
    # What it fetched scores as the model does, signed with the commit (the snapshot, read here
    # as a folder: the offline lookup by name is test_hub.py's, the same for every layout).
    (snapshot,) = (tmp_path / "hub" / "models--org--tiny-bertscore" / "snapshots").iterdir()
    cached = BERTScore(snapshot, num_layers=2, cache=None, device="cpu")
    here = BERTScore(model, num_layers=2, cache=None, device="cpu").sentence_scores(["Hallo Welt"], ["Hallo"])
    assert (
        cached.sentence_scores(["Hallo Welt"], ["Hallo"]) == here
        and cached.computed_by()["revision"] == commit
    )


def test_mbr_chooses_by_bertscore_f1_as_utility(
    model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    lists = [HYPS[k : k + 3] for k in (0, 3, 6)]
    cands, scores = tmp_path / "cands.txt", tmp_path / "u.jsonl"
    cands.write_text("".join(c.replace("\n", " ") + "\n" for hyps in lists for c in hyps), encoding="utf-8")
    argv = ["mbr", "--candidates", str(cands), "-n", "3", "-m", "bertscore", "--scores", str(scores)]
    status, out, err = run_cli(capsys, *argv, "--bertscore-model", str(model), "--bertscore-layers", "2")
    assert status == 0, err
    metric = BERTScore(model, num_layers=2, cache=None, device="cpu")
    records = [json.loads(line) for line in scores.read_text(encoding="utf-8").splitlines()]
    for hyps, record, chosen in zip(lists, records, out.splitlines(), strict=True):
        # Each candidate's expected F1 against every candidate of its source (itself included).
        expected = [
            sum(s.f1 for s in metric.sentence_scores([h] * len(hyps), hyps)) / len(hyps) for h in hyps
        ]
        assert record["expected"] == pytest.approx(expected, abs=1e-6)
        assert chosen == hyps[expected.index(max(expected))]
