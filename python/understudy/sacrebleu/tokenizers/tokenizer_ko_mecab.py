"""``sacrebleu.tokenizers.tokenizer_ko_mecab``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import TokenizerKoMecab

__all__ = ["TokenizerKoMecab"]
