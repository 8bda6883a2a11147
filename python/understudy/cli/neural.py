"""Neural metrics on the command line: ``-m comet`` with ``--source``, beside the text metrics.

The metric is computed here (:mod:`understudy.neural`) and its segment scores join the run as
given scores do: a column of ``score``, a metric of ``compare``, kept by ``--log``.
"""

from __future__ import annotations

import argparse
import warnings

from understudy.cli.output import CliError, read_texts
from understudy.cli.progress import Progress
from understudy.errors import LengthMismatchError
from understudy.metrics.scores import GivenScores

NEURAL_METRICS = ("comet",)
"""The ``-m`` names of the neural metrics (torch, transformers: the ``neural`` extra)."""
DEFAULT_COMET = "Unbabel/wmt22-comet-da"


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, got {text!r}")
    return value


def add_neural_options(parser: argparse.ArgumentParser) -> None:
    """``--source``, the checkpoint of each neural metric, and how the models run."""
    group = parser.add_argument_group("neural metrics (-m comet: the 'neural' extra)")
    group.add_argument(
        "--source",
        metavar="FILE",
        help="the source segments, one a line as the references (COMET needs them)",
    )
    group.add_argument(
        "--comet-model",
        default=DEFAULT_COMET,
        metavar="MODEL",
        help=f"COMET's checkpoint: a hub name, NAME@REVISION, or a local folder holding hparams.yaml and"
        f" checkpoints/model.ckpt (default: {DEFAULT_COMET})",
    )
    group.add_argument(
        "--batch-size", type=_positive, default=16, metavar="N", help="texts encoded at once (default: 16)"
    )
    group.add_argument("--device", default="cpu", help="cpu (default), cuda, cuda:N, or auto")
    group.add_argument(
        "--no-cache",
        action="store_true",
        help="compute every segment score, neither reading nor writing the score cache (understudy cache)",
    )
    group.add_argument(
        "--precision",
        choices=["fp32", "bf16", "fp16"],
        default="fp32",
        help="the models' arithmetic: fp32 (default: the reference numbers); another is in the signature",
    )


def neural_chosen(args: argparse.Namespace) -> list[str]:
    """The neural metrics of ``-m``, in ``-m`` order."""
    return [name for name in dict.fromkeys(getattr(args, "metrics", [])) if name in NEURAL_METRICS]


def neural_scores(
    args: argparse.Namespace, names: list[str], refs: list[list[str]], systems: list[list[str]]
) -> list[GivenScores]:
    """Each neural metric of ``-m`` on the systems (their lines already read, as the references')."""
    chosen = neural_chosen(args)
    if not chosen:
        return []
    if args.source is None:
        raise CliError("-m comet needs the source segments: --source FILE (one a line, as the references)")
    if len(refs) != 1:
        raise CliError(f"COMET takes one reference; {len(refs)} reference files are given")
    (sources,) = read_texts([args.source])
    if len(sources) != len(refs[0]):
        raise LengthMismatchError(
            f"{args.source} has {len(sources)} lines but the references have {len(refs[0])}"
        )
    if len(set(names)) != len(names):
        raise CliError("the same system file is given twice with -i")
    from understudy.neural import COMET

    metric = COMET(
        args.comet_model,
        batch_size=args.batch_size,
        device=args.device,
        precision=args.precision,
        cache=None if args.no_cache else "default",
    )
    done = [0]
    with Progress("COMET", unit="texts") as bar:

        def advance(count: int) -> None:
            done[0] += count
            bar.update(done[0])

        scores = metric.system_scores(
            dict(zip(names, systems, strict=True)), refs[0], sources, progress=advance
        )
    if metric.truncated:
        warnings.warn(
            f"COMET: {metric.truncated} text(s) longer than the encoder's 510 tokens were cut at its limit,"
            " as the reference code cuts them",
            stacklevel=1,
        )
    return [scores]
