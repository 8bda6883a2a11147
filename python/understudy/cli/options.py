"""The command line's shared options: subcommand setup, ``-m`` and every family's flags (derived
from the families' declarations), the flags of every other declaration (:func:`add_declared`),
``-l``, ``-j`` and ``--dask``; the metric objects they choose.

>>> parser = argparse.ArgumentParser()
>>> add_metric_options(parser)
>>> add_threads_option(parser)
>>> [metric.config.name for metric in scorers(parser.parse_args(["-m", "chrF++"]), sentence_level=False)]
['chrF2++']
"""

from __future__ import annotations

import argparse
import dataclasses
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from understudy.config import Declared, TextConfig
from understudy.execution.asked import DEFAULT_METRICS, MetricsAsked
from understudy.execution.asked import target_language as language_of
from understudy.metric import Metric
from understudy.metrics import FAMILIES, metric_names
from understudy.registry import computed_metrics, metric_name
from understudy.testsets import TestSetAsked
from understudy.threads import ThreadsAsked

if TYPE_CHECKING:
    from understudy.registry.declarations import Computed, ComputedConfig


def add_command(
    commands: Any, name: str, summary: str, description: str, examples: str
) -> argparse.ArgumentParser:
    """Register subcommand ``name``, its help keeping the examples' line breaks."""
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=description,
        epilog=examples,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def add_language_option(parser: argparse.ArgumentParser) -> None:
    """``-l SRC-TRG``, whose target picks BLEU's default tokenizer."""
    help = "the language pair; its target picks the default tokenizer, as in sacrebleu"
    add_field_option(parser, TestSetAsked, "langpair", help)


def add_field_option(
    parser: argparse.ArgumentParser | Any, config: type[Declared], name: str, help: str | None = None
) -> None:
    """A configuration field's command-line option, as its family (or computed metric) declares it."""
    declared = dict(config.options())[name]
    default = next(f.default for f in dataclasses.fields(config) if f.name == name)
    kwargs: dict[str, Any] = {"help": declared.help if help is None else help, "dest": declared.dest}
    if declared.required:
        kwargs["required"] = True
    if isinstance(default, bool):
        kwargs["action"] = "store_true"
    else:
        # A tuple is the frozen form of a list: the command line's is a fresh list, as argparse's.
        kwargs["default"] = list(default) if isinstance(default, tuple) else default
        kwargs["default"] = None if declared.unset else kwargs["default"]
        for key in ("choices", "type", "metavar", "nargs", "const", "action"):
            if getattr(declared, key) is not None:
                kwargs[key] = getattr(declared, key)
    parser.add_argument(*declared.flags, **kwargs)


def add_declared(
    parser: argparse.ArgumentParser | Any,
    config: type[Declared],
    names: Iterable[str] | None = None,
    title: str | None = None,
) -> None:
    """The options of ``config`` (those of ``names`` only, when given), in its fields' order; in the
    argument group ``title`` (default: the declaration's ``cli_group``), if any; the switches an
    ``exclusive`` name shares in one mutually exclusive group."""
    title = config.cli_group if title is None else title
    where = parser if title is None else parser.add_argument_group(title)
    groups: dict[str, Any] = {}
    for name, declared in config.options():
        if declared.flags and (names is None or name in names):
            exclusive = declared.exclusive
            if exclusive is not None and exclusive not in groups:
                groups[exclusive] = where.add_mutually_exclusive_group()
            add_field_option(where if exclusive is None else groups[exclusive], config, name)


def add_metric_options(parser: argparse.ArgumentParser, language: bool = True, neural: bool = False) -> None:
    """``-m`` and every family's options, as the families declare them; ``-l`` unless the
    command has its own (as ``score`` has, among the test-set options); with ``neural``, the
    computed metrics among ``-m``'s choices and their options, as they declare them."""
    if language:
        add_language_option(parser)
    parser.set_defaults(metric_options=True)  # checked as the command starts: warn_unread
    names = list(metric_names())
    if neural:
        names += add_computed_options(parser)
    parser.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        type=metric_name,
        choices=names,
        default=DEFAULT_METRICS,
        metavar="METRIC",
        help=f"any of {' '.join(names)} (default: bleu); printed in that order, as sacrebleu does",
    )
    shared = {name for name, _ in TextConfig.options()}
    for name in sorted(shared):
        add_field_option(parser, TextConfig, name)
    for family in FAMILIES.values():
        config = family.config
        group = parser if config.cli_group is None else parser.add_argument_group(config.cli_group)
        for name, declared in config.options():
            # Every text family has the shared options; the command line has each once.
            if declared.flags and name not in shared:
                add_field_option(group, config, name)


def add_computed_options(parser: argparse.ArgumentParser) -> list[str]:
    """``--source`` and every computed metric's options, as they declare them, a group for each
    kind (neural metrics, LLM judges): each metric's own options, then its kind's, each once.
    The ``-m`` names of the metrics computed here are returned."""
    declared = [d for d in computed_metrics().values() if d.computed_here]
    kinds: dict[type[ComputedConfig], list[Computed]] = {}
    for one in declared:
        kinds.setdefault(one.config.kind(), []).append(one)
    added: set[str] = set()
    for number, (kind, members) in enumerate(kinds.items()):
        note = f": {kind.cli_note}" if kind.cli_note else ""
        names = " ".join(one.name for one in members)
        group = parser.add_argument_group(f"{kind.cli_group} (-m {names}{note})")
        if number == 0:
            group.add_argument(
                "--source",
                metavar="FILE",
                help="the source segments, one a line as the references (COMET and MetricX read them)",
            )
        own = [(one.config, name, opt) for one in members for name, opt in one.config.own_options()]
        shared = [(kind, name, opt) for name, opt in kind.options() if opt.flags]
        for config, name, opt in own + shared:
            if opt.dest not in added:
                added.add(opt.dest)
                add_field_option(group, config, name)
    return [one.name for one in declared]


def warn_unread(args: argparse.Namespace) -> None:
    """Say, in one line each, that an option typed for a metric ``-m`` does not ask for does
    nothing (:func:`understudy.metrics.unread.unread`)."""
    from understudy.metrics.unread import unread

    for line in unread(getattr(args, "given", frozenset()), getattr(args, "metrics", DEFAULT_METRICS)):
        warnings.warn(line, stacklevel=1)


def sentence_scorer(args: argparse.Namespace) -> Metric[Any, Any]:
    """The one metric of ``-m`` at sentence level (BLEU's effective order on, unless
    ``--no-effective-order``, which is said to do nothing for another metric)."""
    (metric,) = scorers(args, sentence_level=not args.no_effective_order)
    if args.no_effective_order and "bleu" not in chosen_metrics(args):
        named = " ".join(chosen_metrics(args))
        warnings.warn(f"--no-effective-order is BLEU's: ignored for -m {named}", stacklevel=1)
    return metric


def scorers(args: argparse.Namespace, sentence_level: bool) -> list[Metric[Any, Any]]:
    """The text metrics of ``-m`` (:meth:`~understudy.execution.asked.MetricsAsked.text_metrics`)."""
    return MetricsAsked(vars(args)).text_metrics(sentence_level)


def chosen_metrics(args: argparse.Namespace) -> list[str]:
    """The text families of ``-m``: BLEU when none is named."""
    return MetricsAsked(vars(args)).text_names


def metrics_named(args: argparse.Namespace) -> bool:
    """Whether ``-m`` was given (argparse keeps the default object itself otherwise)."""
    return MetricsAsked(vars(args)).named


def target_language(args: argparse.Namespace) -> str:
    """The target language of ``-l src-trg`` (:func:`~understudy.execution.asked.target_language`)."""
    return language_of(getattr(args, "langpair", None))


def add_dask_option(parser: argparse.ArgumentParser, text: bool = True) -> None:
    """``--dask local|ADDRESS``: for the text metrics' chunks (``text``) and the neural metrics."""
    chunks = "the text metrics' chunks (a worker process per core) and " if text else ""
    parser.add_argument(
        "--dask",
        metavar="CLUSTER",
        help=f"compute on Dask: {chunks}the neural metrics' models ('local': a worker per GPU, else two CPU"
        " workers; tcp://HOST:8786: a running scheduler, each worker reading the model once; extra"
        " 'dask'); the numbers are the same",
    )


def add_threads_option(parser: argparse.ArgumentParser) -> None:
    """``-j/--threads``: cores for the Rust core (results never depend on it)."""
    add_declared(parser, ThreadsAsked)
