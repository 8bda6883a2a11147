"""understudy: BLEU, chrF and TER with sacrebleu-identical numbers, computed by a Rust core.

>>> from understudy import corpus_bleu
>>> round(corpus_bleu(["The cat is on the mat."], [["The cat is on the mat."]]).score, 1)
100.0
"""

from understudy._version import __version__
from understudy.bleu import BLEU, corpus_bleu, sentence_bleu
from understudy.chrf import CHRF, corpus_chrf, sentence_chrf
from understudy.config import BLEUConfig, CHRFConfig, TERConfig
from understudy.errors import (
    ConfigError,
    EmptyInputError,
    InputError,
    InputFileError,
    InputTypeError,
    LengthMismatchError,
    MissingExtraError,
    NoReferenceError,
    SignatureError,
    UnderstudyError,
)
from understudy.result import BLEUResult, CHRFResult, TERResult
from understudy.scoring import score_chrf_rows, score_rows, score_ter_rows
from understudy.signature import Signature
from understudy.stats import BLEUStats, CHRFStats, Stats, TERStats, Totals
from understudy.ter import TER, corpus_ter, sentence_ter
from understudy.tokenizers import TOKENIZERS, tokenize

__all__ = [
    "BLEU",
    "CHRF",
    "TER",
    "TOKENIZERS",
    "BLEUConfig",
    "BLEUResult",
    "BLEUStats",
    "CHRFConfig",
    "CHRFResult",
    "CHRFStats",
    "ConfigError",
    "EmptyInputError",
    "InputError",
    "InputFileError",
    "InputTypeError",
    "LengthMismatchError",
    "MissingExtraError",
    "NoReferenceError",
    "Signature",
    "SignatureError",
    "Stats",
    "TERConfig",
    "TERResult",
    "TERStats",
    "Totals",
    "UnderstudyError",
    "__version__",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "score_chrf_rows",
    "score_rows",
    "score_ter_rows",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
    "tokenize",
]
