"""``sacrebleu.tokenizers.tokenizer_spm``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import (
    Flores101Tokenizer,
    Flores200Tokenizer,
    TokenizerSPM,
    spBLEU1KTokenizer,
)

__all__ = ["Flores101Tokenizer", "Flores200Tokenizer", "TokenizerSPM", "spBLEU1KTokenizer"]
