"""HF evaluate's ``bertscore`` script, computed by :class:`understudy.neural.bertscore.BERTScore`:
its keyword arguments and its output (``precision``, ``recall`` and ``f1`` lists, a
``hashcode``), with bert-score's numbers, as the script gives them through ``bert_score.BERTScorer``.

The script keeps its scorer between calls of one loaded module and makes a new one only when
the hash of its settings changes; the hash does not cover the references, so with ``idf=True``
a second call reuses the first call's idf weights. ``load("bertscore")`` keeps that behaviour;
``load("bertscore_idf_per_call")`` weights each call by its own references, as ``bert_score.score``
does.

>>> code = BERTScoreScript.hashcode("roberta-large", 17, idf=True, rescaled=False, custom=False, fast=False)
>>> code.startswith("roberta-large_L17_idf_version=understudy-")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from understudy._version import __version__
from understudy.errors import ConfigError, InputError


class BERTScoreScript:
    """One loaded ``bertscore`` module: its scorer, kept while the settings' hash stays."""

    def __init__(self, fresh_idf: bool) -> None:
        self.fresh_idf = fresh_idf
        self._scorer: Any = None
        self._hash = ""

    @staticmethod
    def hashcode(model: str, layers: int, *, idf: bool, rescaled: bool, custom: bool, fast: bool) -> str:
        """bert-score's ``get_hash`` of the settings, with understudy's version for bert-score's."""
        code = f"{model}_L{layers}{'_idf' if idf else '_no-idf'}_version=understudy-{__version__}"
        if rescaled:
            code += "-custom-rescaled" if custom else "-rescaled"
        return code + ("_fast-tokenizer" if fast else "")

    def __call__(
        self,
        predictions: Sequence[str],
        references: Sequence[Any],
        lang: str | None = None,
        model_type: str | None = None,
        num_layers: int | None = None,
        verbose: bool = False,
        idf: bool = False,
        device: str | None = None,
        batch_size: int = 64,
        nthreads: int = 4,
        all_layers: bool = False,
        rescale_with_baseline: bool = False,
        baseline_path: str | None = None,
        use_fast_tokenizer: bool = False,
    ) -> dict[str, Any]:
        """The script's ``_compute``: P, R and F1 of each prediction (its best reference's)."""
        from understudy.computed.bertscore import LAYERS, default_model

        del verbose, nthreads
        refs = [[r] if isinstance(r, str) else list(r) for r in references]
        if model_type is None and lang is None:
            raise ConfigError("either 'lang' (e.g. 'en') or 'model_type' must be given")
        model = model_type or default_model(lang)
        layers = num_layers if num_layers is not None else LAYERS.get(model)
        if layers is None:
            raise ConfigError(f"no default layer for {model} (bert-score's table lacks it): give num_layers")
        code = self.hashcode(
            model,
            layers,
            idf=idf,
            rescaled=rescale_with_baseline,
            custom=baseline_path is not None,
            fast=use_fast_tokenizer,
        )
        if self._scorer is None or code != self._hash:
            self._scorer = _scorer(
                model, layers, idf, device, batch_size, all_layers, lang, rescale_with_baseline, baseline_path
            )
            self._hash = code
            if idf and not self.fresh_idf:
                self._scorer.fix_idf([r for group in refs for r in group])
        scores = self._scorer.sentence_scores(list(predictions), refs)
        return {
            "precision": [s.precision for s in scores],
            "recall": [s.recall for s in scores],
            "f1": [s.f1 for s in scores],
            "hashcode": code,
        }


def _scorer(
    model: str,
    layers: int,
    idf: bool,
    device: str | None,
    batch_size: int,
    all_layers: bool,
    lang: str | None,
    rescale: bool,
    baseline: str | None,
) -> Any:
    """``bert_score.BERTScorer``'s counterpart, refusing what it refuses."""
    from understudy.neural.bertscore import BERTScore

    if all_layers:
        raise InputError("all_layers=True is not computed here: BERTScore reads one layer")
    if rescale and lang is None:
        raise InputError("rescale_with_baseline=True needs lang, as bert-score's does")
    if rescale and baseline is None:
        raise InputError(
            "rescale_with_baseline=True needs baseline_path: understudy ships no baseline files"
            " (bert-score's are LAYER,P,R,F rows in rescale_baseline/LANG/MODEL.tsv)"
        )
    return BERTScore(
        model,
        num_layers=layers,
        idf=idf,
        baseline=baseline if rescale else None,
        lang=lang,
        batch_size=batch_size,
        device=device or "auto",
    )
