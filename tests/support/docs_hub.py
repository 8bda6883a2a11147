"""The hub as the documentation's neural examples name it, on 127.0.0.1: tiny randomly
initialised checkpoints published under the real names, so that README's and docs/neural.md's
commands run as written, downloads included (``HF_ENDPOINT`` points huggingface-hub here).

Each checkpoint names its encoder as the published one does (wmt22-comet-da:
``xlm-roberta-large``; wmt22-cometkiwi-da: ``microsoft/infoxlm-large``; XCOMET-XL:
``facebook/xlm-roberta-xl``), and those names are served too, with the tiny encoders' config
and tokenizer. The numbers are the tiny models'; the examples show commands, not scores.
"""

from __future__ import annotations

from pathlib import Path

import tests.support.neural_checkpoints as nc
from tests.support import fake_hub

ENCODERS = {
    "xlm-roberta-large": False,
    "microsoft/infoxlm-large": False,
    "facebook/xlm-roberta-xl": True,
}
"""The encoders the published COMET checkpoints name, each with whether it is XLM-R XL's kind."""


def _without_encoder(folder: Path) -> dict[str, bytes]:
    """A COMET checkpoint's files as the hub holds them: its encoder is named, not included."""
    return {k: v for k, v in fake_hub.folder_files(folder).items() if not k.startswith("encoder/")}


def _publish(hub: fake_hub.Hub, name: str, files: dict[str, bytes]) -> None:
    hub.repos[name] = fake_hub.Repo()
    hub.repos[name].add(files)


def docs_hub(root: Path) -> fake_hub.Hub:
    """A stand-in hub serving wmt22-comet-da, wmt22-cometkiwi-da, XCOMET-XL,
    metricx-24-hybrid-xl-v2p6, mt5-xl, BERTScore's bert-base-multilingual-cased (tiny, of
    XLM-R's kind), Prosho/pear, lucadiliello/BLEURT-20 and COMET-poly's cand1 and ic1, built in
    ``root``; close it when done."""
    hub = fake_hub.Hub()
    for name, xl in ENCODERS.items():
        _publish(hub, name, fake_hub.folder_files(nc.build_encoder(root / name, xl=xl)))
    comet = nc.build_regression(root / "comet", 1, pretrained_model="xlm-roberta-large")
    _publish(hub, "Unbabel/wmt22-comet-da", _without_encoder(comet))
    kiwi = nc.build_unified(root / "kiwi", 11, pretrained_model="microsoft/infoxlm-large")
    _publish(hub, "Unbabel/wmt22-cometkiwi-da", _without_encoder(kiwi))
    seed, variant = nc.XCOMET_VARIANTS["xcomet-like"]
    xcomet = nc.build_xcomet(root / "xcomet", seed, pretrained_model="facebook/xlm-roberta-xl", **variant)
    _publish(hub, "Unbabel/XCOMET-XL", _without_encoder(xcomet))
    _publish(hub, "google/metricx-24-hybrid-xl-v2p6", fake_hub.folder_files(nc.build_metricx(root / "mx", 1)))
    _publish(hub, "google/mt5-xl", fake_hub.folder_files(nc.MT5_TOKENIZER))
    bertscore = nc.build_bertscore(root / "bertscore", size="tiny-9")
    _publish(hub, "bert-base-multilingual-cased", fake_hub.folder_files(bertscore))
    pear = nc.build_pear(root / "pear", pretrained_model="microsoft/infoxlm-large")
    _publish(hub, "Prosho/pear", _without_encoder(pear))
    _publish(hub, "lucadiliello/BLEURT-20", fake_hub.folder_files(nc.build_bleurt(root / "bleurt")))
    for poly_variant in ("cand1", "ic1"):
        poly = nc.build_comet_poly(root / poly_variant, poly_variant, pretrained_model="xlm-roberta-large")
        _publish(hub, f"zouharvi/COMET-poly-{poly_variant}-wmt25", _without_encoder(poly))
    return hub


def local_comet(folder: Path) -> Path:
    """wmt22-comet-da's tiny stand-in as a local folder in the published layout (its encoder in
    ``folder/encoder``), for the examples that pass ``--comet-model ./wmt22-comet-da``."""
    return nc.build_regression(folder, 1)
