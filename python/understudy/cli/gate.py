"""``understudy gate``: exit 0 when a candidate keeps up with its baseline, 1 when it does not,
2 when the two cannot be compared; a one-screen verdict, JSON and JUnit XML for CI systems."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from typing import Any

from understudy.cli.computed import asked_metrics
from understudy.cli.keep import add_ledger_option, add_log_options
from understudy.cli.messages import CliError, print_error
from understudy.cli.options import (
    add_command,
    add_dask_option,
    add_declared,
    add_metric_options,
    add_threads_option,
    metrics_named,
)
from understudy.cli.output import write
from understudy.cli.segments import RESHAPED, whole_documents
from understudy.cli.testset import add_cache_options, add_filter_options, testset_refs
from understudy.errors import UnderstudyError
from understudy.evaluation import Evaluation
from understudy.files.atomic import atomic_write, writable
from understudy.gate import GateResult, GateSettings, GateVerdict
from understudy.gate.report import Gated, json_text, junit, text
from understudy.inputs.files import digest_of_files
from understudy.inputs.parallel import read_parallel
from understudy.ledger import Ledger
from understudy.ledger.keeping import Keeping
from understudy.ledger.kept import Against, against_kept, check_typed, is_kept_form, kept_pairs
from understudy.signature import Signature
from understudy.stats import Stats
from understudy.wording import record_span

VERDICT_TAGS = {True: "gate:pass", False: "gate:fail"}
"""The tag ``--log`` adds to a candidate's records: the gate's verdict on them."""

EXAMPLES = """examples:
  understudy gate ref.de --baseline base.de --candidate new.de                BLEU, paired bootstrap
  understudy gate ref.de --baseline base.de --candidate new.de -m bleu chrf --max-drop 1.0
  understudy gate ref.de --baseline base.de --candidate new.de --min-score 25 --junit gate.xml
  understudy gate -t wmt17 -l en-de --baseline base.de --candidate new.de     a built-in test set
  understudy gate --baseline ledger:12 --candidate ledger:15                  records of the ledger
  understudy gate --baseline tag:release --candidate tag:nightly -m bleu chrf  the latest of each tag
  understudy gate ref.de --baseline tag:release --candidate new.de --log --tag nightly
                     a kept release against a fresh output, scored as the release was, and kept

Exit status: 0 the candidate passes every metric; 1 it fails one (significantly worse at --alpha,
worse by more than --max-drop, or beyond --min-score); 2 anything else: the two cannot be
compared (another metric, option, test set or length), a file or record is missing, or the
command is wrong. --max-drop and --min-score are in each metric's own units: BLEU points
(0-100), COMET's 0-1, WER's fraction.
"""


def add_parser(commands: Any) -> None:
    """Register the ``gate`` subcommand."""
    p = add_command(
        commands,
        "gate",
        "fail a CI job when a candidate is significantly worse than its baseline",
        "A quality gate: the candidate fails a metric when the paired test says it is significantly "
        "worse than the baseline, when it drops more than --max-drop, or when it is beyond --min-score.",
        EXAMPLES,
    )
    p.add_argument("refs", nargs="*", metavar="REF", help="reference file(s), when the systems are files")
    p.add_argument("--baseline", required=True, metavar="SYSTEM", help="a file, ledger:ID or tag:NAME")
    p.add_argument("--candidate", required=True, metavar="SYSTEM", help="a file, ledger:ID or tag:NAME")
    add_metric_options(p, neural=True)
    add_declared(p, GateSettings)
    p.add_argument("--junit", metavar="FILE", help="also write the verdict as JUnit XML")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text", help="default: text")
    p.add_argument("-t", "--test-set", metavar="NAME", help="a built-in test set as the references (with -l)")
    add_filter_options(p)
    add_cache_options(p)
    add_threads_option(p)
    add_dask_option(p, text=False)
    add_ledger_option(p)
    add_log_options(p, ledger=False)
    p.set_defaults(run=run)


def _named(args: argparse.Namespace) -> list[str]:
    return list(args.metrics) if metrics_named(args) else []


def _pairs(
    args: argparse.Namespace,
) -> tuple[list[tuple[Stats[Any, Any], Stats[Any, Any]]], str, list[tuple[str, str]]]:
    """The baseline's and the candidate's statistics, metric by metric, the test set's name or
    hash ("" when both come from the ledger), and how the records' inputs were reshaped (their
    signatures' ``gran`` and ``reseg``: the verdict's signature says it too)."""
    forms = [is_kept_form(args.baseline), is_kept_form(args.candidate)]
    if all(forms):
        with Ledger(args.ledger, read_only=True) as ledger:
            records = kept_pairs(ledger, args.baseline, args.candidate, _named(args))
            read = [(ledger.stats(b.id), ledger.stats(c.id)) for b, c in records]
            typed = _typed(args)
            for (base, _), (stats, _) in zip(records, read, strict=True):
                check_typed(args.baseline, base, stats.config, typed)
            extras = [kv for kv in Signature.parse(records[0][0].signature).extras if kv[0] in RESHAPED]
            return read, "", extras
    files = [w for w, kept in zip([args.baseline, args.candidate], forms, strict=True) if not kept]
    refs, systems, testset = _texts(args, files)
    if any(forms):
        which, path = (args.baseline, args.candidate) if forms[0] else (args.candidate, args.baseline)
        asked = Against(which, path, systems[0], refs, testset, _typed(args), args.threads, forms[0])
        with Ledger(args.ledger, read_only=True) as ledger:
            return against_kept(ledger, asked, _named(args)), testset, []
    # One file gated against itself passes (p = 1): its two sides keep two names.
    names = files if files[0] != files[1] else [files[0], f"{files[1]} (candidate)"]
    evaluation = Evaluation(dict(zip(names, systems, strict=True)), refs)
    # Computed metrics (COMET, MetricX, judges): both files in one call, texts they share once.
    metrics = asked_metrics(args, names, refs, systems)
    pairs = [evaluation.statistics(metric) for metric in metrics]
    return [(base, cand) for base, cand in pairs], testset, []


def _typed(args: argparse.Namespace) -> dict[str, Any]:
    """The options typed on the command line, by destination (a kept record overrules none)."""
    given: frozenset[str] = getattr(args, "given", frozenset())
    return {dest: value for dest, value in vars(args).items() if dest in given}


def _texts(args: argparse.Namespace, paths: list[str]) -> tuple[list[list[str]], list[list[str]], str]:
    """The reference streams (files, or ``-t``'s test set, filtered as asked), the systems of
    ``paths``, and the test set as the ledger names it (its name and pair, or the SHA-256 of the
    references as read)."""
    if bool(args.refs) == bool(args.test_set):
        raise CliError("the systems are files: give the reference file(s) first, or -t NAME -l PAIR")
    if not args.test_set:
        refs, systems = read_parallel(args.refs, paths)
        return refs, systems, digest_of_files(args.refs)
    testset = testset_refs(args)
    where = f"{args.test_set} {args.langpair}"
    refs, systems = testset.read_against(paths, whole=whole_documents(args), where=where, filtered=True)
    return refs, systems, ":".join(value for _, value in testset.signature)


def _signed(result: GateResult, extras: list[tuple[str, str]]) -> GateResult:
    """``result`` with ``extras`` in its signature."""
    if not extras:
        return result
    return dataclasses.replace(
        result, signature=Signature.parse(result.signature).with_extras(extras).format()
    )


def _check_options(args: argparse.Namespace) -> None:
    """What can be refused before any work: the JUnit file's place, and the test's settings."""
    if args.junit:
        writable(args.junit)
    if args.log and is_kept_form(args.candidate):
        raise CliError("--log keeps a candidate scored from its file; a kept candidate is kept already")
    GateSettings.from_values(vars(args)).check()


def run(args: argparse.Namespace) -> int:
    """Score, test and judge; the exit status is the verdict: 0 pass, 1 fail, 2 anything else
    (incomparable systems, a missing file or record, a wrong option)."""
    try:
        _check_options(args)
        pairs, testset, extras = _pairs(args)
        settings = GateSettings.from_values(vars(args))
        verdict = GateVerdict(tuple(_signed(settings.verdict(b, c), extras) for b, c in pairs))
        gated = Gated(args.baseline, args.candidate, settings.test, settings.alpha)
        write(json_text(verdict, gated) if args.format == "json" else text(verdict, gated))
        if args.junit:
            with atomic_write(args.junit) as fh:
                fh.write(junit(verdict, gated))
        if args.log:
            _keep_candidate(args, [c for _, c in pairs], testset, verdict.passed)
    except (UnderstudyError, CliError) as err:
        print_error(str(err))
        return 2
    return 0 if verdict.passed else 1


def _keep_candidate(
    args: argparse.Namespace, stats: list[Stats[Any, Any]], testset: str, passed: bool
) -> None:
    """``--log``: the candidate's records, every metric, in one transaction, tagged with the
    gate's verdict (``gate:pass`` or ``gate:fail``: the site marks them)."""
    keeping = Keeping.from_values(vars(args))
    keeping = dataclasses.replace(keeping, tag=(*keeping.tag, VERDICT_TAGS[passed]))
    hypotheses = [digest_of_files([args.candidate])]
    if testset.startswith("sha256:"):  # reference files: named, and their pair, as asked
        testset = keeping.testset(testset, getattr(args, "langpair", None))
    ids, location = keeping.keep(
        [[s] for s in stats], [args.candidate], testset, args.command_line, hypotheses
    )
    sys.stderr.write(f"understudy: kept {record_span(ids)} in {location}\n")


__all__ = ["add_parser", "run"]
