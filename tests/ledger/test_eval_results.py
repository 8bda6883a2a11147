"""Kept records exported as the Hub's evaluation results: ``.eval_results/*.yaml`` a variant and
the model card's ``model-index``, read back with huggingface_hub's own classes."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("huggingface_hub", reason="the neural extra")

import huggingface_hub as hub
import yaml
from understudy import BLEU, CHRF
from understudy.ledger import Ledger

from tests.support.cli import run_cli

HYPS = ["the cat sat on the mat", "a dog barked"]
REFS = [["the cat sat on a mat", "the dog barked"]]


def test_each_variant_a_file_and_the_card_by_huggingface_hub(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    location = str(tmp_path / "l.sqlite")
    with Ledger(location) as ledger:
        old, new, chrf = (
            ledger.get(ledger.append(stats, "my-model", "wmt17:en-de"))
            for stats in (
                BLEU().segment_stats(["the cat", "a dog barked"], REFS),
                BLEU().segment_stats(HYPS, REFS),
                CHRF().segment_stats(HYPS, REFS),
            )
        )
    assert old.score != new.score
    out = tmp_path / "hub"
    argv = ["ledger", "export", "--eval-results", str(out), "--dataset", "org/wmt17", "--ledger", location]
    status, _, err = run_cli(capsys, *argv)
    assert status == 0 and "(3 files)" in err, err
    files = sorted(p.name for p in (out / "my-model" / ".eval_results").iterdir())
    assert files == ["wmt17-en-de_bleu.yaml", "wmt17-en-de_chrf.yaml"]
    bleu = yaml.safe_load((out / "my-model" / ".eval_results" / "wmt17-en-de_bleu.yaml").read_text())
    assert bleu == [
        {
            "dataset": {"id": "org/wmt17", "task_id": "wmt17:en-de"},
            "value": new.score,  # the newest record of the variant
            "date": new.created,
            "notes": new.signature,
        }
    ]
    card = hub.ModelCard.load(out / "my-model" / "README.md")
    results = {r.metric_type: r for r in card.data.eval_results}
    assert results["bleu"].metric_value == new.score and results["chrf"].metric_value == chrf.score
    assert results["chrf"].metric_config == chrf.signature and card.data.model_name == "my-model"
    status, _, err = run_cli(capsys, "ledger", "export", "--ledger", location)
    assert status != 0 and "give FILE, or --eval-results DIR" in err
