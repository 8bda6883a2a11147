"""``sacrebleu.tokenizers.tokenizer_intl``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import TokenizerV14International

__all__ = ["TokenizerV14International"]
