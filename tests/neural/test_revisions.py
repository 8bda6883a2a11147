"""What a neural metric's revision pins: every file its model reads, so that two checkpoints (or
tokenizers) that differ in any of them never share a signature or a cached score."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy.neural import COMET, MetricX

import tests.support.neural_checkpoints as nc
from tests.support.neural_checkpoints import MT, REF, SRC


def _metricx_folder(folder: Path, weights: bytes) -> Path:
    # What the revision reads; the model itself is never loaded here.
    folder.mkdir(parents=True)
    (folder / "config.json").write_text(json.dumps({"model_type": "mt5", "torch_dtype": "float32"}))
    (folder / "model.safetensors").write_bytes(weights)
    return folder


def test_local_metricx_folders_differing_in_weights_differ_in_revision(tmp_path: Path) -> None:
    # Before: the same config.json and folder name shared a signature and the cache, so the second
    # checkpoint got the first one's scores.
    first = MetricX(
        _metricx_folder(tmp_path / "a" / "metricx", b"1" * 64), tokenizer=nc.MT5_TOKENIZER, cache=None
    )
    second = MetricX(
        _metricx_folder(tmp_path / "b" / "metricx", b"2" * 64), tokenizer=nc.MT5_TOKENIZER, cache=None
    )
    again = MetricX(
        _metricx_folder(tmp_path / "c" / "metricx", b"1" * 64), tokenizer=nc.MT5_TOKENIZER, cache=None
    )
    assert first.computed_by()["model"] == second.computed_by()["model"]
    assert first.computed_by()["revision"] != second.computed_by()["revision"]
    assert first.computed_by() == again.computed_by()  # the same files: the same revision
    item = first.item("src", "hyp", "ref")
    assert first.cache_key(item) != second.cache_key(item)


def test_a_local_tokenizer_folder_is_pinned_by_its_files(tmp_path: Path) -> None:
    model = _metricx_folder(tmp_path / "metricx", b"1" * 64)
    tokenizer = shutil.copytree(nc.MT5_TOKENIZER, tmp_path / "one" / "mt5")
    same = shutil.copytree(nc.MT5_TOKENIZER, tmp_path / "two" / "mt5")
    pinned = MetricX(model, tokenizer=tokenizer, cache=None).computed_by()["revision"]
    assert MetricX(model, tokenizer=same, cache=None).computed_by()["revision"] == pinned
    with open(same / "spiece.model", "ab") as changed:
        changed.write(b"\0")
    # Before: a local tokenizer folder's revision was empty, whatever it held.
    assert MetricX(model, tokenizer=same, cache=None).computed_by()["revision"] != pinned


def test_a_comet_encoder_with_another_tokenizer_is_another_revision(tmp_path: Path) -> None:
    folder = nc.build_regression(tmp_path / "wmt22-like", 3)
    before = COMET(folder, cache=None)
    encoder = folder / "encoder"  # the folder the checkpoint's pretrained_model names
    data = json.loads((encoder / "tokenizer.json").read_text(encoding="utf-8"))
    data["normalizer"] = None  # another tokenizer: the same ids for plain ASCII, not for all text
    (encoder / "tokenizer.json").write_text(json.dumps(data), encoding="utf-8")
    after = COMET(folder, cache=None)
    assert before.checkpoint.revision == after.checkpoint.revision  # the same model.ckpt
    # Before: the encoder's tokenizer was pinned by nothing, and its scores came from the cache.
    assert before.computed_by()["revision"] != after.computed_by()["revision"]
    item = before.item(SRC[0], MT[0], REF[0])
    assert before.cache_key(item) != after.cache_key(item)


def test_a_comet_folder_with_another_hparams_is_another_revision(tmp_path: Path) -> None:
    folder = nc.build_regression(tmp_path / "wmt22-like", 3)
    before = COMET(folder, cache=None)
    hparams = folder / "hparams.yaml"
    text = hparams.read_text(encoding="utf-8")
    assert "layer_norm: true" in text
    hparams.write_text(text.replace("layer_norm: true", "layer_norm: false"), encoding="utf-8")
    after = COMET(folder, cache=None)
    # Before: only checkpoints/model.ckpt was hashed, though the model reads hparams.yaml (its
    # class, its encoder's name, CometKiwi's input segments): an edited one kept the revision,
    # and the cache's scores.
    assert before.checkpoint.revision != after.checkpoint.revision
    item = before.item(SRC[0], MT[0], REF[0])
    assert before.cache_key(item) != after.cache_key(item)


def test_auto_is_the_default_device_and_the_signature_says_which_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch

    folder = nc.build_regression(tmp_path / "wmt22-like", 3)
    metric = COMET(folder, cache=None)  # device="auto" by default
    assert torch.cuda.is_available() or metric.device == "cpu"
    result = metric.corpus_score(MT[:2], REF[:2], sources=SRC[:2])
    assert f"|ref:yes|dev:{metric.device.partition(':')[0]}|" in str(result.signature)
    # Where torch sees a GPU, auto takes it (nothing runs here: the metric is only made).
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    on_gpu = COMET(folder, cache=None)
    assert on_gpu.device == "cuda" and on_gpu.computed_by()["device"] == "cuda"
    # A CPU score and a GPU score are never one cache entry.
    item = metric.item(SRC[0], MT[0], REF[0])
    assert metric.device != "cpu" or metric.cache_key(item) != on_gpu.cache_key(item)


def _mapped(path: Path) -> list[tuple[int, int]]:
    """The address ranges at which this process maps ``path``."""
    ranges = []
    with open("/proc/self/maps", encoding="utf-8") as maps:
        for line in maps:
            parts = line.split()
            if len(parts) >= 6 and parts[5] == str(path.resolve()):
                start, end = (int(x, 16) for x in parts[0].split("-"))
                ranges.append((start, end))
    return ranges


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads the process's memory map")
def test_bf16_is_read_from_the_file_with_no_fp32_copy_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch
    from understudy.neural import comet_model

    folder = nc.build_regression(tmp_path / "wmt22-like", 3)
    read = comet_model.read_checkpoint
    seen: dict[str, Any] = {}

    def watched(where: Path) -> Any:
        kind, hparams, state = read(where)
        ranges = _mapped(where / comet_model.WEIGHTS)
        # Every fp32 tensor of the state dict is the file's own bytes, mapped: none was copied.
        seen["mapped"] = ranges and all(any(a <= t.data_ptr() < b for a, b in ranges) for t in state.values())
        return kind, hparams, state

    monkeypatch.setattr(comet_model, "read_checkpoint", watched)
    metric = COMET(folder, cache=None, precision="bf16", device="cpu")
    metric.begin()
    model = metric._model
    assert seen["mapped"] and model is not None
    parameters = [*model.encoder.parameters(), *model.estimator.parameters()]
    assert {p.dtype for p in parameters} == {torch.bfloat16}
    assert model.mix.weights.dtype == torch.bfloat16


def test_metricx_reads_its_weights_in_the_precision_asked(tmp_path: Path) -> None:
    import torch

    folder = nc.build_metricx(tmp_path / "metricx-24-tiny", 1)
    metric = MetricX(folder, tokenizer=nc.MT5_TOKENIZER, precision="bf16", cache=None, device="cpu")
    metric.begin()
    assert metric._model is not None
    assert {p.dtype for p in metric._model.model.parameters()} == {torch.bfloat16}


def test_out_of_device_memory_is_one_line_and_keeps_what_was_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import torch
    from understudy.computed.cache import ScoreCache
    from understudy.errors import ModelError

    folder = nc.build_regression(tmp_path / "wmt22-like", 3)
    metric = COMET(folder, cache=tmp_path / "c.sqlite", batch_size=4)
    monkeypatch.setattr(COMET, "block", 3)
    score_block = COMET.score_block
    calls = [0]

    def second_block_fails(self: COMET, items: Any, progress: Any) -> Any:
        calls[0] += 1
        if calls[0] == 2:  # as torch raises it when a batch does not fit on the card
            raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
        return score_block(self, items, progress)

    monkeypatch.setattr(COMET, "score_block", second_block_fails)
    with pytest.raises(
        ModelError, match=r"COMET: out of device memory on cpu with batches of 4: lower --batch-size"
    ):
        metric.system_scores({"A": MT}, REF, SRC)
    assert ScoreCache(tmp_path / "c.sqlite").stats().entries == 3  # the first block, kept


PEAK = """
import sys, threading, time, pathlib
import torch, transformers, safetensors.torch
from understudy.neural import metricx
transformers.MT5ForConditionalGeneration  # the model's code loaded before the baseline

def anon():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("RssAnon:"))

peak, done = [0], threading.Event()

def watch():
    while not done.is_set():
        peak[0] = max(peak[0], anon())
        time.sleep(0.0002)

base = anon()
watcher = threading.Thread(target=watch)
watcher.start()
model = metricx._Model(pathlib.Path(sys.argv[1]), None, "cpu", torch.bfloat16)
done.set()
watcher.join()
peak[0] = max(peak[0], anon())
weights = sum(p.numel() * p.element_size() for p in model.model.parameters())
print(weights, peak[0] - base)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the process's memory")
def test_metricx_at_bf16_takes_at_most_1_2x_its_weights_while_loading(tmp_path: Path) -> None:
    import subprocess
    import sys

    import torch
    import transformers
    from understudy.neural.metricx import lean_mt5

    folder = nc.build_metricx(tmp_path / "metricx-24-tiny", 1)
    done = subprocess.run(
        [sys.executable, "-c", PEAK, str(folder)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    weights, peak = map(int, done.stdout.split())
    # Before: the fp32 file read whole, then converted: 2.07x the bf16 weights.
    assert peak <= 1.2 * weights, (peak / weights, weights)
    lean = lean_mt5(folder, transformers.AutoConfig.from_pretrained(str(folder)), torch.bfloat16)
    whole = transformers.MT5ForConditionalGeneration.from_pretrained(str(folder), dtype=torch.bfloat16)
    assert lean is not None
    ours, theirs = dict(lean.named_parameters()), dict(whole.named_parameters())
    assert ours.keys() == theirs.keys() and all(torch.equal(ours[k], theirs[k]) for k in ours)
    assert (
        lean.lm_head.weight is not lean.shared.weight
        and lean.encoder.embed_tokens.weight is lean.shared.weight
    )
