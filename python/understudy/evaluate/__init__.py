"""HF evaluate's translation and speech metrics, computed by understudy: ``evaluate.load`` becomes
``understudy.evaluate.load``.

``load("sacrebleu" | "bleu" | "google_bleu" | "chrf" | "ter" | "wer" | "cer" | "bertscore")`` returns a module
with HF's ``compute(predictions=..., references=...)``, ``add`` and ``add_batch``, its keyword
arguments and its output dictionary, with the numbers of HF evaluate 0.4.6's metric scripts. Each
script's conventions are kept under its name: ``bleu`` is the tensorflow/nmt port (the *shortest*
reference's length, ``smooth`` adding one to every order's counts, a 0-1 scale), ``google_bleu``
is NLTK's GLEU over 13a tokens, ``sacrebleu``, ``chrf`` and ``ter`` are sacrebleu's (one
reference count for every prediction), ``wer`` and ``cer`` are jiwer's corpus measures,
``bertscore`` is bert-score's through its cached scorer (:mod:`understudy.evaluate.bertscore`;
``bertscore_idf_per_call`` without the cache's stale idf).

>>> bleu, line = load("bleu"), "hello there general kenobi"
>>> bleu.compute(predictions=[line], references=[[line, "hello there!"]])["bleu"]
1.0
>>> load("wer").compute(predictions=["a b c"], references=["a x c"])  # one substitution of 3 words
0.3333333333333333
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from understudy.errors import EmptyReferenceError, InputError
from understudy.evaluate.bertscore import BERTScoreScript
from understudy.metrics.bleu import BLEU
from understudy.metrics.tokenizers import tokenize
from understudy.metrics.wer import CER, WER
from understudy.nltk._layout import streams

Tokenizer = Callable[[str], Sequence[Any]]


def tokenizer_13a(line: str) -> list[str]:
    """sacrebleu's 13a tokens of ``line`` (HF's ``Tokenizer13a`` gives the same), as a list.

    >>> tokenizer_13a("Hello, world!")
    ['Hello', ',', 'world', '!']
    """
    return tokenize([line], "13a")[0].split()


def _as_lists(references: Sequence[Any]) -> list[list[str]]:
    # HF's scripts take one reference string per prediction as well as a list of them.
    if references and isinstance(references[0], str):
        return [[ref] for ref in references]
    return [list(refs) for refs in references]


def _streams(references: Sequence[Any], metric: str) -> list[list[str]]:
    """Per-prediction reference lists as sacrebleu's streams; sacrebleu's scripts need as many
    references for every prediction."""
    lists = _as_lists(references)
    width = len(lists[0]) if lists else 0
    if any(len(refs) != width for refs in lists):
        raise InputError(f"{metric} requires the same number of references for each prediction")
    return [[refs[k] for refs in lists] for k in range(width)]


def nmt_bleu(
    matches: Sequence[int],
    possible: Sequence[int],
    translation_length: int,
    reference_length: int,
    smooth: bool,
) -> dict[str, Any]:
    """tensorflow/nmt's BLEU (HF's ``bleu``) from its counts, operation by operation: each
    order's matches and possible matches, the translation's length and the shortest references'.

    >>> nmt_bleu([2, 1], [2, 1], 2, 2, False)["bleu"]
    1.0
    """
    max_order = len(matches)
    if smooth:
        precisions = [(m + 1.0) / (p + 1.0) for m, p in zip(matches, possible, strict=True)]
    else:
        precisions = [float(m) / p if p > 0 else 0.0 for m, p in zip(matches, possible, strict=True)]
    geo_mean: float = 0
    if min(precisions) > 0:
        geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions))
    ratio = float(translation_length) / reference_length
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return {
        "bleu": geo_mean * bp,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": translation_length,
        "reference_length": reference_length,
    }


def _bleu(
    predictions: Sequence[str],
    references: Sequence[Any],
    tokenizer: Tokenizer = tokenizer_13a,
    max_order: int = 4,
    smooth: bool = False,
) -> dict[str, Any]:
    refs = [[list(tokenizer(r)) for r in segment] for segment in _as_lists(references)]
    hyps = [list(tokenizer(p)) for p in predictions]
    totals = BLEU(max_ngram_order=max_order).segment_stats(hyps, streams(refs, len(hyps))).total()
    shortest = sum(min(len(r) for r in segment) for segment in refs)
    counts = totals.tolist()
    return nmt_bleu(counts[2 : 2 + max_order], counts[2 + max_order :], counts[0], shortest, smooth)


def _google_bleu(
    predictions: Sequence[str],
    references: Sequence[Any],
    tokenizer: Tokenizer = tokenizer_13a,
    min_len: int = 1,
    max_len: int = 4,
) -> dict[str, float]:
    from understudy.nltk.gleu_score import corpus_gleu

    refs = [[list(tokenizer(r)) for r in segment] for segment in _as_lists(references)]
    return {"google_bleu": corpus_gleu(refs, [list(tokenizer(p)) for p in predictions], min_len, max_len)}


def _sacrebleu(predictions: Sequence[str], references: Sequence[Any], **options: Any) -> dict[str, Any]:
    from understudy.sacrebleu import corpus_bleu

    tokenizer = options.pop("tokenize", None)
    result = corpus_bleu(
        list(predictions),
        _streams(references, "Sacrebleu"),
        **options,
        **({"tokenize": tokenizer} if tokenizer else {}),
    )
    keys = ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len")
    return {key: getattr(result, key) for key in keys}


def _chrf(
    predictions: Sequence[str],
    references: Sequence[Any],
    char_order: int = 6,
    word_order: int = 0,
    beta: int = 2,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> dict[str, Any]:
    from understudy.sacrebleu.metrics import CHRF

    metric = CHRF(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    result = metric.corpus_score(
        list(predictions), _streams(references, "ChrF, as implemented by sacrebleu,")
    )
    return {
        "score": result.score,
        "char_order": result.char_order,
        "word_order": result.word_order,
        "beta": result.beta,
    }


def _ter(
    predictions: Sequence[str],
    references: Sequence[Any],
    normalized: bool = False,
    ignore_punct: bool = False,
    support_zh_ja_chars: bool = False,
    case_sensitive: bool = False,
) -> dict[str, Any]:
    from understudy.sacrebleu.metrics import TER

    metric = TER(
        normalized=normalized,
        no_punct=ignore_punct,
        asian_support=support_zh_ja_chars,
        case_sensitive=case_sensitive,
    )
    result = metric.corpus_score(list(predictions), _streams(references, "Sacrebleu"))
    return {"score": result.score, "num_edits": result.num_edits, "ref_length": result.ref_length}


def _edit_rate(metric: WER) -> Callable[..., float]:
    def compute(
        predictions: Sequence[str], references: Sequence[str], concatenate_texts: bool = False
    ) -> float:
        # Summed edits over summed reference lengths, concatenated or not: jiwer's corpus measure.
        del concatenate_texts
        result = metric.corpus_score(list(predictions), [list(references)])
        if result.substitutions + result.deletions + result.hits == 0:
            # HF's script divides by the references' length: with jiwer 4 that is a
            # ZeroDivisionError (jiwer 3 refused any empty reference with a ValueError).
            raise EmptyReferenceError(
                f"the references hold no {metric.config.unit}: {metric.config.name} has nothing to divide by"
            )
        score: float = result.score
        return score

    return compute


MODULES: dict[str, Callable[..., Any]] = {
    "bleu": _bleu,
    "google_bleu": _google_bleu,
    "sacrebleu": _sacrebleu,
    "chrf": _chrf,
    "ter": _ter,
    "wer": _edit_rate(WER()),
    "cer": _edit_rate(CER()),
}
"""The metric scripts this module provides, by HF's names."""

SCRIPTS: dict[str, Callable[[], Callable[..., Any]]] = {
    "bertscore": lambda: BERTScoreScript(fresh_idf=False),
    "bertscore_idf_per_call": lambda: BERTScoreScript(fresh_idf=True),
}
"""The scripts that keep state between calls of one loaded module (a model), each made anew by
:func:`load` (:mod:`understudy.evaluate.bertscore`; the neural extra)."""


@dataclass
class EvaluationModule:
    """One loaded metric, used as HF's: ``compute(predictions=..., references=..., **options)``, or
    ``add``/``add_batch`` first and ``compute(**options)`` after.

    >>> chrf = load("chrf")
    >>> chrf.add_batch(predictions=["the cat"], references=[["the cat"]])
    >>> chrf.compute()["score"]
    100.0
    """

    name: str
    _script: Callable[..., Any] | None = None
    _predictions: list[Any] = field(default_factory=list)
    _references: list[Any] = field(default_factory=list)

    def add(self, *, prediction: Any = None, reference: Any = None) -> None:
        """Keep one prediction and its reference(s) for :meth:`compute`."""
        self._predictions.append(prediction)
        self._references.append(reference)

    def add_batch(self, *, predictions: Sequence[Any] = (), references: Sequence[Any] = ()) -> None:
        """Keep a batch of predictions and their references for :meth:`compute`."""
        if len(predictions) != len(references):
            raise InputError(f"{len(predictions)} predictions but {len(references)} references")
        self._predictions.extend(predictions)
        self._references.extend(references)

    def compute(
        self,
        *,
        predictions: Sequence[Any] | None = None,
        references: Sequence[Any] | None = None,
        **options: Any,
    ) -> Any:
        """The score of ``predictions`` against ``references`` (or of what was added, which is
        then forgotten), as HF's script of this name computes it."""
        if predictions is None and references is None:
            predictions, references = self._predictions, self._references
            self._predictions, self._references = [], []
        if predictions is None or references is None or len(predictions) != len(references):
            raise InputError("give predictions and references, one reference entry per prediction")
        return (self._script or MODULES[self.name])(predictions, references, **options)


def load(path: str, *args: Any, **kwargs: Any) -> EvaluationModule:
    """The metric named ``path`` (HF's names; other arguments of ``evaluate.load`` are ignored).

    >>> load("google_bleu").compute(predictions=["the cat sat"], references=[["the cat sat"]])
    {'google_bleu': 1.0}
    """
    del args, kwargs
    name = path.rstrip("/").rsplit("/", 1)[-1]
    if name in SCRIPTS:
        return EvaluationModule(name, SCRIPTS[name]())
    if name not in MODULES:
        known = ", ".join(sorted([*MODULES, *SCRIPTS]))
        raise InputError(f"understudy.evaluate has no metric {path!r}; it has {known}")
    return EvaluationModule(name)


__all__ = ["MODULES", "SCRIPTS", "EvaluationModule", "load", "nmt_bleu", "tokenizer_13a"]
