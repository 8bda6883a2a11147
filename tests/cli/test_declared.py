"""Command options declared in the library (``option()`` fields, as the families declare theirs):
the flags each command derives from a declaration give back that declaration, defaults and
values alike, and what ``Option`` adds for commands (exclusive switches, ``const``, ``into``,
``required``, repeated values) reaches argparse."""

from __future__ import annotations

import argparse
import dataclasses

import pytest
from understudy.cli import build_parser
from understudy.config import Declared
from understudy.correlation.options import CorrelationInputs, CorrelationOptions
from understudy.gate import GateSettings
from understudy.ledger.keeping import Keeping
from understudy.ledger.tables import RecordFilter
from understudy.mbr.options import MBRAsked
from understudy.mbr.pruning import PruningAsked
from understudy.metrics.given_files import ScoresAsked
from understudy.printing.sacrebleu_text import SacrebleuFlags
from understudy.report.options import ReportAsked
from understudy.segmentation.granularity import Resegmenting, ReshapingOptions
from understudy.significance.ranking import Ranking
from understudy.significance.resampling import Resampling
from understudy.site.model import Settings
from understudy.testsets import TestSetAsked
from understudy.threads import ThreadsAsked

# Each command with the fewest words it parses, and the declarations whose flags it derives.
COMMANDS: list[tuple[list[str], list[type[Declared]]]] = [
    (
        ["score", "ref"],
        [Resampling, ScoresAsked, TestSetAsked, Keeping, SacrebleuFlags, ThreadsAsked, ReshapingOptions],
    ),
    (["compare", "ref"], [Ranking, ScoresAsked, TestSetAsked, Keeping, ReshapingOptions]),
    (["correlate"], [CorrelationInputs, CorrelationOptions, ScoresAsked, ThreadsAsked]),
    (["gate", "--baseline", "a", "--candidate", "b"], [GateSettings]),
    (["report", "-o", "r.html"], [ReportAsked, ScoresAsked, ReshapingOptions]),
    (["site", "-o", "site"], [Settings]),
    (["mbr", "--candidates", "c.txt"], [MBRAsked, PruningAsked]),
    (["resegment", "ref", "hyp"], [Resegmenting]),
    (["ledger", "list"], [RecordFilter]),
]


def parsed(words: list[str]) -> argparse.Namespace:
    parser = build_parser()
    args, extra = parser.parse_known_args(words)
    assert not extra
    return args


@pytest.mark.parametrize(("words", "declarations"), COMMANDS, ids=[" ".join(w[:1]) for w, _ in COMMANDS])
def test_a_command_without_options_holds_every_declared_default(
    words: list[str], declarations: list[type[Declared]]
) -> None:
    args = parsed(words)
    for declared in declarations:
        flagged = [name for name, option in declared.options() if option.flags]
        assert flagged, declared
        got = declared.from_values(vars(args))
        # A required option is given in ``words``; every other field is at its declared default.
        given = {name: getattr(got, name) for name, option in declared.options() if option.required}
        assert got == dataclasses.replace(declared(), **given), declared.__name__


def test_values_typed_reach_the_declaration() -> None:
    args = parsed(["score", "ref", "-pbs", "--paired-bs-n", "50", "--seed", "7", "--p-values", "sacrebleu"])
    asked = Resampling.from_values(vars(args))
    assert (asked.test, asked.paired_n, asked.seed, asked.p_values) == ("bs", 50, 7, "sacrebleu")
    # Repeated and appended values become the declaration's tuples.
    args = parsed(["score", "ref", "--scores", "A=a.out", "--scores", "B=b.out", "--tag", "x", "--tag", "y"])
    assert ScoresAsked.from_values(vars(args)).scores == ("A=a.out", "B=b.out")
    assert Keeping.from_values(vars(args)).tag == ("x", "y")


def test_exclusive_switches_refuse_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        parsed(["score", "ref", "-pbs", "-par"])
    assert done.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parsed(["compare", "ref", "--paired-ar", "--blocks"])


def test_const_into_and_required_reach_argparse(capsys: pytest.CaptureFixture[str]) -> None:
    assert Ranking.from_values(vars(parsed(["compare", "ref", "--blocks"]))).blocks == 20
    assert Ranking.from_values(vars(parsed(["compare", "ref", "--blocks", "5"]))).blocks == 5
    gate = GateSettings.from_values(vars(parsed(["gate", "--baseline", "a", "--candidate", "b", "-n", "50"])))
    assert (gate.n, gate.test) == (50, "bs")
    with pytest.raises(SystemExit):
        parsed(["mbr"])
    assert "--candidates" in capsys.readouterr().err


def test_a_declaration_the_command_lacks_keeps_its_defaults() -> None:
    assert Keeping.from_values({}) == Keeping()
    assert ReshapingOptions.from_values({"granularity": "document"}) == ReshapingOptions(
        granularity="document"
    )
    # Every field of a declaration is one of its options: no field left undeclared.
    for _, declarations in COMMANDS:
        for declared in declarations:
            names = {name for name, _ in declared.options()}
            assert names == {f.name for f in dataclasses.fields(declared)}, declared.__name__
