"""The torchmetrics BERTScore drop-in against torchmetrics 1.9 itself, run here on the tiny XLM-R
model of the BERTScore tests (tests/support/neural_checkpoints.build_bertscore).

torchmetrics scores a batch whose predictions and targets sort differently by length against the
wrong targets (its permutation applied twice: PR 2347, issue 2728); one pair alone, or a batch
whose two sides sort alike, it scores right, and those are what the drop-in is compared with.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")
pytest.importorskip("torchmetrics", reason="torchmetrics, a test oracle")

import torchmetrics.functional.text.bert as tm_bert
from understudy.errors import ConfigError, InputError
from understudy.torchmetrics.functional.text.bert import bert_score
from understudy.torchmetrics.text.bert import BERTScore

import tests.support.neural_checkpoints as nc

SAMPLES = nc.bertscore_fixture()["samples"]
ROWS = [
    (h, r)
    for h, r in zip(SAMPLES["hyps"], SAMPLES["refs"], strict=True)
    if len(h.split()) < 300 and len(r.split()) < 300  # torchmetrics fails beyond 512 tokens
]
BOUND = 3e-7
KEYS = ("precision", "recall", "f1")


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(nc.build_bertscore(tmp_path_factory.mktemp("tm-bertscore") / "tiny-xlmr"))


def torchmetrics_bert_score(*args: Any, **options: Any) -> dict[str, Any]:
    """torchmetrics' own ``bert_score`` (its outputs typed loosely)."""
    return dict(tm_bert.bert_score(*args, **options))


def close(got: dict[str, Any], want: list[dict[str, Any]]) -> None:
    for key in KEYS:
        for g, w in zip(got[key].tolist(), [float(x[key]) for x in want], strict=True):
            assert (math.isnan(g) and math.isnan(w)) or abs(g - w) <= BOUND, key


def test_each_pair_is_torchmetrics_own(model: str) -> None:
    rows = ROWS[:12] + ROWS[40:]  # WMT17 segments, then the hostile group (empty sides included)
    hyps, refs = [h for h, _ in rows], [r for _, r in rows]
    want = [torchmetrics_bert_score([h], [r], model_name_or_path=model) for h, r in rows]
    got = bert_score(hyps, refs, model_name_or_path=model)
    close(got, want)
    assert (
        math.isnan(got["precision"][hyps.index("")]) and got["f1"][hyps.index("")] == 0
    )  # 0/0, as torchmetrics


@pytest.mark.parametrize("options", [{"num_layers": 1}, {"idf": True}])
def test_a_batch_that_sorts_alike_is_torchmetrics_own(model: str, options: dict[str, Any]) -> None:
    lengths = {text: len(text) for row in ROWS[:40] for text in row}
    rows, last = [], (-1, -1)
    for h, r in sorted(ROWS[:40], key=lambda row: lengths[row[1]]):  # lengths rising on both sides
        if lengths[h] > last[0] + 20 and lengths[r] > last[1] + 20:
            rows.append((h, r))
            last = (lengths[h], lengths[r])
    assert len(rows) >= 5
    hyps, refs = [h for h, _ in rows], [r for _, r in rows]
    want = torchmetrics_bert_score(hyps, refs, model_name_or_path=model, **options)
    close(
        bert_score(hyps, refs, model_name_or_path=model, **options),
        [dict(zip(KEYS, v, strict=True)) for v in zip(*(want[k] for k in KEYS), strict=True)],
    )


def test_the_misaligned_batch_is_not_repeated(model: str) -> None:
    hyps = ["Die Katze sitzt auf der Matte heute.", "Hallo", "Ein mittellanger Satz hier."]
    refs = ["Hallo Welt", "Die Katze sitzt auf der Matte.", "Ein Satz."]
    alone = [
        float(torchmetrics_bert_score([h], [r], model_name_or_path=model)["f1"])
        for h, r in zip(hyps, refs, strict=True)
    ]
    batch = torchmetrics_bert_score(hyps, refs, model_name_or_path=model)["f1"].tolist()
    assert max(abs(a - b) for a, b in zip(alone, batch, strict=True)) > 0.05  # torchmetrics' bug
    metric = BERTScore(model)
    metric.update(hyps[:1], refs[:1])
    metric.update(hyps[1:], refs[1:])
    assert max(abs(a - b) for a, b in zip(alone, metric.compute()["f1"].tolist(), strict=True)) <= BOUND


def test_several_targets_a_baseline_and_what_it_refuses(model: str, tmp_path: Path) -> None:
    baseline = nc.bertscore_baseline(tmp_path)
    options: dict[str, Any] = {"rescale_with_baseline": True, "baseline_path": str(baseline)}
    want = torchmetrics_bert_score(
        ["Hallo Welt"], [["Hallo", "Welt Hallo"]], model_name_or_path=model, **options
    )
    got = bert_score(["Hallo Welt"], [["Hallo", "Welt Hallo"]], model_name_or_path=model, **options)
    assert all(abs(float(got[k]) - float(want[k])) <= BOUND for k in KEYS)
    with pytest.raises(InputError, match="give truncation=True"):
        bert_score([" ".join(["Wort"] * 600)], ["Kurz"], model_name_or_path=model)
    assert (
        bert_score([" ".join(["Wort"] * 600)], ["Kurz"], model_name_or_path=model, truncation=True)["f1"] > 0
    )
    with pytest.raises(ConfigError, match="not supported: all_layers"):
        BERTScore(model, all_layers=True)
