"""Per-segment sufficient statistics of any metric: values that can be summed, merged, sliced and scored.

Every metric is text to integer statistics rows (the Rust core), then one scoring
function from rows to scores (:mod:`understudy.metrics.arithmetic`). :class:`Stats` is that
protocol: each family's subclass (``BLEUStats``, ``CHRFStats``, ``TERStats`` in
:mod:`understudy.metrics`) only says which scoring function turns rows into scores and
how a row becomes a result record. Significance tests, streaming, the command line and saved files work
through it for every metric. :class:`Totals` is a running sum of rows: what a stream,
a shard or a training loop keeps.

>>> from understudy import BLEU
>>> stats = BLEU().segment_stats(["a b c d", "x y"], [["a b c d", "x z"]])
>>> len(stats), stats.total().tolist()
(2, [6, 6, 5, 3, 2, 1, 6, 4, 2, 1])
>>> round(stats[:1].score().score, 2), (stats[:1] + stats[1:]).score() == stats.score()
(100.0, True)
"""

from __future__ import annotations

import io
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from os import PathLike
from typing import IO, Any, ClassVar, Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from understudy import registry
from understudy._state import checked_int, checked_sum, config_stamp, whole_counts
from understudy.config import MetricConfig, check_parts
from understudy.errors import ConfigError, InputError, InputFileError
from understudy.files.atomic import atomic_write
from understudy.result import Result
from understudy.signature import Signature

C = TypeVar("C", bound=MetricConfig)
R = TypeVar("R", bound=Result)
S = TypeVar("S", bound="Stats[Any, Any]")


def _frozen(array: NDArray[Any], what: str) -> NDArray[np.int64]:
    array = np.asarray(array)
    # Statistics are counts: a float (or an int beyond int64) would be cast and lose information.
    if array.dtype.kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise ConfigError(f"{what} hold counts beyond int64")
    if array.dtype.kind not in "iub" and not (array.size == 0 and array.dtype.kind == "f"):
        raise ConfigError(f"{what} must be integers (counts), got {array.dtype} values")
    array = np.ascontiguousarray(array, dtype=np.int64)
    array.flags.writeable = False
    return array


@dataclass(frozen=True, eq=False)
class Stats(ABC, Generic[C, R]):
    """Statistics rows (int64), one per segment, of one metric under one configuration.

    ``refs_per_segment`` counts each segment's references, for the signature's ``nrefs``.
    """

    rows: NDArray[np.int64]
    refs_per_segment: NDArray[np.int64]
    config: C

    metric: ClassVar[str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "rows", _frozen(self.rows, "statistics rows"))
        object.__setattr__(self, "refs_per_segment", _frozen(self.refs_per_segment, "refs_per_segment"))
        width = self.config.row_width
        if self.rows.ndim != 2 or self.rows.shape[1] != width:
            raise ConfigError(f"statistics rows must have shape (n, {width}), got {self.rows.shape}")
        if len(self.refs_per_segment) != len(self.rows):
            raise ConfigError("refs_per_segment must have one entry per row")

    @abstractmethod
    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        """The score of each row of ``rows`` (for example resampled sums) under this configuration.

        ``float32=True`` reproduces sacrebleu's bootstrap arithmetic, including the type
        of the array it collects (float32 for chrF and TER, float64 for BLEU).
        """

    def scores_of_means(self, rows: NDArray[np.floating[Any]]) -> NDArray[np.floating[Any]]:
        """The score of each row of mean statistics: reference aggregation's averaged n-gram
        counts and lengths (:meth:`understudy.metric.Metric.aggregate`). Only a family whose
        arithmetic takes fractional counts (BLEU, chrF) has it."""
        del rows
        raise ConfigError(f"{self.config.name} has no reference aggregation; use exact MBR")

    def exact_sums(self, rows: NDArray[np.integer]) -> list[int] | None:
        """Each row's score as an exact integer on a common scale, where a score is a rising
        function of one sum and equal segment counts (given scores: their sum, in units of
        2**-64), so that the randomization test compares trials without rounding; ``None``
        where a score is a ratio of sums (BLEU, chrF, TER), compared as the reference tools do."""
        del rows
        return None

    @abstractmethod
    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[R]:
        """Result records of ``rows``, one signature each."""

    @classmethod
    def impossible(cls, total: NDArray[np.int64]) -> str | None:
        """Why no text gives the summed row ``total`` (say, more matches than n-grams), or
        ``None``; a family declares its invariants here, and read-back states are checked."""
        return None

    @property
    def higher_is_better(self) -> bool:
        """False for error rates (TER), whose best system has the lowest score."""
        return self.config.higher_is_better

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self: S, index: int | slice | Sequence[int] | NDArray[np.integer]) -> S:
        """The statistics of a subset of segments (always statistics, never a row)."""
        if isinstance(index, int | np.integer):
            index = slice(int(index), int(index) + 1 if index != -1 else None)
        return type(self)(self.rows[index], self.refs_per_segment[index], self.config)

    def __add__(self: S, other: S) -> S:
        """The statistics of both corpora, ``self``'s segments first."""
        return self.merge(other)

    def merge(self: S, *others: S) -> S:
        """Concatenate corpora counted under the same configuration."""
        for other in others:
            if type(other) is not type(self) or other.config != self.config:
                raise ConfigError(f"cannot merge statistics of {other.config} into {self.config}")
        if others:
            check_parts(self.config, "statistics counted separately")
        parts = (self, *others)
        return type(self)(
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

    def score(self) -> R:
        """The corpus score of all segments together."""
        return self._results(self.total()[None, :], [self.signature])[0]

    sums_as_sacrebleu: ClassVar[bool] = False
    """Whether sacrebleu's corpus score of these rows can differ from :meth:`score` in the last
    bits (it sums floats where understudy sums integers): see :meth:`sacrebleu_score`."""

    def sacrebleu_score(self) -> R:
        """The corpus score as sacrebleu 2.6.0 computes it, to the bit: :meth:`score`, except in
        families that declare :attr:`sums_as_sacrebleu` (TER's float sum of lengths)."""
        return self.score()

    def sentence_scores(self) -> NDArray[np.float64]:
        """The score of every segment, vectorised."""
        return self.scores_of(self.rows).astype(np.float64)

    def for_sentences(self: S) -> S:
        """These statistics scored as ``score -sl`` scores sentences (BLEU with effective order):
        the same rows under :meth:`MetricConfig.for_sentences`, counted alike.

        >>> from understudy import BLEU
        >>> stats = BLEU().segment_stats(["Thank you ."], [["Thank you ."]])
        >>> float(stats.sentence_scores()[0]), round(float(stats.for_sentences().sentence_scores()[0]), 6)
        (0.0, 100.0)
        """
        config = self.config.for_sentences()
        if config.core_config() != self.config.core_config():
            raise ConfigError(f"{config.name} counts sentences otherwise: use its sentence scorer")
        return type(self)(self.rows, self.refs_per_segment, config)

    def sentence_results(self) -> list[R]:
        """The score of every segment as a full result record (scored in one vectorised call)."""
        signatures = {
            n: Signature(nrefs=int(n), config=self.config) for n in np.unique(self.refs_per_segment)
        }
        return self._results(self.rows, [signatures[n] for n in self.refs_per_segment])

    def totals(self) -> Totals:
        """A running total holding these statistics' sum."""
        return Totals.of(self)

    def save(self, path: str | PathLike[str]) -> None:
        """Write to a ``.npz`` file (atomically) that :meth:`load` reads back exactly."""
        with atomic_write(path) as fh:
            self._write(fh)

    def to_bytes(self) -> bytes:
        """The statistics as :meth:`save` writes them, in memory (what a ledger keeps).

        >>> from understudy import BLEU
        >>> stats = BLEU().segment_stats(["a b c"], [["a b d"]])
        >>> Stats.from_bytes(stats.to_bytes()).rows.tolist() == stats.rows.tolist()
        True
        """
        buffer = io.BytesIO()
        self._write(buffer)
        return buffer.getvalue()

    def _write(self, fh: IO[bytes]) -> None:
        config = json.dumps({"metric": self.metric, **asdict(self.config)})
        np.savez_compressed(
            fh, rows=self.rows, refs_per_segment=self.refs_per_segment, config=np.array(config)
        )

    @classmethod
    def load(cls, path: str | PathLike[str]) -> Stats[Any, Any]:
        """Read statistics written by :meth:`save` (of the metric they were saved from)."""
        return cls._read(path, str(path))

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "statistics") -> Stats[Any, Any]:
        """Read statistics :meth:`to_bytes` gave; ``source`` names them in errors."""
        return cls._read(io.BytesIO(data), source)

    @classmethod
    def _read(cls, where: str | PathLike[str] | IO[bytes], source: str) -> Stats[Any, Any]:
        import zipfile  # only here: a command that reads no statistics file does not pay for it

        try:
            with np.load(where, allow_pickle=False) as data:
                fields = json.loads(str(data["config"]))
                rows, refs_per_segment = data["rows"], data["refs_per_segment"]
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as err:
            raise InputFileError(f"{source}: not a statistics file written by understudy ({err})") from err
        metric = fields.pop("metric", "bleu")
        family = registry.find(metric)
        if family is None or (cls is not Stats and family.stats is not cls):
            raise InputFileError(f"{source}: holds {metric} statistics, not {cls.__name__}")
        kind: type[Stats[Any, Any]] = family.stats
        if rows.dtype.kind not in "iu" or (rows < 0).any() or (refs_per_segment < 1).any():
            raise InputFileError(f"{source}: statistics must be whole numbers >= 0")
        return kind(rows, refs_per_segment, family.config(**fields))


def _pairs(config: MetricConfig) -> str:
    return "|".join(f"{k}:{v}" for k, v in [("metric", config.metric), *config.signature_pairs()])


def stats_type(config: MetricConfig) -> type[Stats[Any, Any]]:
    """The statistics class of a configuration's metric."""
    kind: type[Stats[Any, Any]] = registry.family(config.metric).stats
    return kind


@dataclass
class Totals:
    """A running total of statistics rows: what streaming, shards and training loops keep.

    Adding statistics (or another total) sums their rows exactly, in any order; the
    score is the one the concatenated statistics give. :attr:`state` is the whole total
    as one int64 array that sums element-wise (``torch.distributed.all_reduce``, an MPI
    sum, ``np.add``), and :meth:`from_state` reads it back.

    >>> from understudy import CHRF
    >>> chrf = CHRF()
    >>> run = chrf.segment_stats(["a cat"], [["a cat"]]).totals()
    >>> run += chrf.segment_stats(["the dog"], [["a dog"]])
    >>> run.n_segments, run.score() == chrf.corpus_score(["a cat", "the dog"], [["a cat", "a dog"]])
    (2, True)
    >>> Totals.from_state(chrf.config, run.state + run.state).n_segments
    4
    """

    config: MetricConfig
    total: NDArray[np.int64]
    n_segments: int = 0
    ref_sum: int = 0
    """The references of all segments, summed (the signature's ``nrefs`` comes from these two)."""
    ref_square_sum: int = 0
    """The squares of each segment's number of references, summed: all segments have the same
    number exactly when ``n_segments * ref_square_sum == ref_sum ** 2``."""

    STATE_HEADER: ClassVar[int] = 4
    """Leading entries of :attr:`state` before the summed row: segments, references, their
    squares and the configuration's stamp."""

    @classmethod
    def empty(cls, config: MetricConfig) -> Totals:
        """No segments yet."""
        return cls(config, np.zeros(config.row_width, dtype=np.int64))

    @classmethod
    def of(cls, stats: Stats[Any, Any]) -> Totals:
        """The total of ``stats``."""
        refs = stats.refs_per_segment.astype(np.int64)
        return cls(stats.config, stats.total(), len(stats), int(refs.sum()), int((refs * refs).sum()))

    def __add__(self, other: Totals | Stats[Any, Any]) -> Totals:
        """Both totals summed (statistics are totalled first); a sum past int64 is refused."""
        if isinstance(other, Stats):
            other = Totals.of(other)
        if not isinstance(other, Totals):
            raise ConfigError(f"can add statistics or totals to totals, not {type(other).__name__}")
        if other.config != self.config:
            raise ConfigError(f"cannot add totals of {other.config} to {self.config}")
        if self.n_segments and other.n_segments:
            check_parts(self.config, "totals of separate parts")
        return Totals(
            self.config,
            checked_sum(self.total, other.total),
            checked_int(self.n_segments + other.n_segments, "segments"),
            checked_int(self.ref_sum + other.ref_sum, "references"),
            checked_int(self.ref_square_sum + other.ref_square_sum, "references squared"),
        )

    @property
    def nrefs(self) -> int | None:
        """References per segment, or ``None`` when it varies (or nothing was added)."""
        n = self.n_segments
        if n == 0 or n * self.ref_square_sum != self.ref_sum**2:
            return None
        return self.ref_sum // n

    @property
    def state(self) -> NDArray[np.int64]:
        """``[segments, references, their squares, stamp, *summed row]``: sums element-wise. The
        stamp names the metric and its configuration and survives the sum (see ``_state``)."""
        header = [self.n_segments, self.ref_sum, self.ref_square_sum, config_stamp(self.config)]
        return np.concatenate([np.array(header, dtype=np.int64), self.total.astype(np.int64)])

    @classmethod
    def from_state(cls, config: MetricConfig, state: NDArray[Any] | Sequence[int]) -> Totals:
        """The total a (summed) :attr:`state` of ``config``'s metric holds, checked: its shape, its
        stamp, and counts that real text can give."""
        width = cls.STATE_HEADER + config.row_width
        values = whole_counts(state, f"a {config.name} state")
        if len(values) != width:
            raise InputError(
                f"a {config.name} state has {width} entries ({cls.STATE_HEADER} counts and a row of "
                f"{config.row_width}), got {len(values)}"
            )
        n, refs, squares, stamp = values[: cls.STATE_HEADER]
        if stamp == 0 or stamp % config_stamp(config):
            raise InputError(
                f"this state was not made by {config.name} with this configuration"
                f" ({_pairs(config)}): states of other metrics or options do not mix"
            )
        total = np.array(values[cls.STATE_HEADER :], dtype=np.int64)
        if (refs > 0 and n == 0) or squares < refs or (n == 0 and total.any()):
            raise InputError(f"the state's counts do not fit together: {n} segments, {refs} references")
        why = stats_type(config).impossible(total)
        if why:
            raise InputError(f"no text gives this {config.name} state: {why}")
        return cls(config, total, n, refs, squares)

    def score(self) -> Result:
        """The corpus score of every segment added so far."""
        kind = stats_type(self.config)
        stats = kind(self.total[None, :], np.array([self.nrefs or 1]), self.config)
        signature = Signature(nrefs=self.nrefs, config=self.config)
        result: Result = stats._results(stats.rows, [signature])[0]
        return result
