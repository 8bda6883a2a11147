"""understudy: BLEU with sacrebleu-identical numbers, computed by a Rust core.

>>> from understudy import corpus_bleu
>>> round(corpus_bleu(["The cat is on the mat."], [["The cat is on the mat."]]).score, 1)
100.0
"""

from understudy._version import __version__
from understudy.bleu import BLEU, corpus_bleu, sentence_bleu
from understudy.config import BLEUConfig
from understudy.errors import (
    ConfigError,
    EmptyInputError,
    InputError,
    InputFileError,
    LengthMismatchError,
    NoReferenceError,
    SignatureError,
    UnderstudyError,
)
from understudy.result import BLEUResult
from understudy.scoring import score_rows
from understudy.signature import Signature
from understudy.stats import BLEUStats
from understudy.tokenizers import TOKENIZERS, tokenize

__all__ = [
    "BLEU",
    "TOKENIZERS",
    "BLEUConfig",
    "BLEUResult",
    "BLEUStats",
    "ConfigError",
    "EmptyInputError",
    "InputError",
    "InputFileError",
    "LengthMismatchError",
    "NoReferenceError",
    "Signature",
    "SignatureError",
    "UnderstudyError",
    "__version__",
    "corpus_bleu",
    "score_rows",
    "sentence_bleu",
    "tokenize",
]
