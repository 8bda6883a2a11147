"""sacrebleu's one-call functions (``corpus_bleu``, ``raw_corpus_bleu``, ...) returning its score classes.

>>> round(raw_corpus_bleu(["this is a fest"], [["this is a test"]], 0.01).score / 100, 6)
0.223607
>>> corpus_chrf(["a b c"], [["a b c"]], beta=3).name
'chrF3'
"""

from __future__ import annotations

from collections.abc import Sequence

from understudy.inputs.tokens import RefStreams
from understudy.sacrebleu.metrics import BLEU, CHRF, TER
from understudy.sacrebleu.metrics.base import BLEUScore, CHRFScore, TERScore


def corpus_bleu(
    hypotheses: Sequence[str],
    references: RefStreams,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = False,
) -> BLEUScore:
    """Corpus BLEU with sacrebleu's arguments."""
    metric = BLEU(
        lowercase, force, tokenize, smooth_method, smooth_value, effective_order=use_effective_order
    )
    score: BLEUScore = metric.corpus_score(hypotheses, references)
    return score


def raw_corpus_bleu(
    hypotheses: Sequence[str],
    references: RefStreams,
    smooth_value: float | None = BLEU.SMOOTH_DEFAULTS["floor"],
) -> BLEUScore:
    """Corpus BLEU of tokenized text: no tokenization, ``floor`` smoothing, effective order."""
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = BLEU.TOKENIZER_DEFAULT,
    use_effective_order: bool = True,
) -> BLEUScore:
    """Sentence BLEU with sacrebleu's arguments (effective order on)."""
    metric = BLEU(
        lowercase, False, tokenize, smooth_method, smooth_value, effective_order=use_effective_order
    )
    score: BLEUScore = metric.sentence_score(hypothesis, references)
    return score


def corpus_chrf(
    hypotheses: Sequence[str],
    references: RefStreams,
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Corpus chrF (chrF++ with ``word_order=2``) with sacrebleu's arguments."""
    metric = CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    score: CHRFScore = metric.corpus_score(hypotheses, references)
    return score


def sentence_chrf(
    hypothesis: str,
    references: Sequence[str],
    char_order: int = CHRF.CHAR_ORDER,
    word_order: int = CHRF.WORD_ORDER,
    beta: int = CHRF.BETA,
    remove_whitespace: bool = True,
    eps_smoothing: bool = False,
) -> CHRFScore:
    """Sentence chrF with sacrebleu's arguments."""
    metric = CHRF(char_order, word_order, beta, whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    score: CHRFScore = metric.sentence_score(hypothesis, references)
    return score


def corpus_ter(
    hypotheses: Sequence[str],
    references: RefStreams,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Corpus TER with sacrebleu's arguments."""
    score: TERScore = TER(normalized, no_punct, asian_support, case_sensitive).corpus_score(
        hypotheses, references
    )
    return score


def sentence_ter(
    hypothesis: str,
    references: Sequence[str],
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
) -> TERScore:
    """Sentence TER with sacrebleu's arguments."""
    score: TERScore = TER(normalized, no_punct, asian_support, case_sensitive).sentence_score(
        hypothesis, references
    )
    return score


__all__ = [
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "raw_corpus_bleu",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
