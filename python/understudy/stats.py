"""Per-segment BLEU sufficient statistics: a value that can be summed, merged, sliced and scored.

>>> from understudy import BLEU
>>> stats = BLEU().segment_stats(["a b c d", "x y"], [["a b c d", "x z"]])
>>> len(stats), stats.total().tolist()
(2, [6, 6, 5, 3, 2, 1, 6, 4, 2, 1])
>>> round(stats[:1].score().score, 2), round((stats[:1] + stats[1:]).score().score, 4) == \
round(stats.score().score, 4)
(100.0, True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from os import PathLike

import numpy as np
from numpy.typing import NDArray

from understudy.config import BLEUConfig
from understudy.errors import ConfigError
from understudy.result import BLEUResult
from understudy.scoring import ScoreArrays, score_rows
from understudy.signature import Signature


def _frozen(array: NDArray[np.int64]) -> NDArray[np.int64]:
    array = np.ascontiguousarray(array, dtype=np.int64)
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class BLEUStats:
    """Statistics rows ``[hyp_len, ref_len, match_1..N, total_1..N]`` (int64), one per segment.

    ``refs_per_segment`` counts each segment's references, for the signature's ``nrefs``.
    """

    rows: NDArray[np.int64]
    refs_per_segment: NDArray[np.int64]
    config: BLEUConfig

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", _frozen(self.rows))
        object.__setattr__(self, "refs_per_segment", _frozen(self.refs_per_segment))
        width = 2 + 2 * self.config.max_ngram_order
        if self.rows.ndim != 2 or self.rows.shape[1] != width:
            raise ConfigError(f"statistics rows must have shape (n, {width}), got {self.rows.shape}")
        if len(self.refs_per_segment) != len(self.rows):
            raise ConfigError("refs_per_segment must have one entry per row")

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int | slice | Sequence[int] | NDArray[np.integer]) -> BLEUStats:
        """The statistics of a subset of segments (always a :class:`BLEUStats`)."""
        if isinstance(index, int | np.integer):
            index = slice(int(index), int(index) + 1 if index != -1 else None)
        return BLEUStats(self.rows[index], self.refs_per_segment[index], self.config)

    def __add__(self, other: BLEUStats) -> BLEUStats:
        """The statistics of both corpora, ``self``'s segments first."""
        return self.merge(other)

    def merge(self, *others: BLEUStats) -> BLEUStats:
        """Concatenate corpora counted under the same configuration."""
        for other in others:
            if other.config != self.config:
                raise ConfigError(f"cannot merge statistics of {other.config} into {self.config}")
        parts = (self, *others)
        return BLEUStats(
            np.concatenate([p.rows for p in parts]),
            np.concatenate([p.refs_per_segment for p in parts]),
            self.config,
        )

    def total(self) -> NDArray[np.int64]:
        """The corpus row: the column sums (exact, integers)."""
        total: NDArray[np.int64] = self.rows.sum(axis=0, dtype=np.int64)
        return total

    @property
    def nrefs(self) -> int | None:
        """References per segment, or ``None`` when it varies (sacrebleu's ``var``)."""
        distinct = np.unique(self.refs_per_segment)
        return int(distinct[0]) if len(distinct) == 1 else None

    @property
    def signature(self) -> Signature:
        """The signature of scores computed from these statistics."""
        return Signature(nrefs=self.nrefs, config=self.config)

    def score(self) -> BLEUResult:
        """Corpus BLEU of all segments together."""
        return score_total(self.total(), self.nrefs, self.config)

    def sentence_results(self) -> list[BLEUResult]:
        """Sentence BLEU of every segment, as full result records (scored in one vectorised call)."""
        scored = score_rows(self.rows, self.config)
        signatures = {
            n: Signature(nrefs=int(n), config=self.config) for n in np.unique(self.refs_per_segment)
        }
        return [
            self._result(row, scored, i, signatures[n])
            for i, (row, n) in enumerate(zip(self.rows, self.refs_per_segment, strict=True))
        ]

    def sentence_scores(self) -> NDArray[np.float64]:
        """Sentence BLEU of every segment (0-100), vectorised."""
        return score_rows(self.rows, self.config).scores

    def _result(
        self, row: NDArray[np.int64], scored: ScoreArrays, i: int, signature: Signature
    ) -> BLEUResult:
        return _result(row, scored, i, signature, self.config)

    def save(self, path: str | PathLike[str]) -> None:
        """Write to a ``.npz`` file that :meth:`load` reads back exactly."""
        with open(path, "wb") as fh:
            np.savez_compressed(
                fh,
                rows=self.rows,
                refs_per_segment=self.refs_per_segment,
                config=np.array(json.dumps(asdict(self.config))),
            )

    @classmethod
    def load(cls, path: str | PathLike[str]) -> BLEUStats:
        """Read statistics written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            config = BLEUConfig(**json.loads(str(data["config"])))
            return cls(data["rows"], data["refs_per_segment"], config)


def _result(
    row: NDArray[np.int64], scored: ScoreArrays, i: int, signature: Signature, config: BLEUConfig
) -> BLEUResult:
    order = config.max_ngram_order
    return BLEUResult(
        score=float(scored.scores[i]),
        counts=tuple(int(x) for x in row[2 : 2 + order]),
        totals=tuple(int(x) for x in row[2 + order :]),
        precisions=tuple(float(x) for x in scored.precisions[i]),
        bp=float(scored.bp[i]),
        sys_len=int(row[0]),
        ref_len=int(row[1]),
        signature=signature,
    )


def score_total(total: NDArray[np.int64], nrefs: int | None, config: BLEUConfig) -> BLEUResult:
    """Corpus BLEU from the column sums of a corpus's rows (for example summed while streaming).

    ``nrefs`` is the number of references per segment, ``None`` when it varies.

    >>> from understudy.config import BLEUConfig
    >>> score_total(np.array([4, 4, 3, 2, 1, 0, 4, 3, 2, 1]), 1, BLEUConfig()).score  # sacrebleu's
    59.460355750136046
    """
    total = np.asarray(total, dtype=np.int64)
    return _result(
        total, score_rows(total[None, :], config), 0, Signature(nrefs=nrefs, config=config), config
    )
