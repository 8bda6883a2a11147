"""understudy: BLEU, chrF and TER with sacrebleu-identical numbers, WER and CER with jiwer's, and any
metric's segment scores through the same tests, computed by a Rust core.

>>> from understudy import corpus_bleu
>>> round(corpus_bleu(["The cat is on the mat."], [["The cat is on the mat."]]).score, 1)
100.0
"""

import importlib
from typing import Any

import understudy._memory  # noqa: F401  (first of understudy's: it sets OpenBLAS up before NumPy loads)
from understudy.errors import (  # noqa: F401  (the face's: in __all__ below)
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
    "BERTScore": "understudy.neural.bertscore",
    "BLEURT": "understudy.neural.bleurt",
    "CometPoly": "understudy.neural.comet_poly",
    "Pear": "understudy.neural.pear",
    **dict.fromkeys(["ESA", "GembaMQM"], "understudy.judges.metric"),
    "Signature": "understudy.signature",
    "Stats": "understudy.stats",
    "Totals": "understudy.stats",
    "TOKENIZERS": "understudy.metrics.tokenizers",
    "tokenize": "understudy.metrics.tokenizers",
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


# Every public name once: the errors above, imported, and the table. Type checkers read the stub
# beside this file (__init__.pyi), written from both by scripts/face_stub.py.
__all__ = sorted(
    {
        name
        for name, value in globals().items()
        if isinstance(value, type) and issubclass(value, UnderstudyError)
    }
    | set(_LAZY)
)
