"""Neural metrics on the command line: ``-m comet`` with ``--source``, beside the text metrics.

The metric is computed here (:mod:`understudy.neural`) and its segment scores join the run as
given scores do: a column of ``score``, a metric of ``compare``, kept by ``--log``. xCOMET's
error spans go to ``--xcomet-spans FILE`` (JSON lines: system, segment, spans).
"""

from __future__ import annotations

import argparse
import json
import warnings
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

from understudy.cli.inputs import read_texts
from understudy.cli.messages import CliError
from understudy.cli.progress import Progress
from understudy.cli.segments import sources_as_scored
from understudy.errors import LengthMismatchError
from understudy.metrics.scores import GivenScores
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.neural.base import NeuralMetric
    from understudy.neural.on_dask import DaskRunner

NEURAL_METRICS = ("comet", "cometkiwi", "xcomet", "metricx", "gemba-mqm", "esa")
"""The ``-m`` names of the metrics computed from the source by a model: the neural metrics (torch,
transformers: the ``neural`` extra) and the LLM judges (an endpoint: no extra)."""
JUDGES = ("gemba-mqm", "esa")
DEFAULT_COMET = "Unbabel/wmt22-comet-da"
DEFAULT_COMETKIWI = "Unbabel/wmt22-cometkiwi-da"
DEFAULT_XCOMET = "Unbabel/XCOMET-XL"
DEFAULT_METRICX = "google/metricx-24-hybrid-xl-v2p6"
DEFAULT_MT5 = "google/mt5-xl"


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
    group = parser.add_argument_group(
        "neural metrics (-m comet cometkiwi xcomet metricx: the 'neural' extra)"
    )
    group.add_argument(
        "--source",
        metavar="FILE",
        help="the source segments, one a line as the references (COMET and MetricX read them)",
    )
    _checkpoint_options(group)
    _run_options(group)
    _judge_options(parser.add_argument_group("LLM judges (-m gemba-mqm esa: any OpenAI-compatible endpoint)"))


def _judge_options(group: argparse._ArgumentGroup) -> None:
    """The endpoint, its model, and how many requests at once (the key: an environment variable)."""
    group.add_argument(
        "--judge-url",
        metavar="URL",
        help="the endpoint's base URL, up to /v1 (OpenAI, vLLM, llama.cpp's server, Ollama); the key is"
        " read from UNDERSTUDY_JUDGE_KEY, else OPENAI_API_KEY",
    )
    group.add_argument("--judge-model", metavar="NAME", help="the endpoint's model name (in the signature)")
    group.add_argument(
        "--judge-concurrency",
        type=_positive,
        default=4,
        metavar="N",
        help="requests in flight at once (default: 4)",
    )


def _checkpoint_options(group: argparse._ArgumentGroup) -> None:
    """Each neural metric's checkpoint (and MetricX's tokenizer), and its reference-free switch."""
    group.add_argument(
        "--comet-model",
        default=DEFAULT_COMET,
        metavar="MODEL",
        help=f"COMET's checkpoint: a hub name, NAME@REVISION, or a local folder holding hparams.yaml and"
        f" checkpoints/model.ckpt (default: {DEFAULT_COMET})",
    )
    group.add_argument(
        "--cometkiwi-model",
        default=DEFAULT_COMETKIWI,
        metavar="MODEL",
        help="CometKiwi's checkpoint (reference-free; CC BY-NC-SA, gated on the hub): a hub name,"
        f" NAME@REVISION, or a local folder (default: {DEFAULT_COMETKIWI})",
    )
    group.add_argument(
        "--xcomet-model",
        default=DEFAULT_XCOMET,
        metavar="MODEL",
        help="xCOMET's checkpoint (CC BY-NC-SA, gated on the hub): a hub name, NAME@REVISION, or a"
        f" local folder (default: {DEFAULT_XCOMET})",
    )
    group.add_argument(
        "--xcomet-qe", action="store_true", help="xCOMET without references (quality estimation)"
    )
    group.add_argument(
        "--xcomet-spans",
        metavar="FILE",
        help="write xCOMET's error spans to FILE, one JSON line a segment of each system:"
        ' {"system", "segment" (from 1), "score", "spans": [{"text", "confidence", "severity",'
        ' "start", "end"}]}',
    )
    group.add_argument(
        "--metricx-model",
        default=DEFAULT_METRICX,
        metavar="MODEL",
        help="MetricX-24's checkpoint: a hub name, NAME@REVISION, or a local folder (default:"
        f" {DEFAULT_METRICX})",
    )
    group.add_argument(
        "--metricx-tokenizer",
        default=DEFAULT_MT5,
        metavar="TOKENIZER",
        help=f"MetricX's mT5 tokenizer, as predict.py's --tokenizer (default: {DEFAULT_MT5})",
    )
    group.add_argument(
        "--metricx-qe", action="store_true", help="MetricX-24 without references (quality estimation)"
    )


def _run_options(group: argparse._ArgumentGroup) -> None:
    """How the models run: batches, device, precision, the cache."""
    group.add_argument(
        "--batch-size", type=_positive, default=16, metavar="N", help="inputs encoded at once (default: 16)"
    )
    group.add_argument(
        "--device",
        default="auto",
        help="auto (default: the first GPU torch sees, else the CPU; the signature's dev says which ran),"
        " cpu, cuda or cuda:N",
    )
    group.add_argument(
        "--no-cache",
        action="store_true",
        help="compute every segment score, neither reading nor writing the score cache (understudy cache)",
    )
    group.add_argument(
        "--precision",
        choices=["fp32", "bf16", "fp16"],
        help="the models' arithmetic (default: fp32 for COMET, the reference numbers; MetricX as its"
        " checkpoint was saved); any is in the signature",
    )


def neural_chosen(args: argparse.Namespace) -> list[str]:
    """The neural metrics of ``-m``, in ``-m`` order."""
    return [name for name in dict.fromkeys(getattr(args, "metrics", [])) if name in NEURAL_METRICS]


def neural_scores(
    args: argparse.Namespace,
    names: list[str],
    refs: list[list[str]],
    systems: list[list[str]],
    sources: list[str] | None = None,
) -> list[GivenScores]:
    """Each neural metric of ``-m`` on the systems (their lines already read, as the references'),
    with the source of ``--source``, else ``sources`` (a test set's)."""
    chosen = neural_chosen(args)
    if not chosen:
        return []
    if args.source is None and not sources:
        raise CliError(
            f"-m {chosen[0]} needs the source segments: --source FILE (one a line, as the references)"
        )
    if len(refs) != 1:
        raise CliError(f"{chosen[0]} takes one reference; {len(refs)} reference files are given")
    if args.source is not None:
        (sources,) = read_texts([args.source])
        sources = sources_as_scored(args, sources)
    assert sources is not None
    if len(sources) != len(refs[0]):
        where = args.source or "the test set's source"
        raise LengthMismatchError(
            f"{where} has {counted(len(sources), 'line')} but the references have {len(refs[0])}"
        )
    if len(set(names)) != len(names):
        raise CliError("the same system file is given twice with -i")
    scored = []
    with ExitStack() as stack:
        runner = _runner(args, chosen, stack)
        for name in chosen:
            metric = _metric(args, name)
            if name not in JUDGES:
                metric.runner = runner
            # CometKiwi is reference-free: the references go only to a checkpoint that reads them.
            given = None if name == "cometkiwi" and "ref" not in getattr(metric, "segments", []) else refs[0]
            given = None if name in JUDGES else given
            scored.append(
                _scored(
                    metric, names, None if name == "xcomet" and args.xcomet_qe else given, systems, sources
                )
            )
            if name == "xcomet" and args.xcomet_spans is not None:
                write_spans(args.xcomet_spans, scored[-1], metric.details)
    return scored


def _runner(args: argparse.Namespace, chosen: list[str], stack: ExitStack) -> DaskRunner | None:
    """With ``--dask``, where the neural metrics' models run: the cluster, until ``stack``
    closes (the judges ask their endpoint from here, and say so)."""
    address = getattr(args, "dask", None)
    if address is None:
        return None
    judges = [name for name in chosen if name in JUDGES]
    if judges:
        warnings.warn(f"--dask runs models: {', '.join(judges)} ask their endpoint from here", stacklevel=1)
    if len(judges) == len(chosen):
        return None
    from understudy.cli.chunks import dask_client
    from understudy.neural.on_dask import DaskRunner, local_cluster

    return DaskRunner(dask_client(address, stack, local_cluster))


def write_spans(path: str, scores: GivenScores, details: dict[str, list[str]]) -> None:
    """xCOMET's error spans as JSON lines, one a segment of each system, written atomically."""
    from understudy._atomic import atomic_write

    with atomic_write(path) as out:
        for system, per in details.items():
            values = scores.sentence_scores(system).tolist()
            for k, (detail, value) in enumerate(zip(per, values, strict=True), start=1):
                line = {"system": system, "segment": k, "score": value, "spans": json.loads(detail)}
                out.write((json.dumps(line, ensure_ascii=False) + "\n").encode("utf-8"))


def _metric(args: argparse.Namespace, name: str) -> NeuralMetric:
    """The metric object of one ``-m`` name, as the options say."""
    from understudy.neural import COMET, XCOMET, CometKiwi, MetricX

    if name in JUDGES:
        return _judge(args, name)
    common: dict[str, Any] = {"device": args.device, "cache": None if args.no_cache else "default"}
    if name == "comet":
        return COMET(
            args.comet_model, batch_size=args.batch_size, precision=args.precision or "fp32", **common
        )
    if name == "cometkiwi":
        return CometKiwi(
            args.cometkiwi_model, batch_size=args.batch_size, precision=args.precision or "fp32", **common
        )
    if name == "xcomet":
        return XCOMET(
            args.xcomet_model, batch_size=args.batch_size, precision=args.precision or "fp32", **common
        )
    if name != "metricx":
        raise CliError(f"no neural metric {name!r}")
    return MetricX(
        args.metricx_model,
        tokenizer=args.metricx_tokenizer,
        qe=args.metricx_qe,
        batch_size=args.batch_size,
        precision=args.precision,
        **common,
    )


def _judge(args: argparse.Namespace, name: str) -> NeuralMetric:
    """An LLM judge of ``-m``, as --judge-url, --judge-model and -l say."""
    from understudy.judges.metric import ESA, GembaMQM

    if not args.judge_url or not args.judge_model:
        raise CliError(f"-m {name} needs --judge-url URL (up to /v1) and --judge-model NAME")
    if not getattr(args, "langpair", None):
        raise CliError(f"-m {name} needs the language pair: -l SRC-TRG (the prompt names both languages)")
    kind = GembaMQM if name == "gemba-mqm" else ESA
    return kind(
        args.judge_url,
        args.judge_model,
        pair=args.langpair,
        concurrency=args.judge_concurrency,
        cache=None if args.no_cache else "default",
    )


def _scored(
    metric: NeuralMetric,
    names: list[str],
    refs: list[str] | None,
    systems: list[list[str]],
    sources: list[str],
) -> GivenScores:
    """One metric's scores of the systems, with a progress bar and the metric's notices."""
    done = [0]
    with Progress(metric.name, unit=metric.unit) as bar:

        def advance(count: int) -> None:
            done[0] += count
            bar.note(metric.status())
            bar.update(done[0])

        scores = metric.system_scores(dict(zip(names, systems, strict=True)), refs, sources, progress=advance)
    for notice in metric.notices():
        warnings.warn(notice, stacklevel=1)
    return scores
