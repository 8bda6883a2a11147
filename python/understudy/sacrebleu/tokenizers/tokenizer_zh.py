"""``sacrebleu.tokenizers.tokenizer_zh``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import TokenizerZh

__all__ = ["TokenizerZh"]
