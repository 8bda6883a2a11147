"""``sacrebleu.tokenizers.tokenizer_base``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import BaseTokenizer

__all__ = ["BaseTokenizer"]
