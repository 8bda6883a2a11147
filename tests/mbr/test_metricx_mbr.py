"""MBR and QE reranking with MetricX-24, whose lower score is the better one, on a tiny checkpoint.

Each utility must be MetricX's score of the candidate (as hypothesis) against the pseudo-reference
(as reference) with the source, as ``MetricX.sentence_scores`` gives it for that triple: the
scores tests/neural/test_metricx.py holds to google-research/metricx's predict.py. MetricX is not
symmetric, so a matrix read the wrong way round fails; and the choice is the lowest expected error.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy.mbr import rerank, select
from understudy.neural import MetricX

import tests.support.neural_checkpoints as nc
from tests.support.comet_mbr import CANDIDATES, SOURCES

# COMET MBR's lists but the third source's, whose 720-word candidate (cut at MetricX's 1536
# tokens, tests/neural/test_metricx.py's case) would take most of the time here.
CANDIDATES, SOURCES = CANDIDATES[:2], SOURCES[:2]


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return nc.build_metricx(tmp_path_factory.mktemp("metricx-mbr") / "metricx-24-tiny", 1)


def _metricx(model: Path, qe: bool = False) -> MetricX:
    # One segment a batch: no padding to tell the two ways of asking apart.
    return MetricX(model, tokenizer=nc.MT5_TOKENIZER, qe=qe, batch_size=1, cache=None)


def test_utilities_are_metricx_of_each_candidate_against_each_pseudo_reference(model: Path) -> None:
    metric = _metricx(model)
    choices = select(CANDIDATES, metric, sources=SOURCES, utilities=True)
    one = _metricx(model)
    asymmetric = 0.0
    for source, hyps, choice in zip(SOURCES, CANDIDATES, choices, strict=True):
        assert choice.utilities is not None and choice.utilities.shape == (len(hyps), len(hyps))
        pairs = [(h, r) for h in hyps for r in hyps]  # row: the hypothesis; column: the reference
        flat = one.sentence_scores(
            [h for h, _ in pairs], [r for _, r in pairs], sources=[source] * len(pairs)
        )
        want = np.array(flat).reshape(len(hyps), len(hyps))
        assert np.max(np.abs(choice.utilities - want)) <= 1e-6
        asymmetric = max(asymmetric, float(np.max(np.abs(want - want.T))))
        # The mean over every pseudo-reference, itself included (mbrs' exact MBR), the lowest chosen.
        np.testing.assert_allclose(choice.expected, want.mean(axis=1), rtol=0, atol=1e-6)
        assert choice.index == int(np.argmin(want.mean(axis=1)))
        assert choice.candidate == hyps[choice.index]
    assert asymmetric > 1e-3  # a transposed matrix would not have passed


def test_qe_reranking_chooses_the_lowest_predicted_error(model: Path) -> None:
    choices = rerank(CANDIDATES, _metricx(model, qe=True), sources=SOURCES)
    one = _metricx(model, qe=True)
    for source, hyps, choice in zip(SOURCES, CANDIDATES, choices, strict=True):
        want = one.sentence_scores(list(hyps), None, sources=[source] * len(hyps))
        np.testing.assert_allclose(choice.expected, want, rtol=0, atol=1e-6)
        assert choice.index == int(np.argmin(want))
        # Written as what they are, the metric's own scores, not MBR's expected utilities.
        record = choice.to_dict()
        assert "expected" not in record and record["qe_scores"] == list(choice.expected)


def test_the_command_reranks_with_a_qe_flag_and_names_the_scores(
    model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --metricx-qe reads no reference: pseudo-references would change nothing but the work, so
    # mbr reranks (each candidate scored once) and writes the scores as what they are.
    import json

    from tests.support.cli import run_cli

    cands, sources, scores = tmp_path / "cands.jsonl", tmp_path / "src.txt", tmp_path / "qe.jsonl"
    cands.write_text("".join(json.dumps({"candidates": c}) + "\n" for c in CANDIDATES), encoding="utf-8")
    sources.write_text("".join(f"{s}\n" for s in SOURCES), encoding="utf-8")
    argv = ["mbr", "--candidates", str(cands), "--source", str(sources), "-m", "metricx", "--metricx-qe"]
    argv += ["--metricx-model", str(model), "--metricx-tokenizer", str(nc.MT5_TOKENIZER), "--no-cache"]
    status, out, err = run_cli(capsys, *argv, "--batch-size", "1", "--scores", str(scores))
    assert status == 0, err
    records = [json.loads(line) for line in scores.read_text(encoding="utf-8").splitlines()]
    choices = rerank(CANDIDATES, _metricx(model, qe=True), sources=SOURCES)
    assert [r["qe_scores"] for r in records] == [list(c.expected) for c in choices]
    assert all("expected" not in r for r in records)
    assert out.splitlines() == [c.candidate for c in choices]
