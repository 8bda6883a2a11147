"""Token input: segments given as lists of tokens, scored exactly as if each distinct token were a word.

NLTK and torchmetrics users hold tokens, not text: lists of strings, or token ids (lists of
integers, NumPy arrays). Joining them with spaces is not exact (a token holding a space
splits, an empty token vanishes), so each token is written as a *word* instead: a run of
ASCII digits and lowercase letters that no word tokenizer of the core changes, equal to
another token's word exactly when the tokens are equal. An integer is its decimal digits
(``n`` first when negative: ``-5`` is ``n5``); a string is ``s`` and its UTF-8 bytes in hex,
so ``"1"`` and ``1`` stay different tokens, as they are in Python. The metric then scores
those lines with no tokenizer (:meth:`~understudy.config.MetricConfig.for_tokens`), and its
result's signature says so.

Before a string token is written, the configuration's Unicode normalisation and case
folding apply to it, as they apply to text (to each token on its own).

>>> TokenWriter().lines([[1, -5, 1], ["a b", ""]], "hyps")
['1 n5 1', 's612062 s']
>>> is_tokens([[1, 2]]), is_tokens(["a b"])
(True, False)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.errors import InputTypeError

TokenSegment = Sequence[str | int] | NDArray[np.integer[Any]]
"""One segment given as tokens: strings, integers (token ids), or a 1-D integer array."""
Hyps = Sequence[str] | Sequence[TokenSegment] | NDArray[np.integer[Any]]
"""Hypotheses: text (a string each), or tokens (a token list each, or a 2-D array of ids)."""
RefStreams = Sequence[Sequence[str | None]]
"""Reference streams of text (``refs[k][i]``: the k-th reference of segment i; ``None``: none)."""
Refs = Sequence[Sequence[str | None]] | Sequence[Sequence[TokenSegment | None]] | NDArray[np.integer[Any]]
"""Reference streams (``refs[k][i]``: the k-th reference of segment i), as text or as tokens."""

_I64_MAX = np.iinfo(np.int64).max
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _is_tensor(value: Any) -> bool:
    # torch is never imported here: a tensor is told by its type's module.
    return type(value).__module__.partition(".")[0] == "torch" and hasattr(value, "numpy")


def _tensor_array(tensor: Any) -> NDArray[Any]:
    """A CPU tensor's values as a NumPy array (shared, not copied)."""
    if getattr(tensor.device, "type", "cpu") != "cpu":
        raise InputTypeError(f"token ids on {tensor.device}: move them to the CPU first (tensor.cpu())")
    try:
        array: NDArray[Any] = tensor.detach().numpy()
    except (TypeError, RuntimeError) as err:
        raise InputTypeError(f"a tensor of {tensor.dtype} cannot be read as token ids ({err})") from None
    return array


def untensored(value: Any) -> Any:
    """``value`` with torch tensors as NumPy arrays: a tensor itself, or the tensors of a list or
    tuple whose first segment is one (hypotheses, a reference stream, reference streams). CPU
    tensors of any integer type are token ids, as arrays and lists are.

    >>> untensored([[1, 2]]), untensored("a b")
    ([[1, 2]], 'a b')
    """
    if _is_tensor(value):
        return _tensor_array(value)
    if type(value) in (list, tuple) and value:
        first = next((v for v in value if v is not None), None)
        if _is_tensor(first):
            return [_tensor_array(v) if _is_tensor(v) else v for v in value]
        if type(first) in (list, tuple) and first and _is_tensor(first[0]):
            return [untensored(v) for v in value]
    return value


def is_tokens(segments: Any) -> bool:
    """Whether ``segments`` (hypotheses, or one reference stream) are given as tokens: a 2-D
    integer array, or a sequence whose first segment (``None`` skipped) is a sequence of
    tokens rather than a string.

    >>> is_tokens(np.zeros((2, 3), dtype=np.int32)), is_tokens([None, (7,)]), is_tokens([])
    (True, True, False)
    """
    segments = untensored(segments)
    if isinstance(segments, np.ndarray):
        # A 1-D array of ids is one segment where a batch was wanted: refused as tokens.
        return segments.ndim >= 2 or segments.dtype.kind in "iu"
    if isinstance(segments, str | bytes) or not isinstance(segments, Sequence):
        return False
    first = next((s for s in segments if s is not None), None)
    return is_segment(first)


def is_segment(value: Any) -> bool:
    """Whether ``value`` is one segment's tokens (a sequence other than a string, or an array).

    >>> is_segment([1]), is_segment('a')
    (True, False)
    """
    if _is_tensor(value):
        return True
    kind = type(value)
    if kind is list or kind is tuple or kind is np.ndarray:  # the common kinds, without the ABC check
        return True
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def refs_are_tokens(refs: Any) -> bool:
    """Whether reference streams (``refs[k][i]``) hold tokens: their first stream does.

    >>> refs_are_tokens([[[1, 2]]]), refs_are_tokens([["a b"]])
    (True, False)
    """
    refs = untensored(refs)
    if isinstance(refs, np.ndarray):
        return refs.ndim == 3
    if isinstance(refs, str | bytes) or not isinstance(refs, Sequence) or not refs:
        return False
    return is_tokens(refs[0])


def _int_word(token: int) -> str:
    # The core's token_ids::write_id, for integers outside int64 (and lists Python walks).
    return str(token) if token >= 0 else f"n{-token}"


def _flat_ids(segments: Sequence[Any], arrays: bool) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """All segments' integer tokens as one int64 array and the segments' bounds in it, when
    every token is an integer within int64 (else ``None``: the segments are walked one by one);
    ``arrays`` says that every segment is a NumPy array."""
    first = next((s[0] for s in segments if len(s)), None)
    if isinstance(first, str):
        return None  # string tokens: no array to build
    # map() rather than a generator: this runs once a segment of every reward batch.
    lengths = np.array(list(map(len, segments)), dtype=np.int64)
    if arrays:
        flat = np.concatenate(segments) if segments else np.zeros(0, dtype=np.int64)
    else:
        try:
            flat = np.array(list(itertools.chain.from_iterable(segments)))
        except (ValueError, TypeError):  # nested, ragged tokens: walked one by one, and refused
            return None
    if flat.size == 0:
        flat = np.zeros(0, dtype=np.int64)
    if flat.ndim != 1 or flat.dtype.kind not in "iu":
        return None
    if flat.dtype.kind == "u" and flat.size and int(flat.max()) > _I64_MAX:
        return None
    bounds = np.zeros(len(segments) + 1, dtype=np.int64)
    np.cumsum(lengths, out=bounds[1:])
    return flat.astype(np.int64, copy=False), bounds


def id_batch(segments: Any) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """``segments`` as one int64 array of ids and the segments' bounds in it, when every segment
    is integers (a 2-D array, arrays, or lists of ints); else ``None``.

    >>> ids, bounds = id_batch([[7, 8], [], [9]])
    >>> ids.tolist(), bounds.tolist()
    ([7, 8, 9], [0, 2, 2, 3])
    """
    segments = untensored(segments)
    if isinstance(segments, np.ndarray):
        if (
            segments.ndim != 2
            or segments.dtype.kind not in "iu"
            or (segments.dtype.kind == "u" and segments.size and int(segments.max()) > _I64_MAX)
        ):
            return None
        n, width = segments.shape
        return segments.astype(np.int64).ravel(), np.arange(n + 1, dtype=np.int64) * width
    if not isinstance(segments, Sequence) or isinstance(segments, str | bytes):
        return None
    if isinstance(segments, list):
        # The reward batch's case (int64 or int32 arrays, lists of ints), laid out by the core.
        fast = _core.text.flat_ids(segments)
        if fast is not None:
            return fast
    # Every segment an array, or every one a list or tuple (no None, no string).
    kinds = set(map(type, segments))
    if kinds <= {np.ndarray}:
        return _flat_ids(segments, arrays=True)
    return _flat_ids(segments, arrays=False) if kinds <= {list, tuple} else None


@dataclass(frozen=True)
class TokenWriter:
    """Writes token segments as lines of words, after the configuration's Unicode
    normalisation (``normalize``: ``none``, ``nfc``, ``nfkc``) and case folding (``fold``:
    ``None``, ``unicode`` as Python's ``str.lower``, ``ascii``) of string tokens.

    >>> TokenWriter(fold="unicode").lines([["A", "a"]], "hyps")
    ['s61 s61']
    """

    normalize: str = "none"
    fold: str | None = None

    def lines(self, segments: Any, what: str, allow_none: bool = False) -> list[Any]:
        """Each segment of ``segments`` as a line (``None``, a missing reference, kept where
        ``allow_none``); ``what`` names them in errors (``hyps``, ``reference stream 2``)."""
        segments = untensored(segments)
        if isinstance(segments, np.ndarray):
            if segments.ndim != 2:
                raise InputTypeError(f"{what}: an array of token ids must be 2-D (segments x tokens)")
            segments = list(segments)
        elif isinstance(segments, str | bytes) or not isinstance(segments, Sequence):
            raise InputTypeError(f"{what} must be a list of segments, not a {type(segments).__name__}")
        flat = id_batch(segments)
        if flat is not None:  # the common case, token ids in lists or arrays: one call into the core
            return _core.text.id_lines(*flat)
        present = [i for i, s in enumerate(segments) if s is not None] if allow_none else range(len(segments))
        for i in present:
            if not is_segment(segments[i]):
                kind = "a string" if isinstance(segments[i], str) else f"a {type(segments[i]).__name__}"
                raise InputTypeError(
                    f"{what}[{i}] is {kind} but the segments are given as tokens: give every "
                    "segment as a list of tokens, or every one as a string"
                )
        out: list[Any] = [None] * len(segments)
        for i in present:
            out[i] = self._line(segments[i], what, i)
        return out

    def _line(self, segment: Any, what: str, i: int) -> str:
        segment = untensored(segment)
        if isinstance(segment, np.ndarray):
            if segment.ndim != 1 or segment.dtype.kind not in "iu":
                raise InputTypeError(f"{what}[{i}] is an array of {segment.dtype}; token ids are integers")
            segment = segment.tolist()
        if all(type(t) is str for t in segment):  # the common case, in one pass
            return " ".join(
                ["s" + t.encode("utf-8", "surrogatepass").hex() for t in self._prepare(list(segment))]
            )
        strings = [t for t in segment if isinstance(t, str)]
        prepared = iter(self._prepare(strings))
        words = []
        for j, token in enumerate(segment):
            if isinstance(token, str):
                words.append("s" + next(prepared).encode("utf-8", "surrogatepass").hex())
            elif isinstance(token, int | np.integer):
                words.append(_int_word(int(token)))
            else:
                raise InputTypeError(
                    f"{what}[{i}][{j}] is a {type(token).__name__}; tokens are strings or integers"
                )
        return " ".join(words)

    def _prepare(self, tokens: list[str]) -> list[str]:
        if self.normalize != "none":
            tokens = _core.text.normalize(tokens, self.normalize)
        if self.fold == "unicode":
            return [t.lower() for t in tokens]
        if self.fold == "ascii":
            return [t.translate(_ASCII_LOWER) for t in tokens]
        return tokens

    def streams(self, refs: Any) -> list[list[str | None]]:
        """Reference streams of tokens (``refs[k][i]``, ``None``: no k-th reference) as lines."""
        refs = untensored(refs)
        if isinstance(refs, np.ndarray) and refs.ndim == 3:
            refs = list(refs)
        if isinstance(refs, str | bytes) or not isinstance(refs, Sequence):
            raise InputTypeError("refs must be a list of reference streams, each a list of segments")
        return [
            self.lines(stream, f"reference stream {k + 1}", allow_none=True) for k, stream in enumerate(refs)
        ]


__all__ = [
    "Hyps",
    "Refs",
    "TokenSegment",
    "TokenWriter",
    "id_batch",
    "is_segment",
    "is_tokens",
    "refs_are_tokens",
    "untensored",
]
