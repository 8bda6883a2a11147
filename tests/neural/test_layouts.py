"""Each checkpoint layout is declared by its class: the file that tells it, and what a checkpoint
of it names beside itself. ``fetch-model`` asks the classes; a new layout is a new class."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest
from understudy.errors import ModelError
from understudy.neural import COMET, CometKiwi, MetricX
from understudy.neural.base import NeuralMetric, layouts
from understudy.neural.comet import CometCheckpoint
from understudy.neural.metricx import TOKENIZER_FILES
from understudy.neural.xlmr import ENCODER_FILES


def test_the_published_layouts_are_cometss_and_metricxs() -> None:
    assert {cls.marker for cls in layouts()} == {"hparams.yaml", "config.json"}
    assert CometCheckpoint in layouts() and MetricX in layouts()
    # COMET and CometKiwi share their parent's layout: it is listed once.
    assert COMET not in layouts() and CometKiwi not in layouts()


def test_a_comet_checkpoint_names_its_encoder(tmp_path: Path) -> None:
    (tmp_path / "hparams.yaml").write_text("pretrained_model: xlm-roberta-large\n", encoding="utf-8")
    assert COMET.names_beside(tmp_path, "unused") == ("xlm-roberta-large", ENCODER_FILES)
    (tmp_path / "hparams.yaml").write_text("pretrained_model: ./encoder\n", encoding="utf-8")
    with pytest.raises(ModelError, match="names the encoder as a folder"):
        COMET.names_beside(tmp_path, "unused")


def test_a_metricx_checkpoint_reads_the_tokenizer_asked(tmp_path: Path) -> None:
    assert MetricX.names_beside(tmp_path, "google/mt5-base") == ("google/mt5-base", TOKENIZER_FILES)


def test_a_new_layout_is_a_new_class() -> None:
    class Toy(NeuralMetric):
        marker = "toy.json"

    assert Toy in layouts()
    with pytest.raises(NotImplementedError, match="declares no checkpoint layout"):
        NeuralMetric.names_beside(Path("."), "x")
    del Toy
    gc.collect()
    assert {cls.marker for cls in layouts()} == {"hparams.yaml", "config.json"}


def test_a_config_json_is_metricxs_only_of_an_mt5(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text('{"model_type": "bert"}', encoding="utf-8")
    assert not MetricX.recognises(tmp_path)
    (tmp_path / "config.json").write_text('{"model_type": "mt5"}', encoding="utf-8")
    assert MetricX.recognises(tmp_path)
    (tmp_path / "config.json").write_text("not json", encoding="utf-8")
    assert not MetricX.recognises(tmp_path)
