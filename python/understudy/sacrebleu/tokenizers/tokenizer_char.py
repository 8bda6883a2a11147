"""``sacrebleu.tokenizers.tokenizer_char``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import TokenizerChar

__all__ = ["TokenizerChar"]
