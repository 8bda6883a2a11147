"""Typing for the Rust extension module ``understudy._core``."""

from typing import Any, TypeVar, final

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "VERSION",
    "Pairs",
    "Scorer",
    "SpaMixtures",
    "exp",
    "family_constants",
    "family_names",
    "flat_ids",
    "given_rows",
    "id_lines",
    "ln",
    "matched_tokens",
    "mt_halves",
    "ngram_matches",
    "normalize",
    "ordered_overlaps",
    "pool_threads",
    "swapped_sums",
    "tie_search",
    "tokenize",
    "tokenizer_names",
    "unicode_forms",
    "wer_alignments",
]

_Text = TypeVar("_Text", str, str | None)

VERSION: str
"""The package's version (the workspace's Cargo.toml)."""

_Rows = NDArray[np.int64]
_Streams = list[list[str | None]]

@final
class Pairs:
    """A family's statistics of every hypothesis against every reference."""

    def rows(self, start: int, stop: int) -> _Rows: ...
    @property
    def n_hyps(self) -> int: ...
    @property
    def n_refs(self) -> int: ...

@final
class SpaMixtures:
    """Two metrics' scores and a paired test's permutations, for SPA's counts of many mixtures."""

    def __new__(
        cls, worse: NDArray[np.float64], better: NDArray[np.float64], swapped: NDArray[np.bool_]
    ) -> SpaMixtures: ...
    def counts(self, coins: NDArray[np.bool_], threads: int) -> NDArray[np.int64]: ...

@final
class Scorer:
    """A metric family's configuration (given by name), compiled once, with references cached inside."""

    def __new__(cls, family: str, config: dict[str, Any], threads: int = 1) -> Scorer: ...
    @property
    def family(self) -> str: ...
    @property
    def row_width(self) -> int: ...
    def add_references(self, streams: _Streams) -> None: ...
    def refs_per_segment(self) -> _Rows: ...
    def stats_many(self, systems: list[list[str]]) -> _Rows: ...
    def sentence_stats(self, hyps: list[str], streams: _Streams) -> tuple[_Rows, _Rows]: ...
    def sentence_stats_ids(
        self,
        hyp_ids: NDArray[np.int64],
        hyp_bounds: NDArray[np.int64],
        streams: list[tuple[NDArray[np.int64], NDArray[np.int64]]],
    ) -> tuple[_Rows, NDArray[np.int64]]: ...
    def pairwise(self, hyps: list[str], refs: list[str]) -> Pairs: ...
    def tokenize(self, lines: list[str]) -> list[str]: ...
    def __len__(self) -> int: ...

def family_names() -> list[str]: ...
def family_constants(name: str) -> dict[str, int]: ...
def tokenize(lines: list[str], tokenizer: str, lowercase: bool = False) -> list[str]: ...
def tokenizer_names() -> list[str]: ...
def normalize(lines: list[_Text], form: str) -> list[_Text]: ...
def unicode_forms() -> tuple[list[str], str]: ...
def flat_ids(segments: list[Any]) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None: ...
def id_lines(ids: NDArray[np.int64], bounds: NDArray[np.int64], threads: int = 1) -> list[str]: ...
def wer_alignments(
    config: dict[str, Any], hyps: list[str], streams: list[list[str | None]]
) -> list[tuple[int, list[str], list[str], list[tuple[str, int, int, int, int]]]]: ...
def given_rows(
    scores: NDArray[np.float64],
) -> tuple[NDArray[np.int64], None] | tuple[None, int]: ...
def ln(values: NDArray[np.float64]) -> NDArray[np.float64]: ...
def exp(values: NDArray[np.float64]) -> NDArray[np.float64]: ...
def pool_threads(threads: int) -> int: ...
def ngram_matches(
    hyps: list[str], streams: _Streams, tokenizer: str, lowercase: bool, max_order: int
) -> tuple[list[str], _Rows]: ...
def matched_tokens(
    hyps: list[str], streams: _Streams, tokenizer: str, lowercase: bool, max_order: int
) -> list[tuple[str, bytes]]: ...
def ordered_overlaps(
    hyps: list[str], streams: _Streams, max_order: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], _Rows, NDArray[np.int64]]: ...
def swapped_sums(
    coins: NDArray[np.bool_], vectors: NDArray[np.float64], bounds: NDArray[np.int64], threads: int = 1
) -> NDArray[np.float64]: ...
def tie_search(
    human: NDArray[np.float64], metric: NDArray[np.float64]
) -> tuple[float, float, int] | None: ...
def mt_halves(
    key: NDArray[np.uint32], pos: int, n: int
) -> tuple[NDArray[np.bool_], NDArray[np.uint32], int]: ...
