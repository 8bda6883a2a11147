"""``understudy.evaluate.load("bertscore")`` against HF evaluate's own ``bertscore`` script (evaluate
0.4.6 at a7dd338, on bert-score 0.3.13), run on the tiny XLM-R model of tests/neural/test_bertscore.py
by scripts/bertscore_fixtures.py: its numbers, its output's keys, and its cached scorer's stale
idf weights, kept under its name, with the fix under another."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy import evaluate
from understudy.errors import ConfigError, InputError

import tests.support.neural_checkpoints as nc

FIXTURE = nc.bertscore_fixture()
HF = FIXTURE["hf_evaluate"]["results"]
HYPS, REFS, SECOND = (FIXTURE["samples"][k] for k in ("hyps", "refs", "second"))
SPREAD = 4.8e-7
OPTIONS = {"num_layers": 2, "device": "cpu", "use_fast_tokenizer": True}


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(nc.build_bertscore(tmp_path_factory.mktemp("hf-bertscore") / "tiny-xlmr"))


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))


def _close(got: dict[str, Any], want: dict[str, Any]) -> None:
    assert set(got) == set(want) == {"precision", "recall", "f1", "hashcode"}
    for key in ("precision", "recall", "f1"):
        assert max(abs(a - b) for a, b in zip(got[key], want[key], strict=True)) <= SPREAD, key


def test_plain_and_several_references_are_the_scripts(model: str) -> None:
    _close(
        evaluate.load("bertscore").compute(predictions=HYPS, references=REFS, model_type=model, **OPTIONS),
        HF["plain"],
    )
    multi = [[r, s] for r, s in zip(REFS, SECOND, strict=True)]
    got = evaluate.load("bertscore").compute(predictions=HYPS, references=multi, model_type=model, **OPTIONS)
    _close(got, HF["multiref"])
    assert got["hashcode"].startswith(f"{model}_L2_no-idf_version=understudy-")
    assert got["hashcode"].endswith("_fast-tokenizer")


def test_a_second_idf_call_keeps_the_first_calls_weights_as_the_script_does(model: str) -> None:
    cached = evaluate.load("bertscore")
    options = {"model_type": model, "idf": True, **OPTIONS}
    _close(cached.compute(predictions=HYPS[:25], references=REFS[:25], **options), HF["idf-first"])
    _close(cached.compute(predictions=HYPS[25:], references=REFS[25:], **options), HF["idf-second"])
    # The fix, under its own name: each call's own references, as a fresh module's.
    fresh = evaluate.load("bertscore_idf_per_call")
    fresh.compute(predictions=HYPS[:25], references=REFS[:25], **options)
    _close(fresh.compute(predictions=HYPS[25:], references=REFS[25:], **options), HF["idf-fresh"])
    stale = max(abs(a - b) for a, b in zip(HF["idf-second"]["f1"], HF["idf-fresh"]["f1"], strict=True))
    assert stale > 1e-3  # the quirk is real on these texts


def test_what_the_script_refuses_is_refused(model: str) -> None:
    module = evaluate.load("bertscore")
    with pytest.raises(ConfigError, match="either 'lang'"):
        module.compute(predictions=["a"], references=["a"])
    with pytest.raises(InputError, match="needs lang"):
        module.compute(
            predictions=["a"], references=["a"], model_type=model, rescale_with_baseline=True, **OPTIONS
        )
    with pytest.raises(InputError, match="ships no baseline files"):
        module.compute(
            predictions=["a"],
            references=["a"],
            model_type=model,
            lang="de",
            rescale_with_baseline=True,
            **OPTIONS,
        )
    with pytest.raises(InputError, match="all_layers"):
        module.compute(predictions=["a"], references=["a"], model_type=model, all_layers=True, **OPTIONS)
