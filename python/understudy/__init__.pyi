# Written by scripts/face_stub.py from understudy/__init__.py (its errors and _LAZY): edit those.

from understudy._version import __version__ as __version__
from understudy.errors import ConfigError as ConfigError
from understudy.errors import EmptyInputError as EmptyInputError
from understudy.errors import InputError as InputError
from understudy.errors import InputFileError as InputFileError
from understudy.errors import InputTypeError as InputTypeError
from understudy.errors import LengthMismatchError as LengthMismatchError
from understudy.errors import MissingExtraError as MissingExtraError
from understudy.errors import NoReferenceError as NoReferenceError
from understudy.errors import OutputError as OutputError
from understudy.errors import SignatureError as SignatureError
from understudy.errors import UnderstudyError as UnderstudyError
from understudy.judges.metric import ESA as ESA
from understudy.judges.metric import GembaMQM as GembaMQM
from understudy.metrics.bleu import BLEU as BLEU
from understudy.metrics.bleu import BLEUConfig as BLEUConfig
from understudy.metrics.bleu import BLEUResult as BLEUResult
from understudy.metrics.bleu import BLEUStats as BLEUStats
from understudy.metrics.bleu import corpus_bleu as corpus_bleu
from understudy.metrics.bleu import score_rows as score_rows
from understudy.metrics.bleu import sentence_bleu as sentence_bleu
from understudy.metrics.chrf import CHRF as CHRF
from understudy.metrics.chrf import CHRFConfig as CHRFConfig
from understudy.metrics.chrf import CHRFResult as CHRFResult
from understudy.metrics.chrf import CHRFStats as CHRFStats
from understudy.metrics.chrf import corpus_chrf as corpus_chrf
from understudy.metrics.chrf import score_chrf_rows as score_chrf_rows
from understudy.metrics.chrf import sentence_chrf as sentence_chrf
from understudy.metrics.gleu import GLEU as GLEU
from understudy.metrics.gleu import GLEUConfig as GLEUConfig
from understudy.metrics.gleu import GLEUResult as GLEUResult
from understudy.metrics.gleu import GLEUStats as GLEUStats
from understudy.metrics.gleu import corpus_gleu as corpus_gleu
from understudy.metrics.gleu import score_gleu_rows as score_gleu_rows
from understudy.metrics.gleu import sentence_gleu as sentence_gleu
from understudy.metrics.nist import NIST as NIST
from understudy.metrics.nist import NISTConfig as NISTConfig
from understudy.metrics.nist import NISTResult as NISTResult
from understudy.metrics.nist import NISTStats as NISTStats
from understudy.metrics.nist import corpus_nist as corpus_nist
from understudy.metrics.nist import score_nist_rows as score_nist_rows
from understudy.metrics.scores import GivenScores as GivenScores
from understudy.metrics.scores import ScoresConfig as ScoresConfig
from understudy.metrics.scores import ScoresResult as ScoresResult
from understudy.metrics.scores import ScoresStats as ScoresStats
from understudy.metrics.ter import TER as TER
from understudy.metrics.ter import TERConfig as TERConfig
from understudy.metrics.ter import TERResult as TERResult
from understudy.metrics.ter import TERStats as TERStats
from understudy.metrics.ter import corpus_ter as corpus_ter
from understudy.metrics.ter import score_ter_rows as score_ter_rows
from understudy.metrics.ter import sentence_ter as sentence_ter
from understudy.metrics.tokenizers import TOKENIZERS as TOKENIZERS
from understudy.metrics.tokenizers import tokenize as tokenize
from understudy.metrics.wer import CER as CER
from understudy.metrics.wer import WER as WER
from understudy.metrics.wer import WERConfig as WERConfig
from understudy.metrics.wer import WERResult as WERResult
from understudy.metrics.wer import WERStats as WERStats
from understudy.metrics.wer import corpus_cer as corpus_cer
from understudy.metrics.wer import corpus_wer as corpus_wer
from understudy.metrics.wer import score_wer_rows as score_wer_rows
from understudy.metrics.wer import sentence_cer as sentence_cer
from understudy.metrics.wer import sentence_wer as sentence_wer
from understudy.neural import COMET as COMET
from understudy.neural import CometKiwi as CometKiwi
from understudy.neural import MetricX as MetricX
from understudy.neural import XCOMET as XCOMET
from understudy.neural.bertscore import BERTScore as BERTScore
from understudy.neural.bleurt import BLEURT as BLEURT
from understudy.neural.comet_poly import CometPoly as CometPoly
from understudy.neural.pear import Pear as Pear
from understudy.signature import Signature as Signature
from understudy.stats import Stats as Stats
from understudy.stats import Totals as Totals

_LAZY: dict[str, str]

__all__ = [
    "BERTScore",
    "BLEU",
    "BLEUConfig",
    "BLEURT",
    "BLEUResult",
    "BLEUStats",
    "CER",
    "CHRF",
    "CHRFConfig",
    "CHRFResult",
    "CHRFStats",
    "COMET",
    "CometKiwi",
    "CometPoly",
    "ConfigError",
    "ESA",
    "EmptyInputError",
    "GLEU",
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
    "NIST",
    "NISTConfig",
    "NISTResult",
    "NISTStats",
    "NoReferenceError",
    "OutputError",
    "Pear",
    "ScoresConfig",
    "ScoresResult",
    "ScoresStats",
    "Signature",
    "SignatureError",
    "Stats",
    "TER",
    "TERConfig",
    "TERResult",
    "TERStats",
    "TOKENIZERS",
    "Totals",
    "UnderstudyError",
    "WER",
    "WERConfig",
    "WERResult",
    "WERStats",
    "XCOMET",
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
