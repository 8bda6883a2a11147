"""What every neural metric shares beside the computed metrics' half
(:class:`~understudy.computed.metric.ComputedMetric`): a checkpoint, batches sorted by length,
the device and precision the model runs in, and where the missing inputs are computed (here, or
on a Dask cluster: :mod:`understudy.execution.on_dask`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from os import PathLike
from pathlib import Path
from typing import Any, ClassVar, Protocol

from understudy.computed.cache import ScoreCache
from understudy.computed.metric import Blocks, ComputedMetric, Item, Progress
from understudy.errors import ModelError
from understudy.neural._extra import need
from understudy.neural.checkpoints import Checkpoint, locate

PRECISIONS = {"fp32": "float32", "bf16": "bfloat16", "fp16": "float16"}
CPU_TOKENS = 1600
"""Padded positions a batch holds at most on a CPU: beyond a few sequences a batch gains
nothing there and its padding costs (MetricX-24 large: 16 long inputs at once took 1.5x the
time of batches of this size)."""


def device_of(device: str) -> str:
    """``auto`` as ``cuda`` where torch sees a GPU, else ``cpu``; a CUDA device asked for and
    absent is an error."""
    if device == "cpu":
        return device  # no torch to import for a score the cache holds
    torch = need("torch")
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ModelError(f"--device {device}: torch sees no CUDA device here (use cpu or auto)")
    if device != "cpu" and not device.startswith("cuda"):
        raise ModelError(f"unknown device {device!r}: auto, cpu, cuda or cuda:N")
    return device


def batches(lengths: Sequence[int], size: int, tokens: int | None = None) -> list[list[int]]:
    """Indices of sequences of ``lengths``, longest first, in batches of at most ``size``
    sequences and, with ``tokens``, at most that many padded positions (a longer sequence
    alone).

    >>> batches([3, 9, 5, 9], 2)
    [[1, 3], [2, 0]]
    >>> batches([3, 9, 5, 9], 4, tokens=18)
    [[1, 3], [2, 0]]
    """
    order = sorted(range(len(lengths)), key=lambda k: -lengths[k])
    out: list[list[int]] = []
    for k in order:
        current = out[-1] if out else None
        full = current is None or len(current) >= size
        if not full and tokens is not None and current is not None:
            full = (len(current) + 1) * lengths[current[0]] > tokens
        if full:
            out.append([k])
        else:
            assert current is not None
            current.append(k)
    return out


class Runner(Protocol):
    """Where a neural metric's missing inputs are computed other than here (a Dask cluster:
    :class:`~understudy.execution.on_dask.DaskRunner`)."""

    def device(self, metric: NeuralMetric) -> str:
        """The kind of device the runner computes ``metric`` on."""

    def __call__(self, metric: NeuralMetric, missing: list[Item]) -> Blocks:
        """Each chunk of ``missing`` with its scores and details, as they come back."""


class NeuralMetric(ComputedMetric):
    """A computed metric read from a checkpoint; a subclass says how items are made and scored."""

    _runner: Runner | None = None

    marker: ClassVar[str | None] = None
    """The file that tells a checkpoint of this class's layout (``hparams.yaml``,
    ``config.json``); ``None`` where a parent class declares the layout."""

    weights: ClassVar[str] = ""
    """The file every checkpoint folder of this layout holds (the weights, or the config that
    names them); a folder without it is not this layout's checkpoint."""

    reads: ClassVar[tuple[str, ...]] = ()
    """The checkpoint's files the model reads: a local folder's revision hashes them all."""

    @classmethod
    def find_checkpoint(cls, spec: str | PathLike[str]) -> Checkpoint:
        """The checkpoint ``spec`` names in this class's layout: a local folder, else a hub name
        (``NAME@REVISION`` pins one), found as :func:`~understudy.neural.checkpoints.locate` says.

        >>> from understudy.neural.comet import COMET
        >>> COMET.find_checkpoint("./no-such")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        understudy.errors.ModelError: ./no-such: no such folder (a checkpoint is a local folder ...)
        """
        return locate(spec, cls.weights, reads=cls.reads)

    @classmethod
    def recognises(cls, folder: Path) -> bool:
        """Whether the checkpoint in ``folder`` is of this class's layout: it holds the
        :attr:`marker` (a layout that shares its marker with another's says more)."""
        return cls.marker is not None and (folder / cls.marker).is_file()

    @classmethod
    def names_beside(cls, folder: Path, tokenizer: str) -> tuple[str, list[str]] | None:
        """What a checkpoint of this layout in ``folder`` names but does not hold: a hub name
        (an encoder, a tokenizer: ``tokenizer`` where the checkpoint names none) and the file
        patterns of it that the model reads; ``None`` for a checkpoint that holds all it reads.
        ``fetch-model`` fetches those beside it."""
        raise NotImplementedError(f"{cls.__name__} declares no checkpoint layout")

    def __init__(
        self,
        checkpoint: Checkpoint,
        *,
        batch_size: int,
        device: str,
        precision: str,
        cache: ScoreCache | str | PathLike[str] | None,
    ) -> None:
        if precision not in PRECISIONS:
            raise ModelError(f"unknown precision {precision!r}: {', '.join(PRECISIONS)}")
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ModelError(f"batch_size must be a positive whole number, got {batch_size!r}")
        super().__init__(cache=cache)
        self.checkpoint = checkpoint
        self.batch_size, self.precision = batch_size, precision
        self.requested_device = device
        """The device as asked (``auto``, ``cpu``, ``cuda:1``), for a Dask worker to resolve."""
        self.device = device_of(device)
        """Where the model runs: ``auto`` resolved when the metric is made (a bad device fails now)."""

    def computed_by(self) -> dict[str, str]:
        """What the signature pins: the checkpoint, its revision, the precision, a reference, and
        the kind of device that runs the model (``auto`` resolved: ``cpu`` or ``cuda``)."""
        return {
            "model": self.checkpoint.name,
            "revision": self.checkpoint.revision,
            "dtype": self.precision,
            "reference": "yes" if self.uses_reference() else "no",
            "device": self.device.partition(":")[0],
        }

    def batches(self, lengths: Sequence[int]) -> list[list[int]]:
        """The call's batches (:func:`batches`): ``batch_size`` sequences, on a CPU at most
        :data:`CPU_TOKENS` padded positions."""
        return batches(lengths, self.batch_size, CPU_TOKENS if device_of(self.device) == "cpu" else None)

    def dtype(self) -> Any:
        """The torch dtype of the precision."""
        return getattr(need("torch"), PRECISIONS[self.precision])

    def prepare(self) -> None:
        """On a cluster, the device its workers run on: it signs the scores and keys the cache."""
        if self._runner is not None:
            self.device = self._runner.device(self)

    def _computed(self, missing: list[Item], progress: Progress | None) -> Blocks:
        """The scores of ``missing``: here, ``block`` at a time, or on the cluster of
        :meth:`running_on`'s runner, as chunks come back; out of device memory said as such."""
        try:
            if self._runner is None or not missing:
                yield from super()._computed(missing, progress)
                return
            for chunk, values, notes in self._runner(self, missing):
                yield chunk, values, notes  # kept by the caller before the progress is told
                if progress is not None:
                    progress(len(chunk))
        except RuntimeError as err:
            if type(err).__name__ != "OutOfMemoryError":  # torch's, without importing torch
                raise
            raise ModelError(
                f"{self.name}: out of device memory on {self.device} with batches of {self.batch_size}:"
                " lower --batch-size (batch_size=) or use --precision bf16; the scores computed"
                " before are kept in the cache"
            ) from None

    @contextmanager
    def running_on(self, runner: Runner | None) -> Iterator[bool]:
        """For the block it opens, the inputs the cache lacks computed by ``runner`` (a Dask
        cluster's :class:`~understudy.execution.on_dask.DaskRunner`; ``None``: here), as before after."""
        before, self._runner = self._runner, runner
        try:
            yield runner is not None
        finally:
            self._runner = before

    def remote(self) -> tuple[type, dict[str, Any]]:
        """The metric as it travels to a Dask worker: its class and the options that make it
        again there (the checkpoint pinned to this revision; ``device`` as asked, so that
        ``auto`` is each worker's own GPU). A metric with options of its own adds them."""
        options = {
            "batch_size": self.batch_size,
            "device": self.requested_device,
            "precision": self.precision,
        }
        return type(self), {"model": self.checkpoint.spec(), **options}


def layouts() -> list[type[NeuralMetric]]:
    """Every checkpoint layout, as the classes that declare one (a ``marker``): COMET's, MetricX's,
    and any subclass's of its own.

    >>> import understudy.neural
    >>> {"config.json", "hparams.yaml"} <= {cls.marker for cls in layouts()}
    True
    """
    import importlib

    from understudy.registry import computed_metrics

    for declared in computed_metrics().values():  # each metric's class, as the registry names it
        if isinstance(declared.make, str):
            importlib.import_module(declared.make.partition(":")[0])
    found, todo = [], list(NeuralMetric.__subclasses__())
    while todo:
        cls = todo.pop(0)
        if "marker" in vars(cls) and cls.marker is not None:
            found.append(cls)
        todo += cls.__subclasses__()
    return found
