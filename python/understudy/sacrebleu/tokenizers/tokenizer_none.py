"""``sacrebleu.tokenizers.tokenizer_none``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import NoneTokenizer

__all__ = ["NoneTokenizer"]
