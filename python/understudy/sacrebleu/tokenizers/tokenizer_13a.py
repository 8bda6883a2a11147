"""``sacrebleu.tokenizers.tokenizer_13a``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import Tokenizer13a

__all__ = ["Tokenizer13a"]
