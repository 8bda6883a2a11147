"""Exact scoring on Dask: statistics computed where the text is, sums travelling back.

Each partition's segments are scored by the Rust core on a worker (single-threaded by
default: the cluster is the parallelism) into integer statistics rows; only their
sums (one short int64 array per partition, see :attr:`understudy.stats.Totals.state`)
travel back and are added. Integer sums are exact in any order, so the score is the
single-machine score bit for bit, whatever the partitioning. The metric travels as
its configuration; nothing is sent per segment.

Inputs: a ``dask.bag`` of records ``(hypothesis, references)`` (references: one
string, or a sequence of strings with ``None`` for "no reference"), a
``dask.dataframe`` with a hypothesis column and reference columns, or sharded text
files (a glob of hypothesis files and, per reference, a glob of matching files).

Needs the ``dask`` extra (``pip install 'understudy-mt[dask]'``: dask and distributed).

>>> import dask.bag as db
>>> from understudy import BLEU
>>> records = db.from_sequence([("a b c d", ["a b c d"]), ("e f g", ["e f x"])], npartitions=2)
>>> single = BLEU().corpus_score(["a b c d", "e f g"], [["a b c d", "e f x"]])
>>> corpus_score(BLEU(), records, scheduler="sync").score == single.score  # any scheduler: here, this process
True
"""

from __future__ import annotations

import glob
import importlib
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from understudy.config import MetricConfig, check_parts
from understudy.errors import EmptyInputError, InputError, LengthMismatchError, import_extra
from understudy.inputs.files import read_lines
from understudy.metric import Metric
from understudy.metrics import metric_for
from understudy.result import Result
from understudy.stats import Stats, Totals, stats_type

if TYPE_CHECKING:
    from understudy.computed.metric import References
    from understudy.metrics.scores import GivenScores
    from understudy.neural.base import NeuralMetric
from understudy.wording import counted

WORKER_THREADS = 1
"""Cores the Rust core uses inside one Dask task: the cluster provides the parallelism."""

Record = tuple[str, "str | Sequence[str | None]"]
"""One segment: its hypothesis and its reference (or references)."""


def _dask() -> Any:
    return import_extra(
        "dask", "understudy.execution.dask needs the 'dask' extra: pip install 'understudy-mt[dask]'"
    )


def _streams(references: list[Sequence[str | None]]) -> list[list[str | None]]:
    """Per-segment references as sacrebleu's streams, ``None`` where a segment has fewer."""
    width = max((len(r) for r in references), default=1)
    return [[r[k] if k < len(r) else None for r in references] for k in range(width)]


def _split(records: Iterable[Any], where: str) -> tuple[list[str], list[list[str | None]]]:
    hyps: list[str] = []
    references: list[Sequence[str | None]] = []
    for record in records:
        if not isinstance(record, tuple | list) or len(record) != 2:
            raise InputError(f"{where}: a record is (hypothesis, references), got {record!r:.80}")
        hyp, refs = record
        hyps.append(hyp)
        references.append([refs] if isinstance(refs, str) or refs is None else list(refs))
    return hyps, _streams(references)


def _frame_records(frame: Any, hyp: str, refs: Sequence[str]) -> list[tuple[str, list[str | None]]]:
    # pandas holds a missing reference as None, NaN or NA, whichever the column's type uses.
    columns = [
        [
            None if missing else value
            for value, missing in zip(frame[r].tolist(), frame[r].isna().tolist(), strict=True)
        ]
        for r in refs
    ]
    return [(h, list(rs)) for h, *rs in zip(frame[hyp].tolist(), *columns, strict=True)]


def _partition_stats(
    part: Any, config: MetricConfig, columns: tuple[str, tuple[str, ...]] | None
) -> Stats[Any, Any]:
    records = _frame_records(part, *columns) if columns is not None else list(part)
    hyps, streams = _split(records, "a partition")
    kind = stats_type(config)
    if not hyps:
        return kind(np.zeros((0, config.row_width), dtype=np.int64), np.zeros(0, dtype=np.int64), config)
    stats: Stats[Any, Any] = metric_for(config, threads=WORKER_THREADS).segment_stats(hyps, streams)
    return stats


def _partition_state(
    part: Any, config: MetricConfig, columns: tuple[str, tuple[str, ...]] | None
) -> NDArray[np.int64]:
    stats = _partition_stats(part, config, columns)
    return Totals.of(stats).state if len(stats) else Totals.empty(config).state


def _sum(states: Sequence[NDArray[np.int64]]) -> NDArray[np.int64]:
    total: NDArray[np.int64] = np.sum(states, axis=0, dtype=np.int64)
    return total


def _parts(data: Any, hyp: str, refs: Sequence[str]) -> tuple[list[Any], tuple[str, tuple[str, ...]] | None]:
    """The delayed partitions of a bag or a dataframe, and the dataframe's columns."""
    _dask()
    if hasattr(data, "columns"):
        missing = [c for c in (hyp, *refs) if c not in data.columns]
        if missing:
            raise InputError(
                f"the dataframe has no column {missing[0]!r}; it has {', '.join(map(str, data.columns))}"
            )
        return list(data.to_delayed()), (hyp, tuple(refs))
    if hasattr(data, "to_delayed"):
        return list(data.to_delayed()), None
    kind = type(data).__name__
    raise InputError(
        f"expected a dask.bag of (hypothesis, references) records or a dask.dataframe, got {kind}"
    )


def _totals(metric: Metric[Any, Any], parts: list[Any], columns: Any, compute: dict[str, Any]) -> Totals:
    dask = _dask()
    states = [dask.delayed(_partition_state)(part, metric.config, columns) for part in parts]
    (state,) = dask.compute(dask.delayed(_sum)(states), **compute)
    totals = Totals.from_state(metric.config, state)
    if totals.n_segments == 0:
        raise EmptyInputError("no segments to score (every partition is empty)")
    return totals


def corpus_score(
    metric: Metric[Any, Any], data: Any, hyp: str = "hyp", refs: Sequence[str] = ("ref",), **compute: Any
) -> Result:
    """The corpus score of a bag of records or of a dataframe's columns, computed on the cluster.

    ``hyp`` and ``refs`` name the dataframe's columns (a missing reference is ``None``
    or NaN). ``compute`` goes to ``dask.compute`` (``scheduler=``, for one).
    """
    check_parts(metric.config, "Dask partitions")
    parts, columns = _parts(data, hyp, refs)
    return _totals(metric, parts, columns, compute).score()


def segment_stats(
    metric: Metric[Any, Any], data: Any, hyp: str = "hyp", refs: Sequence[str] = ("ref",), **compute: Any
) -> Stats[Any, Any]:
    """Every segment's statistics, gathered in input order: what significance tests take.

    Only the statistics travel (a short row per segment), not the text.
    """
    check_parts(metric.config, "Dask partitions")
    dask = _dask()
    parts, columns = _parts(data, hyp, refs)
    gathered = dask.compute(
        *[dask.delayed(_partition_stats)(p, metric.config, columns) for p in parts], **compute
    )
    kept = [s for s in gathered if len(s)]
    if not kept:
        raise EmptyInputError("no segments to score (every partition is empty)")
    merged: Stats[Any, Any] = kept[0].merge(*kept[1:])
    return merged


def _sentence_scores(part: Any, config: MetricConfig, columns: Any) -> Any:
    stats = _partition_stats(part, config, columns)
    scores = stats.sentence_scores() if len(stats) else np.zeros(0)
    if columns is None:
        return scores.tolist()
    pandas: Any = importlib.import_module("pandas")
    return pandas.Series(scores, index=part.index, name=f"{config.name}")


def sentence_scores(
    metric: Metric[Any, Any], data: Any, hyp: str = "hyp", refs: Sequence[str] = ("ref",)
) -> Any:
    """Every segment's sentence score, lazily, partitioned as the input is.

    A bag gives a bag of floats; a dataframe gives a series on its index.
    """
    check_parts(metric.config, "Dask partitions")
    _dask()
    if hasattr(data, "columns"):
        parts, columns = _parts(data, hyp, refs)
        del parts
        return data.map_partitions(_sentence_scores, metric.config, columns, meta=(metric.config.name, "f8"))
    return data.map_partitions(_sentence_scores, metric.config, None)


def _file_state(hyp_path: str, ref_paths: Sequence[str], config: MetricConfig) -> NDArray[np.int64]:
    hyps = [line.rstrip() for line in read_lines(hyp_path, allow_empty=True)]
    streams: list[list[str | None]] = []
    for path in ref_paths:
        lines = [line.rstrip() for line in read_lines(path, allow_empty=True)]
        if len(lines) != len(hyps):
            raise LengthMismatchError(
                f"{hyp_path} has {counted(len(hyps), 'line')} but {path} has {len(lines)}"
            )
        streams.append(list(lines))
    if not hyps:
        return Totals.empty(config).state
    stats = metric_for(config, threads=WORKER_THREADS).segment_stats(hyps, streams)
    return Totals.of(stats).state


def shards(hyp_pattern: str, ref_patterns: Sequence[str]) -> list[tuple[str, list[str]]]:
    """The matching shard files: each hypothesis file (sorted) with the reference files in the
    same position of each reference pattern's sorted matches."""
    hyps = sorted(glob.glob(hyp_pattern))
    if not hyps:
        raise InputError(f"no file matches {hyp_pattern!r}")
    refs = [sorted(glob.glob(p)) for p in ref_patterns]
    for pattern, files in zip(ref_patterns, refs, strict=True):
        if len(files) != len(hyps):
            raise LengthMismatchError(
                f"{hyp_pattern!r} matches {len(hyps)} files but {pattern!r} matches {len(files)}"
            )
    return [(h, [files[k] for files in refs]) for k, h in enumerate(hyps)]


def corpus_score_files(
    metric: Metric[Any, Any], hyp_pattern: str, ref_patterns: Sequence[str], **compute: Any
) -> Result:
    """The corpus score of sharded text files: each shard read and scored on a worker."""
    check_parts(metric.config, "Dask partitions")
    dask = _dask()
    states = [dask.delayed(_file_state)(h, r, metric.config) for h, r in shards(hyp_pattern, ref_patterns)]
    (state,) = dask.compute(dask.delayed(_sum)(states), **compute)
    totals = Totals.from_state(metric.config, state)
    if totals.n_segments == 0:
        raise EmptyInputError(f"the files of {hyp_pattern!r} have no lines")
    return totals.score()


def _pair_block(config: MetricConfig, hyps: list[str], refs: list[str]) -> NDArray[np.float64]:
    return metric_for(config, threads=WORKER_THREADS).pairwise(hyps, refs)


def pairwise(metric: Metric[Any, Any], hyps: Sequence[str], refs: Sequence[str], block: int = 1000) -> Any:
    """The all-pairs sentence-score matrix as a ``dask.array``, ``block`` x ``block`` cells a task."""
    check_parts(metric.config, "Dask partitions")
    dask = _dask()
    da: Any = importlib.import_module("dask.array")
    if block < 1:
        raise InputError(f"block must be at least 1, got {block}")
    hyps, refs = list(hyps), list(refs)
    rows = []
    for i in range(0, len(hyps), block):
        row = []
        for j in range(0, len(refs), block):
            h, r = hyps[i : i + block], refs[j : j + block]
            cell = dask.delayed(_pair_block)(metric.config, h, r)
            row.append(da.from_delayed(cell, shape=(len(h), len(r)), dtype=np.float64))
        rows.append(row)
    return da.block(rows) if rows and rows[0] else da.zeros((len(hyps), len(refs)))


def system_scores(
    metric: NeuralMetric,
    systems: Mapping[str, Sequence[str]],
    refs: References,
    sources: Sequence[str] | None,
    client: Any,
) -> GivenScores:
    """A neural metric's segment scores of ``systems`` (as its ``system_scores``), the models
    on the workers of the Dask ``client``: each worker reads the model once, the distinct inputs
    the metric's cache lacks travel in length-sorted chunks, and each chunk's scores are kept in
    the cache as it comes back (:mod:`understudy.execution.on_dask`). The command line's ``--dask``
    is this.

    >>> from understudy.neural import COMET
    >>> scores = system_scores(COMET("wmt22-comet-da"), {"A": hyps}, refs, srcs, client)  # doctest: +SKIP
    """
    from understudy.execution.on_dask import DaskRunner

    with metric.running_on(DaskRunner(client)):
        return metric.system_scores(systems, refs, sources)


__all__ = [
    "WORKER_THREADS",
    "corpus_score",
    "corpus_score_files",
    "pairwise",
    "segment_stats",
    "sentence_scores",
    "shards",
    "system_scores",
]
