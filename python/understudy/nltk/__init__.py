"""NLTK's ``nltk.translate`` metrics, counted by understudy: change ``nltk.translate`` to ``understudy.nltk``.

``from understudy.nltk.bleu_score import corpus_bleu, sentence_bleu, SmoothingFunction`` gives
NLTK's functions with NLTK's arguments and NLTK's numbers bit for bit (its conventions kept
under its names: at least one n-gram per sentence, 1e-154 for an unsmoothed zero precision,
smoothing methods 0-7, several weight tuples at once); ``gleu_score``, ``chrf_score`` and
``nist_score`` the same for GLEU, NLTK's chrF and NLTK's NIST. The n-grams are counted by
understudy's Rust core, from the tokens as given (strings or integers; see :mod:`understudy.inputs.tokens`).

>>> from understudy.nltk import bleu
>>> bleu([["a", "b", "c", "d"]], ["a", "b", "c", "d"])
1.0
"""

from __future__ import annotations

from understudy.nltk.bleu_score import sentence_bleu as bleu
from understudy.nltk.chrf_score import sentence_chrf as chrf
from understudy.nltk.gleu_score import sentence_gleu as gleu
from understudy.nltk.nist_score import sentence_nist as nist

__all__ = ["bleu", "chrf", "gleu", "nist"]
