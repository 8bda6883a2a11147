"""``understudy gate``: exit 0 when a candidate keeps up with its baseline, 1 when it does not,
2 when the two cannot be compared; a one-screen verdict, JSON and JUnit XML for CI systems."""

from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ET
from typing import Any

from understudy._atomic import atomic_write
from understudy.cli.keep import add_ledger_option
from understudy.cli.output import (
    CliError,
    add_command,
    add_metric_options,
    add_threads_option,
    metrics_named,
    print_error,
    read_parallel,
    read_texts,
    scorers,
    write,
)
from understudy.cli.stream import kept
from understudy.cli.table import text_table
from understudy.cli.testset import add_cache_options, add_filter_options, testset_refs
from understudy.errors import IncomparableError, LengthMismatchError
from understudy.gate import GateResult, GateVerdict, gate
from understudy.ledger import Ledger
from understudy.significance import Test
from understudy.stats import Stats

EXAMPLES = """examples:
  understudy gate ref.de --baseline base.de --candidate new.de                BLEU, paired bootstrap
  understudy gate ref.de --baseline base.de --candidate new.de -m bleu chrf --max-drop 1.0
  understudy gate ref.de --baseline base.de --candidate new.de --min-score 25 --junit gate.xml
  understudy gate -t wmt17 -l en-de --baseline base.de --candidate new.de     a built-in test set
  understudy gate --baseline ledger:12 --candidate ledger:15                  records of the ledger
  understudy gate --baseline tag:release --candidate tag:nightly -m bleu chrf  the latest of each tag

Exit status: 0 the candidate passes every metric; 1 it fails one (significantly worse at --alpha,
worse by more than --max-drop, or beyond --min-score); 2 the two cannot be compared (another
metric, option, test set or length), or the command is wrong.
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
    add_metric_options(p)
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default: 0.05)")
    p.add_argument("--max-drop", type=float, metavar="X", help="fail when worse by more than X points")
    p.add_argument(
        "--min-score", type=float, metavar="Y", help="fail below Y (above Y where lower is better)"
    )
    p.add_argument("--paired-ar", action="store_true", help="approximate randomization (default: bootstrap)")
    p.add_argument("-n", type=int, metavar="N", help="resamples or trials (default: 1000; 10000 for ar)")
    p.add_argument("--seed", type=int, default=12345, help="the tests' seed (default: 12345)")
    p.add_argument("--junit", metavar="FILE", help="also write the verdict as JUnit XML")
    p.add_argument("-f", "--format", choices=("text", "json"), default="text", help="default: text")
    p.add_argument("-t", "--test-set", metavar="NAME", help="a built-in test set as the references (with -l)")
    add_filter_options(p)
    add_cache_options(p)
    add_threads_option(p)
    add_ledger_option(p)
    p.set_defaults(run=run)


def _from_ledger(ledger: Ledger, which: str, metrics: list[str]) -> dict[str, Stats[Any, Any]]:
    """A ledger form's statistics by metric: ``ledger:ID`` one record, ``tag:NAME`` the latest
    record of each metric with that tag."""
    kind, _, value = which.partition(":")
    if kind == "ledger":
        if not value.isdigit():
            raise CliError(f"{which}: ledger:ID takes a record's number")
        stats = ledger.stats(int(value))
        return {stats.metric: stats}
    latest = {r.metric: r.id for r in ledger.records(tag=value)}
    if not latest:
        raise CliError(f"{which}: no record of the ledger has the tag {value!r}")
    return {
        metric: ledger.stats(record) for metric, record in latest.items() if not metrics or metric in metrics
    }


def _is_ledger_form(which: str) -> bool:
    return which.startswith(("ledger:", "tag:"))


def _pairs(args: argparse.Namespace) -> list[tuple[Stats[Any, Any], Stats[Any, Any]]]:
    """The baseline's and the candidate's statistics, metric by metric."""
    forms = [_is_ledger_form(args.baseline), _is_ledger_form(args.candidate)]
    if all(forms):
        named = list(args.metrics) if metrics_named(args) else []
        with Ledger(args.ledger) as ledger:
            base = _from_ledger(ledger, args.baseline, named)
            cand = _from_ledger(ledger, args.candidate, named)
        shared = [metric for metric in base if metric in cand]
        if not shared:
            raise IncomparableError(
                f"{args.baseline} has {', '.join(base)} and {args.candidate} {', '.join(cand) or 'nothing'}: "
                "no metric in common"
            )
        return [(base[m], cand[m]) for m in shared]
    if any(forms):
        raise CliError("give --baseline and --candidate both as files or both from the ledger")
    refs, systems = _texts(args)
    pairs = []
    for metric in scorers(args, sentence_level=False):
        base_stats, cand_stats = metric.segment_stats_many(systems, refs)
        pairs.append((base_stats, cand_stats))
    return pairs


def _texts(args: argparse.Namespace) -> tuple[list[list[str]], list[list[str]]]:
    """The reference streams (files, or ``-t``'s test set, filtered as asked) and the two systems."""
    if bool(args.refs) == bool(args.test_set):
        raise CliError("the systems are files: give the reference file(s) first, or -t NAME -l PAIR")
    if not args.test_set:
        return read_parallel(args.refs, [args.baseline, args.candidate])
    testset = testset_refs(args)
    refs = [lines for _, lines in testset.streams]
    systems = read_texts([args.baseline, args.candidate])
    for path, lines in zip([args.baseline, args.candidate], systems, strict=True):
        if len(lines) != len(refs[0]):
            raise LengthMismatchError(
                f"{args.test_set} {args.langpair} has {len(refs[0])} segments but {path} has {len(lines)}"
            )
    if testset.keep is not None:
        refs, systems = kept(refs, testset.keep), kept(systems, testset.keep)
    return refs, systems


def run(args: argparse.Namespace) -> int:
    """Score, test and judge; the exit status is the verdict."""
    try:
        pairs = _pairs(args)
        test: Test = "ar" if args.paired_ar else "bs"
        verdict = GateVerdict(
            tuple(
                gate(b, c, args.alpha, args.max_drop, args.min_score, test, args.n, args.seed)
                for b, c in pairs
            )
        )
    except IncomparableError as err:
        print_error(str(err))
        return 2
    write(_json(args, verdict) if args.format == "json" else _text(args, verdict))
    if args.junit:
        with atomic_write(args.junit) as fh:
            fh.write(_junit(args, verdict))
    return 0 if verdict.passed else 1


def _row(r: GateResult) -> list[str]:
    return [
        r.metric,
        f"{r.baseline:.2f}",
        f"{r.candidate:.2f}",
        f"{r.change:+.2f}",
        f"{r.p_value:.4f}",
        "pass" if r.passed else "FAIL: " + "; ".join(r.reasons),
    ]


def _text(args: argparse.Namespace, verdict: GateVerdict) -> str:
    test = "paired approximate randomization" if args.paired_ar else "paired bootstrap"
    head = "PASS" if verdict.passed else "FAIL"
    lines = [
        f"{head}: {args.candidate} against {args.baseline} ({test}, alpha {args.alpha})",
        "",
        text_table(
            ["metric", "baseline", "candidate", "change", "p-value", "verdict"],
            [_row(r) for r in verdict.results],
        ),
        "",
        *(f"{r.metric} signature: {r.signature}" for r in verdict.results),
    ]
    return "\n".join(lines)


def _json(args: argparse.Namespace, verdict: GateVerdict) -> str:
    record = {
        "passed": verdict.passed,
        "baseline": args.baseline,
        "candidate": args.candidate,
        "test": "ar" if args.paired_ar else "bs",
        "results": [
            {
                "metric": r.metric,
                "passed": r.passed,
                "baseline": r.baseline,
                "candidate": r.candidate,
                "change": r.change,
                "p_value": r.p_value,
                "alpha": r.alpha,
                "higher_is_better": r.higher_is_better,
                "reasons": list(r.reasons),
                "signature": r.signature,
            }
            for r in verdict.results
        ],
    }
    return json.dumps(record, indent=1, ensure_ascii=False)


def _junit(args: argparse.Namespace, verdict: GateVerdict) -> bytes:
    """The verdict as JUnit XML: a test case per metric, a failure where it fails."""
    failures = sum(not r.passed for r in verdict.results)
    suites = ET.Element("testsuites", tests=str(len(verdict.results)), failures=str(failures))
    suite = ET.SubElement(
        suites, "testsuite", name="understudy gate", tests=str(len(verdict.results)), failures=str(failures)
    )
    for r in verdict.results:
        case = ET.SubElement(suite, "testcase", classname="understudy.gate", name=r.metric)
        summary = f"{args.candidate} {r.candidate:.4f} against {args.baseline} {r.baseline:.4f}"
        summary += f" (p = {r.p_value:.4f})"
        if r.passed:
            ET.SubElement(case, "system-out").text = summary
        else:
            failure = ET.SubElement(case, "failure", message="; ".join(r.reasons))
            failure.text = f"{summary}\n{r.signature}"
    text: bytes = ET.tostring(suites, encoding="utf-8", xml_declaration=True)
    return text + b"\n"


__all__ = ["add_parser", "run"]
