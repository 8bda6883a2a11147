"""sacrebleu 2.6.0's public Python API, computed by understudy: ``import understudy.sacrebleu as sacrebleu``.

The module layout is sacrebleu's (``metrics``, ``compat``, ``significance``,
``utils``, ``dataset``, ``tokenizers`` and the top-level names), every name a thin
layer over understudy's own API: the same numbers, faster. What it does not provide
is listed in :data:`NOT_PROVIDED`; asking for one of those names says so.

>>> import understudy.sacrebleu as sacrebleu
>>> round(sacrebleu.corpus_bleu(["The dog bit the man."], [["The dog bit the man."]]).score, 1)
100.0
>>> hyps, refs = ["am I am a character sequence"], [["I am a symbol string sequence a a"]]
>>> sacrebleu.raw_corpus_bleu(hyps, refs).counts
[4, 2, 1, 0]
"""

from __future__ import annotations

from understudy.sacrebleu.compat import (
    corpus_bleu,
    corpus_chrf,
    corpus_ter,
    raw_corpus_bleu,
    sentence_bleu,
    sentence_chrf,
    sentence_ter,
)
from understudy.sacrebleu.dataset import DATASETS
from understudy.sacrebleu.metrics import BLEU, CHRF, TER
from understudy.sacrebleu.utils import (
    SACREBLEU_DIR,
    download_test_set,
    get_available_testsets,
    get_langpairs_for_testset,
    get_reference_files,
    get_source_file,
    smart_open,
)

__version__ = "2.6.0"
"""The sacrebleu version whose API and numbers this package reproduces."""

NOT_PROVIDED = {
    "extract_word_ngrams": "n-grams are counted in understudy's Rust core, not as Python Counters",
    "extract_char_ngrams": "n-grams are counted in understudy's Rust core, not as Python Counters",
}
"""sacrebleu names this package does not provide, with the reason."""


def __getattr__(name: str) -> object:
    if name in NOT_PROVIDED:
        raise AttributeError(f"understudy.sacrebleu does not provide {name}: {NOT_PROVIDED[name]}")
    raise AttributeError(f"module 'understudy.sacrebleu' has no attribute {name!r}")


__all__ = [
    "BLEU",
    "CHRF",
    "DATASETS",
    "SACREBLEU_DIR",
    "TER",
    "__version__",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "download_test_set",
    "get_available_testsets",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "smart_open",
]
