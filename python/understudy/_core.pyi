"""Typing for the Rust extension module ``understudy._core``."""

import numpy as np
from numpy.typing import NDArray

class RefCache:
    """Reference streams tokenized and counted once."""

    def __init__(
        self,
        streams: list[list[str | None]],
        tokenizer: str,
        lowercase: bool,
        max_order: int,
        threads: int = 1,
    ) -> None: ...
    def stats(self, hyps: list[str]) -> NDArray[np.int64]: ...
    def stats_many(self, systems: list[list[str]]) -> NDArray[np.int64]: ...
    def refs_per_segment(self) -> NDArray[np.int64]: ...
    def __len__(self) -> int: ...

def sentence_stats(
    hyps: list[str],
    streams: list[list[str | None]],
    tokenizer: str,
    lowercase: bool,
    max_order: int,
    threads: int = 1,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]: ...

class Pairwise:
    """Every hypothesis against every reference, each sentence counted once."""

    def __init__(
        self,
        hyps: list[str],
        refs: list[str],
        tokenizer: str,
        lowercase: bool,
        max_order: int,
        threads: int = 1,
    ) -> None: ...
    def rows(self, start: int, stop: int) -> NDArray[np.int64]: ...
    @property
    def n_hyps(self) -> int: ...
    @property
    def n_refs(self) -> int: ...
    @property
    def max_order(self) -> int: ...

def tokenize(lines: list[str], tokenizer: str, lowercase: bool = False) -> list[str]: ...
def tokenizer_names() -> list[str]: ...
def ln(values: NDArray[np.float64]) -> NDArray[np.float64]: ...
def exp(values: NDArray[np.float64]) -> NDArray[np.float64]: ...
def pool_threads(threads: int) -> int: ...
