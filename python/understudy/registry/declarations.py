"""How a computed metric is declared: its configuration (the options it takes, with the same
:func:`~understudy.config.option` fields as the families') and its declaration (its name, what
it reads, its direction and range, and how its object is made).

A declaration module imports nothing heavy: the command line reads every declaration to build
its ``-m`` choices and flags as it starts, and imports the metric's own code (torch, an HTTP
client) only when the metric runs. The registry lists the declarations
(:data:`understudy.registry.COMPUTED`).

>>> from understudy.registry import computed
>>> comet = computed("comet")
>>> comet.title, comet.inputs, [opt.flags[0] for _, opt in comet.config.own_options()]
('COMET', ('source', 'hypothesis', 'reference'), ['--comet-model'])
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from understudy.config import Declared, Option, option
from understudy.errors import ConfigError

INPUTS = ("source", "hypothesis", "reference")
"""What a computed metric may read of each segment."""


def positive(text: str) -> int:
    """A command-line count: a whole number from 1.

    >>> positive("16")
    16
    """
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, got {text!r}")
    return value


@dataclass(frozen=True)
class ComputedConfig(Declared):
    """The options every computed metric takes; a metric's configuration derives from this or
    from :class:`NeuralConfig` or :class:`JudgeConfig` and adds its own (its checkpoint).

    >>> ComputedConfig().cache
    'default'
    """

    no_cache: bool = option(
        False,
        flags=("--no-cache",),
        help="compute every segment score, neither reading nor writing the score cache (understudy cache)",
    )

    cli_group: ClassVar[str] = "computed metrics"
    """The title of the command-line group of the metrics of this kind (their ``-m`` names follow)."""
    cli_note: ClassVar[str] = ""
    """What the group's title says after the names (what the kind needs)."""
    on_dask: ClassVar[bool] = False
    """Whether ``--dask`` computes the metric on the cluster (a model does; a judge asks its
    endpoint from here)."""

    @property
    def cache(self) -> str | None:
        """The score cache the metric object takes: understudy's, or none."""
        return None if self.no_cache else "default"

    @classmethod
    def kind(cls) -> type[ComputedConfig]:
        """The kind this configuration is of (:class:`NeuralConfig`, :class:`JudgeConfig`, or
        another that names its own ``cli_group``), whose options every metric of it shares."""
        return next(c for c in cls.__mro__ if "cli_group" in vars(c))

    @classmethod
    def own_options(cls) -> Iterator[tuple[str, Option]]:
        """The options this configuration adds to its kind's (a checkpoint, a switch), in order."""
        shared = {name for name, _ in cls.kind().options()}
        for name, declared in cls.options():
            if declared.flags and name not in shared:
                yield name, declared

    def spans_file(self) -> str | None:
        """Where the command line writes the metric's error spans (``None``: nowhere)."""
        return None


@dataclass(frozen=True)
class NeuralConfig(ComputedConfig):
    """What every neural metric takes: batches, the device, the precision.

    >>> NeuralConfig().batch_size, NeuralConfig().device
    (16, 'auto')
    """

    batch_size: int = option(
        16, flags=("--batch-size",), type=positive, metavar="N", help="inputs encoded at once (default: 16)"
    )
    device: str = option(
        "auto",
        flags=("--device",),
        help="auto (default: the first GPU torch sees, else the CPU; the signature's dev says which ran),"
        " cpu, cuda or cuda:N",
    )
    precision: str | None = option(
        None,
        flags=("--precision",),
        choices=("fp32", "bf16", "fp16"),
        unset=True,
        help="the models' arithmetic (default: fp32 for COMET, the reference numbers; MetricX as its"
        " checkpoint was saved); any is in the signature",
    )

    cli_group = "neural metrics"
    cli_note = "the 'neural' extra"
    on_dask = True

    def running(self) -> dict[str, Any]:
        """The metric object's options of how it runs (its precision: fp32 unless asked)."""
        return {
            "batch_size": self.batch_size,
            "device": self.device,
            "precision": self.precision or "fp32",
            "cache": self.cache,
        }


@dataclass(frozen=True)
class JudgeConfig(ComputedConfig):
    """What every LLM judge takes: the endpoint, its model, how many requests at once.

    >>> JudgeConfig(url="http://127.0.0.1:8000/v1", model="m").concurrency
    4
    """

    url: str | None = option(
        None,
        flags=("--judge-url",),
        metavar="URL",
        help="the endpoint's base URL, up to /v1 (OpenAI, vLLM, llama.cpp's server, Ollama); the key is"
        " read from UNDERSTUDY_JUDGE_KEY, else OPENAI_API_KEY",
    )
    model: str | None = option(
        None, flags=("--judge-model",), metavar="NAME", help="the endpoint's model name (in the signature)"
    )
    concurrency: int = option(
        4,
        flags=("--judge-concurrency",),
        type=positive,
        metavar="N",
        help="requests in flight at once (default: 4)",
    )

    cli_group = "LLM judges"
    cli_note = "any OpenAI-compatible endpoint"

    def endpoint(self, name: str, pair: str | None) -> tuple[str, str, str]:
        """The endpoint's URL, its model and the language pair, each checked as given."""
        if not self.url or not self.model:
            raise ConfigError(f"-m {name} needs --judge-url URL (up to /v1) and --judge-model NAME")
        if not pair:
            raise ConfigError(
                f"-m {name} needs the language pair: -l SRC-TRG (the prompt names both languages)"
            )
        return self.url, self.model, pair


Build = Callable[[Any, "str | None"], Any]
"""Makes the metric object from its configuration and the language pair (``-l``)."""


@dataclass(frozen=True)
class Computed:
    """One computed metric as the command line, the given scores and the docs know it.

    ``name`` is its ``-m`` name; ``title`` the name its scores print under when given with
    ``--scores`` (``aliases``: the published variants' names, alike in direction and range);
    ``inputs`` what it reads of each segment (``higher_is_better``: its direction); ``make``
    names the class that computes it, ``module:Class``, imported when the metric runs (its
    ``from_config(config, pair)`` makes the object), or is a function that makes it;
    ``None``: a metric whose scores are only given (``--scores TITLE=FILE``).

    >>> from understudy.registry import computed
    >>> computed("metricx").higher_is_better, computed("metricx").score_range
    (False, (0.0, 25.0))
    """

    name: str
    title: str
    config: type[ComputedConfig]
    make: str | Build | None
    inputs: tuple[str, ...] = INPUTS
    higher_is_better: bool = True
    score_range: tuple[float | None, float | None] = (None, None)
    aliases: tuple[str, ...] = ()
    extra: str | None = "neural"
    """The extra its code needs (``None``: none)."""
    several_references: bool = False
    """Whether it reads every reference of a segment (BERTScore keeps the best); else it takes
    one reference file, and more are refused."""

    def __post_init__(self) -> None:
        unknown = set(self.inputs) - set(INPUTS)
        if unknown or "hypothesis" not in self.inputs:
            raise ConfigError(f"{self.name}: inputs are among {INPUTS} and hold the hypothesis")

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower score is better: not :attr:`higher_is_better` (read only)."""
        return not self.higher_is_better

    @property
    def computed_here(self) -> bool:
        """Whether understudy computes the metric (a ``-m`` choice), or only takes its scores."""
        return self.make is not None

    def metric(self, config: ComputedConfig, pair: str | None = None) -> Any:
        """The metric object (a :class:`~understudy.computed.metric.ComputedMetric`) that
        ``config`` describes, for the language ``pair`` where the metric's prompt names it."""
        if self.make is None:
            raise ConfigError(f"{self.title} is not computed here: give its scores with --scores")
        if callable(self.make):
            return self.make(config, pair)
        module, _, name = self.make.partition(":")
        return getattr(importlib.import_module(module), name).from_config(config, pair)

    def reads_reference(self, config: ComputedConfig) -> bool:
        """Whether the metric is given the references (not when asked for quality estimation)."""
        return "reference" in self.inputs and not getattr(config, "qe", False)
