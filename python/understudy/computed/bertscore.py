"""BERTScore (Zhang et al., 2020) as the command line and given scores know it: precision, recall
and F1 of greedily matched token embeddings, bert-score 0.3.13's numbers; computed by
:class:`understudy.neural.bertscore.BERTScore`. Its score is F1.

The default model follows the target language as bert-score's ``lang`` picks it, and the layer
follows the model as bert-score's table gives it (:data:`LAYERS`; another model needs
``--bertscore-layers``).

>>> DECLARED.name, default_model("en"), default_model("de"), LAYERS["roberta-large"]
('bertscore', 'roberta-large', 'bert-base-multilingual-cased', 17)
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from understudy.config import option
from understudy.registry.declarations import Computed, NeuralConfig

MODELS = {
    "en": "roberta-large",
    "zh": "bert-base-chinese",
    "tr": "dbmdz/bert-base-turkish-cased",
    "en-sci": "allenai/scibert_scivocab_uncased",
}
"""bert-score's model by language; every other language: ``bert-base-multilingual-cased``."""

LAYERS = {
    "bert-base-uncased": 9,
    "bert-large-uncased": 18,
    "bert-base-multilingual-cased": 9,
    "bert-base-chinese": 8,
    "roberta-base": 10,
    "roberta-large": 17,
    "roberta-large-mnli": 19,
    "distilroberta-base": 5,
    "xlm-roberta-base": 9,
    "xlm-roberta-large": 17,
    "allenai/scibert_scivocab_uncased": 8,
    "allenai/scibert_scivocab_cased": 9,
    "dbmdz/bert-base-turkish-cased": 10,
    "microsoft/deberta-base": 9,
    "microsoft/deberta-large": 16,
    "microsoft/deberta-large-mnli": 18,
    "microsoft/deberta-xlarge": 18,
    "microsoft/deberta-xlarge-mnli": 40,
    "microsoft/deberta-v3-base": 9,
    "microsoft/mdeberta-v3-base": 10,
    "microsoft/deberta-v3-large": 12,
    "google/electra-base-discriminator": 9,
    "google/electra-large-discriminator": 14,
}
"""The layer bert-score 0.3.13 reads of each model it knows whose encoder understudy runs (its
``model2layers``, tuned on WMT16's correlations): BERT, RoBERTa, XLM-R, DeBERTa and ELECTRA."""


def layer(text: str) -> int:
    """A layer on the command line: a whole number from 0 (0: the embeddings' output).

    >>> layer("0"), layer("17")
    (0, 17)
    """
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a layer, a whole number from 0, got {text!r}")
    return int(text)


def default_model(lang: str | None) -> str:
    """The model bert-score picks for the language ``lang`` (``None``: English's)."""
    return MODELS.get((lang or "en").lower(), "bert-base-multilingual-cased")


@dataclass(frozen=True)
class BERTScoreConfig(NeuralConfig):
    """BERTScore's model, layer, idf weighting and baseline, and how it runs."""

    model: str | None = option(
        None,
        flags=("--bertscore-model",),
        metavar="MODEL",
        unset=True,
        help="BERTScore's model: a hub name, NAME@REVISION, or a local folder (default: by the target"
        " language of -l, as bert-score's lang: roberta-large for English, bert-base-multilingual-cased"
        " for most)",
    )
    layers: int | None = option(
        None,
        flags=("--bertscore-layers",),
        type=layer,
        metavar="N",
        unset=True,
        help="the layer whose embeddings are matched (default: bert-score's for the model)",
    )
    idf: bool = option(False, flags=("--bertscore-idf",), help="weight tokens by idf over the references")
    baseline: str | None = option(
        None,
        flags=("--bertscore-baseline",),
        metavar="FILE",
        unset=True,
        help="rescale with bert-score's baseline file (LAYER,P,R,F rows)",
    )


DECLARED = Computed(
    "bertscore",
    "BERTScore",
    BERTScoreConfig,
    "understudy.neural.bertscore:BERTScore",
    inputs=("hypothesis", "reference"),
    score_range=(None, 1.0),
    aliases=("BERTScore-F1",),
    several_references=True,
)
