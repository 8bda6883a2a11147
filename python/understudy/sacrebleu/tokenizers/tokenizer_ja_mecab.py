"""``sacrebleu.tokenizers.tokenizer_ja_mecab``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import TokenizerJaMecab

__all__ = ["TokenizerJaMecab"]
