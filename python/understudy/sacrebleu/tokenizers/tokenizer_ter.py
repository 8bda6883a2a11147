"""``sacrebleu.tokenizers.tokenizer_ter``: see :mod:`understudy.sacrebleu.tokenizers`."""

from understudy.sacrebleu.tokenizers import TercomTokenizer

__all__ = ["TercomTokenizer"]
