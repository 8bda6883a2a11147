"""understudy: BLEU, chrF and TER with sacrebleu-identical numbers, WER and CER with jiwer's, and any
metric's segment scores through the same tests, computed by a Rust core.

>>> from understudy import corpus_bleu
>>> round(corpus_bleu(["The cat is on the mat."], [["The cat is on the mat."]]).score, 1)
100.0
"""

import importlib
from typing import TYPE_CHECKING, Any

import understudy._memory  # noqa: F401  (first of understudy's: it sets OpenBLAS up before NumPy loads)
from understudy.errors import (
    ConfigError,
    EmptyInputError,
    InputError,
    InputFileError,
    InputTypeError,
    LengthMismatchError,
    MissingExtraError,
    NoReferenceError,
    OutputError,
    SignatureError,
    UnderstudyError,
)

if TYPE_CHECKING:
    from understudy._version import __version__
    from understudy.judges.metric import ESA, GembaMQM
    from understudy.metrics.bleu import (
        BLEU,
        BLEUConfig,
        BLEUResult,
        BLEUStats,
        corpus_bleu,
        score_rows,
        sentence_bleu,
    )
    from understudy.metrics.chrf import (
        CHRF,
        CHRFConfig,
        CHRFResult,
        CHRFStats,
        corpus_chrf,
        score_chrf_rows,
        sentence_chrf,
    )
    from understudy.metrics.gleu import (
        GLEU,
        GLEUConfig,
        GLEUResult,
        GLEUStats,
        corpus_gleu,
        score_gleu_rows,
        sentence_gleu,
    )
    from understudy.metrics.nist import (
        NIST,
        NISTConfig,
        NISTResult,
        NISTStats,
        corpus_nist,
        score_nist_rows,
    )
    from understudy.metrics.scores import GivenScores, ScoresConfig, ScoresResult, ScoresStats
    from understudy.metrics.ter import (
        TER,
        TERConfig,
        TERResult,
        TERStats,
        corpus_ter,
        score_ter_rows,
        sentence_ter,
    )
    from understudy.metrics.wer import (
        CER,
        WER,
        WERConfig,
        WERResult,
        WERStats,
        corpus_cer,
        corpus_wer,
        score_wer_rows,
        sentence_cer,
        sentence_wer,
    )
    from understudy.neural import COMET, XCOMET, CometKiwi, MetricX
    from understudy.signature import Signature
    from understudy.stats import Stats, Totals
    from understudy.tokenizers import TOKENIZERS, tokenize

# Imported on first use (PEP 562): `import understudy` loads no NumPy and no Rust core, so the
# command line starts fast and can say in one line that memory is too short to load them.
_LAZY = {
    "__version__": "understudy._version",
    **dict.fromkeys(
        ["BLEU", "BLEUConfig", "BLEUResult", "BLEUStats", "corpus_bleu", "score_rows", "sentence_bleu"],
        "understudy.metrics.bleu",
    ),
    **dict.fromkeys(
        ["CHRF", "CHRFConfig", "CHRFResult", "CHRFStats", "corpus_chrf", "score_chrf_rows", "sentence_chrf"],
        "understudy.metrics.chrf",
    ),
    **dict.fromkeys(
        ["GLEU", "GLEUConfig", "GLEUResult", "GLEUStats", "corpus_gleu", "score_gleu_rows", "sentence_gleu"],
        "understudy.metrics.gleu",
    ),
    **dict.fromkeys(
        ["NIST", "NISTConfig", "NISTResult", "NISTStats", "corpus_nist", "score_nist_rows"],
        "understudy.metrics.nist",
    ),
    **dict.fromkeys(
        ["GivenScores", "ScoresConfig", "ScoresResult", "ScoresStats"], "understudy.metrics.scores"
    ),
    **dict.fromkeys(
        ["TER", "TERConfig", "TERResult", "TERStats", "corpus_ter", "score_ter_rows", "sentence_ter"],
        "understudy.metrics.ter",
    ),
    **dict.fromkeys(
        [
            "CER",
            "WER",
            "WERConfig",
            "WERResult",
            "WERStats",
            "corpus_cer",
            "corpus_wer",
            "score_wer_rows",
            "sentence_cer",
            "sentence_wer",
        ],
        "understudy.metrics.wer",
    ),
    **dict.fromkeys(["COMET", "CometKiwi", "MetricX", "XCOMET"], "understudy.neural"),
    **dict.fromkeys(["ESA", "GembaMQM"], "understudy.judges.metric"),
    "Signature": "understudy.signature",
    "Stats": "understudy.stats",
    "Totals": "understudy.stats",
    "TOKENIZERS": "understudy.tokenizers",
    "tokenize": "understudy.tokenizers",
}


def __getattr__(name: str) -> Any:
    """The package's names, each imported from its module on first use and kept."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'understudy' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "BLEU",
    "CER",
    "CHRF",
    "COMET",
    "ESA",
    "GLEU",
    "NIST",
    "TER",
    "TOKENIZERS",
    "WER",
    "XCOMET",
    "BLEUConfig",
    "BLEUResult",
    "BLEUStats",
    "CHRFConfig",
    "CHRFResult",
    "CHRFStats",
    "CometKiwi",
    "ConfigError",
    "EmptyInputError",
    "GLEUConfig",
    "GLEUResult",
    "GLEUStats",
    "GembaMQM",
    "GivenScores",
    "InputError",
    "InputFileError",
    "InputTypeError",
    "LengthMismatchError",
    "MetricX",
    "MissingExtraError",
    "NISTConfig",
    "NISTResult",
    "NISTStats",
    "NoReferenceError",
    "OutputError",
    "ScoresConfig",
    "ScoresResult",
    "ScoresStats",
    "Signature",
    "SignatureError",
    "Stats",
    "TERConfig",
    "TERResult",
    "TERStats",
    "Totals",
    "UnderstudyError",
    "WERConfig",
    "WERResult",
    "WERStats",
    "__version__",
    "corpus_bleu",
    "corpus_cer",
    "corpus_chrf",
    "corpus_gleu",
    "corpus_nist",
    "corpus_ter",
    "corpus_wer",
    "score_chrf_rows",
    "score_gleu_rows",
    "score_nist_rows",
    "score_rows",
    "score_ter_rows",
    "score_wer_rows",
    "sentence_bleu",
    "sentence_cer",
    "sentence_chrf",
    "sentence_gleu",
    "sentence_ter",
    "sentence_wer",
    "tokenize",
]
