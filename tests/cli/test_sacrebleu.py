"""``understudy REF -i HYP`` is sacrebleu's command line: every flag, the same output, the same exit codes.

Outputs are compared with sacrebleu 2.6.0's command line run in process on the same
files (and the same twin test set, see ``twin_sets``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import sacrebleu
import sacrebleu.sacrebleu as sb_cli
from understudy.cli import build_parser

from tests.cli.test_testset import SYSTEMS, wmt_sgml  # noqa: F401  (a fixture)
from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE, first_lines, read_raw
from tests.support.twin_sets import REPO, run_sacrebleu

REF = SAMPLE / "newstest2017.ref.en-de.de"
HYP = SYSTEMS[0]


@pytest.fixture(scope="module")
def first_thousand(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The reference and three systems, their first 1,000 lines each (sacrebleu's TER takes
    seconds a system on the whole sample, and once more a form)."""
    return first_lines([REF, *SYSTEMS[:3]], tmp_path_factory.mktemp("first-thousand"))


def _sacrebleu_parser() -> argparse.ArgumentParser:
    """sacrebleu's own argument parser, caught as its parse_args is called."""

    class CaughtError(Exception):
        pass

    def catch(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        raise CaughtError(self)

    original = argparse.ArgumentParser.parse_args
    argparse.ArgumentParser.parse_args = catch  # type: ignore[assignment,method-assign]
    try:
        sb_cli.parse_args()
    except CaughtError as caught:
        parser: argparse.ArgumentParser = caught.args[0]
        return parser
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    raise AssertionError("sacrebleu's parse_args was not called")


# Flags whose default differs on purpose, and why (README's differences table says more).
DIFFERENT_DEFAULTS = {
    "--paired-jobs": "sacrebleu: 1 worker process; understudy: the cores (-j), all by default",
    "--version": "sacrebleu's prints its version and exits (argparse 'version' action)",
    "--help": "argparse's own",
}


def test_every_sacrebleu_flag_is_accepted_with_its_default() -> None:
    theirs = _sacrebleu_parser()
    ours = build_parser(bare=True).commands["score"]
    our_actions = {option: action for action in ours._actions for option in action.option_strings}
    their_options = [option for action in theirs._actions for option in action.option_strings]
    assert len(their_options) > 60
    for action in theirs._actions:
        for option in action.option_strings:
            if option in ("-V", "--version"):
                assert option in build_parser()._option_string_actions
                continue
            assert option in our_actions, f"sacrebleu's {option} is not accepted"
            if option in DIFFERENT_DEFAULTS or option == "-j":
                continue
            mine = our_actions[option]
            assert mine.default == action.default or {mine.default, action.default} <= {None, False}, option
            assert mine.nargs == action.nargs or option in ("-i", "--input", "--metrics", "-m"), option
            if action.choices is not None:
                assert set(action.choices) <= set(mine.choices or []), option


def test_the_bare_command_line_is_score(
    first_thousand: list[Path], capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [str(first_thousand[0]), "-i", str(first_thousand[1])]
    status, bare, err = run(capfd, *argv)
    assert status == 0, err
    # The subcommand's record has every number; the bare form prints sacrebleu's keys only.
    assert json.loads(run(capfd, "score", *argv)[1]).items() >= json.loads(bare).items()
    ours, theirs = json.loads(bare), json.loads(run_sacrebleu(argv, capfd, monkeypatch))
    # Every key sacrebleu's scripts read is there, with sacrebleu's value but the signature's version.
    for key in ("name", "score", "verbose_score", "nrefs", "case", "eff", "tok", "smooth"):
        assert ours[key] == theirs[key], key
    for extra in (["-b"], ["-b", "-w", "4", "-m", "bleu", "chrf", "ter"], ["-sl", "-b", "-m", "chrf"]):
        assert run(capfd, *argv, *extra)[1] == run_sacrebleu([*argv, *extra], capfd, monkeypatch), extra


def _as_sacrebleus(text: str) -> str:
    """Our output with the signature as sacrebleu writes it (its version, without the keys
    understudy adds: ``ngram``, ``beta``, ``pvalue``), and without the padding that aligns the longer
    signature's lines."""
    for key, value in (("ngram", "4"), ("beta", "2"), ("pvalue", "sacrebleu")):
        text = text.replace(f"|{key}:{value}", "").replace(f'\n "{key}": "{value}",', "")
    text = text.replace("version:understudy-0.1.0", "version:2.6.0").replace('"understudy-0.1.0"', '"2.6.0"')
    return _unpadded(text)


def _unpadded(text: str) -> str:
    return "\n".join(line.lstrip() if "|nrefs:" in line else line for line in text.split("\n"))


BARE_FORMS = [
    ["-m", "bleu", "chrf", "ter"],
    ["-m", "bleu"],
    ["-m", "bleu", "chrf", "ter", "-f", "text"],
    ["-m", "bleu", "chrf", "-b"],
    ["--confidence", "-m", "bleu", "chrf", "ter"],
    ["--confidence", "-m", "ter", "-f", "text"],
    ["-sl"],
    ["-sl", "-f", "json"],
    ["-sl", "-m", "ter", "-f", "json", "-w", "3"],
]


@pytest.mark.parametrize("form", BARE_FORMS, ids=" ".join)
def test_the_bare_form_prints_sacrebleus_output_byte_for_byte(
    form: list[str], tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 200 lines of two systems without a byte-order mark (sacrebleu keeps one glued to a token).
    files = {}
    for name, path in (
        ("ref", REF),
        ("a", HYP),
        ("b", SAMPLE / "newstest2017.PROMT-Rule-based.4735.en-de.de"),
    ):
        files[name] = tmp_path / name
        files[name].write_text("".join(line + "\n" for line in read_raw(path)[:200]), encoding="utf-8")
    argv = [str(files["ref"]), "-i", str(files["a"]), *form]
    status, ours, err = run(capfd, *argv)
    assert status == 0, err
    assert _as_sacrebleus(ours) == _unpadded(run_sacrebleu(argv, capfd, monkeypatch))
    if "-sl" not in form and "--confidence" not in form:
        # Several systems: sacrebleu's JSON table of formatted scores, or its grid.
        several = [str(files["ref"]), "-i", str(files["a"]), str(files["b"]), *form]
        assert _as_sacrebleus(run(capfd, *several)[1]) == run_sacrebleu(several, capfd, monkeypatch)


PAIRED_FORMS = [
    ["-m", "bleu", "--paired-bs", "--paired-bs-n", "60"],
    ["-m", "chrf", "bleu", "--paired-bs", "--paired-bs-n", "60", "-f", "text"],
    ["-m", "bleu", "--paired-bs", "--paired-bs-n", "60", "-f", "latex", "-w", "3"],
    ["-m", "ter", "bleu", "--paired-ar", "--paired-ar-n", "80", "-f", "text"],
    ["-m", "bleu", "ter", "--paired-ar", "--paired-ar-n", "80"],
]


@pytest.mark.parametrize("form", PAIRED_FORMS, ids=" ".join)
def test_the_bare_paired_tests_print_sacrebleus_output_byte_for_byte(
    form: list[str],
    first_thousand: list[Path],
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three systems of 1000 segments: sacrebleu's JSON records, or its grid with its notes (chrF's and
    # TER's bootstrap JSON are left out: sacrebleu 2.6.0 cannot write their float32 means as JSON).
    ref, *systems = first_thousand
    argv = [str(ref), "-i", *map(str, systems), *form]
    status, ours, err = run(capfd, *argv)
    assert status == 0, err
    assert _as_sacrebleus(ours) == run_sacrebleu(argv, capfd, monkeypatch)


def test_sacrebleu_format_environment_variable(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SACREBLEU_FORMAT", "text")
    status, out, _ = run(capfd, str(REF), "-i", str(HYP))
    assert status == 0 and out.startswith("BLEU|nrefs:1|")
    assert run(capfd, "score", str(REF), "-i", str(HYP))[1].startswith("{")  # the subcommand keeps -f


def test_detail_breaks_the_score_down_as_sacrebleu(wmt_sgml, capfd, monkeypatch) -> None:  # noqa: F811
    argv = ["-t", "wmt97", "-l", "en-de", "-i", str(HYP), "-d"]
    theirs = run_sacrebleu([*argv, "-b", "-m", "bleu", "chrf"], capfd, monkeypatch)
    status, ours, err = run(capfd, *argv, "-b", "-m", "bleu", "chrf")
    assert status == 0, err
    assert ours == theirs and "origlang=de domain=ALL" in ours and "origlang=en country=US" in ours
    status, text, _ = run(capfd, *argv)  # -d turns JSON into text, as in sacrebleu
    assert status == 0 and text.startswith("BLEU|nrefs:1|test:wmt97|")
    assert text.splitlines()[1:] == run_sacrebleu(argv, capfd, monkeypatch).splitlines()[1:]


@pytest.mark.parametrize("filters", [["--origlang", "de"], ["--subset", "sport"]], ids=str)
def test_detail_with_a_filter_equals_the_filtered_scores(wmt_sgml, capfd, filters: list[str]) -> None:  # noqa: F811
    # sacrebleu 2.6.0 crashes here (max() of an empty sequence); every row is checked
    # against scoring the same subset directly instead.
    argv = ["-t", "wmt97", "-l", "en-de", "-i", str(HYP), "-b", "-w", "4"]
    status, out, err = run(capfd, *argv, "-d", *filters)
    assert status == 0, err
    first, *rows = out.splitlines()
    assert first == run(capfd, *argv, *filters)[1].strip() and rows
    for row in rows:
        key, rest = row.split(":", 1)
        origlang, where = key.split()
        subset = (
            None if where == "domain=ALL" else where.replace("country=", "country:").replace("domain=", "")
        )
        wanted = ["--origlang", origlang.removeprefix("origlang=")] + (["--subset", subset] if subset else [])
        if filters[0] == "--origlang":
            assert origlang == "origlang=de"
        else:
            assert subset in (None, "sport")
        assert rest.split(" = ")[1] == run(capfd, *argv, *wanted)[1].strip(), row


def test_echo_list_citation_and_download(wmt_sgml, capfd, monkeypatch) -> None:  # noqa: F811
    for argv in (
        ["-t", "wmt97", "-l", "en-de", "--echo", "src", "ref", "docid"],
        ["-t", "wmt97", "-l", "en-de", "--echo", "ref", "--origlang", "de"],
        ["-t", "wmt97", "--list"],
        ["-t", "wmt97", "-l", "en-de", "--list"],
        ["--list", "-l", "en-de"],
        ["--list"],
    ):
        status, ours, err = run(capfd, *argv)
        assert status == 0 and ours == run_sacrebleu(argv, capfd, monkeypatch), (argv, err)
    # sacrebleu 2.6.0's --citation raises TypeError ('citation' in a Dataset object).
    status, ours, _ = run(capfd, "-t", "wmt17,wmt97", "--citation")
    assert status == 1 and ours == f"{sacrebleu.DATASETS['wmt17'].citation}\n"
    assert run(capfd, "-t", "wmt17", "--cite")[1] == ours
    status, ours, _ = run(capfd, "--download", "wmt97")
    assert status == 0 and ours.startswith("wmt97: 1 download(s) checked and cached")
    status, _, err = run(capfd, "--echo", "src")
    assert status == 1 and "--echo needs a test set (-t) and a language pair (-l)" in err


def test_encoding(tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    ref, hyp = tmp_path / "ref.latin1", tmp_path / "hyp.latin1"
    ref.write_bytes("Größe Straße Äpfel\nnoch ein Satz\n".encode("latin-1"))
    hyp.write_bytes("Größe Strasse Äpfel\nnoch ein Satz\n".encode("latin-1"))
    argv = [str(ref), "-i", str(hyp), "-e", "latin-1", "-b", "-w", "4"]
    status, ours, err = run(capfd, *argv)
    assert status == 0 and ours == run_sacrebleu(argv, capfd, monkeypatch), err
    status, _, err = run(capfd, str(ref), "-i", str(hyp))
    assert status == 1 and f"{hyp}:1: invalid UTF-8 (byte 0xf6" in err
    status, _, err = run(capfd, str(ref), "-i", str(hyp), "-e", "utf-16")
    assert status == 1 and "its newline is not the byte 0x0A" in err
    status, _, err = run(capfd, str(ref), "-i", str(hyp), "-e", "klingon")
    assert status == 1 and "unknown encoding 'klingon'" in err


def _process(
    *argv: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "understudy", *argv],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        check=False,
    )


def test_exit_codes_and_quiet_as_a_separate_process(tmp_path: Path) -> None:
    ref = tmp_path / "ref.ja"
    ref.write_text("今日は良い天気です\n明日は雨です\n", encoding="utf-8")
    # Two TAB fields on line 1, one on line 2: sacrebleu's status 17.
    done = _process(str(ref), stdin="今日は\t良い\n明日\n".encode())
    assert done.returncode == 17 and b"expected 2 TAB-separated" in done.stderr
    loud = _process(str(ref), "-i", str(ref), "-l", "en-ja", "-tok", "char", "-b")
    assert loud.returncode == 0 and b"consider the 'ja-mecab' tokenizer" in loud.stderr
    quiet = _process(str(ref), "-i", str(ref), "-l", "en-ja", "-tok", "char", "-b", "-q")
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, b"100.0\n", b"")
    for flags in (["--force"], ["-nc"], ["--no-color"], ["--paired-jobs", "0"]):
        assert _process(str(ref), "-i", str(ref), "-tok", "char", "-b", *flags).stdout == b"100.0\n", flags


def test_mistakes_get_the_right_parsers_message(capfd: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capfd, str(REF), "-i", str(HYP), "--bogus")
    assert status == 2 and "understudy: error: unrecognized arguments: --bogus" in err
    # One line, no usage block (issue 41): the hint names where the options are.
    assert "run 'understudy score --help' for the options" in err and err.count("\n") == 1
    status, _, err = run(capfd, "pairwise", "--bogus")
    assert status == 2 and "understudy: error:" in err and "run 'understudy pairwise --help'" in err
    status, _, err = run(capfd, "scroe", str(REF))
    assert (
        status == 2 and "unknown command 'scroe' (and no such reference file); did you mean 'score'?" in err
    )
    status, out, _ = run(capfd, "-V")
    assert (status, out) == (0, "understudy 0.1.0\n")


def test_paired_randomization_is_sacrebleus_without_an_interval(capfd: pytest.CaptureFixture[str]) -> None:
    import sacrebleu
    from sacrebleu.significance import PairedTest

    argv = ["score", str(REF), "-i", *map(str, SYSTEMS), "-par", "-parn", "300", "-w", "2"]
    status, ours, err = run(capfd, *argv, "--p-values", "sacrebleu", "-f", "json")
    assert status == 0, err
    record = json.loads(ours)
    # As sacrebleu's command line: no bootstrap interval beside randomization, none in the signature.
    assert "bs:" not in record["signature"] and record["baseline"]["mean"] is None
    named: list[tuple[str, Sequence[str]]] = [(str(p), read_raw(p)) for p in SYSTEMS]
    theirs: Any = PairedTest(named, {"BLEU": sacrebleu.BLEU(references=[read_raw(REF)])}, None, "ar", 300)()[
        1
    ]
    assert [s["p_value"] for s in record["systems"]] == [r.p_value for r in theirs["BLEU"][1:]]
    assert all(r.mean is None for r in theirs["BLEU"])


def test_the_grid_without_tabulate_names_the_extra(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "tabulate", None)  # as if the 'tables' extra were not installed
    status, out, err = run(capfd, str(REF), "-i", *map(str, SYSTEMS[:2]), "-f", "text")
    assert status != 0 and out == ""
    assert err.strip().endswith("pip install 'understudy-mt[tables]'") and len(err.strip().splitlines()) == 1


def test_bare_ter_with_three_references_is_sacrebleus_float_sum(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Averages over 3 references are not exact floats: sacrebleu adds them in order, understudy's
    # own score sums exactly; the bare form gives sacrebleu's number to the bit. On the first
    # 1000 lines: sacrebleu's TER takes seconds a reference on the whole sample.
    ref, *others = first_lines([REF, *SYSTEMS[:3]], tmp_path)
    argv = [str(ref), *map(str, others[1:3]), "-i", str(others[0]), "-m", "ter", "-w", "14"]
    theirs = json.loads(run_sacrebleu(argv, capfd, monkeypatch))["score"]
    assert json.loads(run(capfd, *argv)[1])["score"] == theirs
    exact = json.loads(run(capfd, "score", *argv)[1])["score"]
    assert abs(exact - theirs) < 1e-9
