"""The report's corpus analyses and NLTK NIST's ordered overlaps."""

import numpy as np
from numpy.typing import NDArray

__all__ = ["matched_tokens", "ngram_matches", "ordered_overlaps"]

_Rows = NDArray[np.int64]
_Streams = list[list[str | None]]

def ngram_matches(
    hyps: list[str], streams: _Streams, tokenizer: str, lowercase: bool, max_order: int
) -> tuple[list[str], _Rows]: ...
def matched_tokens(
    hyps: list[str], streams: _Streams, tokenizer: str, lowercase: bool, max_order: int
) -> list[tuple[str, bytes]]: ...
def ordered_overlaps(
    hyps: list[str], streams: _Streams, max_order: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], _Rows, NDArray[np.int64]]: ...
