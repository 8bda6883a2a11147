"""What a new user meets first: help that matches the command, errors before slow work, warnings
about likely mistakes, cache states that are current."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from understudy.text import external_tokenizers

from tests.cli.test_testset import SYSTEMS, wmt_sgml  # noqa: F401  (a fixture)
from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE

REF = SAMPLE / "newstest2017.ref.en-de.de"


def test_testset_info_after_fetching_says_cached(wmt_sgml, capfd) -> None:  # noqa: F811
    status, out, err = run(capfd, "testset", "info", "wmt97", "-l", "en-de")
    assert status == 0, err
    assert "(cached)" in out and "(not cached)" not in out and "en-de: 3004 segments" in out


def test_a_missing_extra_is_named_before_fetching(wmt_sgml, capfd, monkeypatch) -> None:  # noqa: F811
    monkeypatch.setattr(external_tokenizers, "_loaded", {})
    monkeypatch.setitem(sys.modules, "MeCab", None)
    status, _, err = run(
        capfd, "score", "-t", "wmt97", "-l", "en-de", "-tok", "ja-mecab", "-i", str(SYSTEMS[0])
    )
    assert status == 1 and "needs the 'ja' extra: pip install 'understudy-mt[ja]'" in err
    assert not (wmt_sgml.cache_dir / "downloads").exists()


def test_a_system_file_that_is_a_reference_file_is_warned_about(capfd) -> None:
    for extra in (["score", "-b"], ["compare", "-n", "20"]):
        with pytest.warns(UserWarning, match=f"system file {REF} is also reference file {REF}"):
            status, _, err = run(capfd, extra[0], str(REF), "-i", str(REF), str(SYSTEMS[0]), *extra[1:])
        assert status == 0, err


def test_commands_without_a_test_set_take_l_for_the_tokenizer(capfd, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(sys, "stdin", open(tmp_path / "in.txt", "w+", encoding="utf-8"))  # noqa: SIM115
    sys.stdin.write("美众院公布对特\n")
    sys.stdin.seek(0)
    status, by_language, err = run(capfd, "tokenize", "-l", "en-zh")
    assert status == 0, err
    sys.stdin.seek(0)
    assert by_language == run(capfd, "tokenize", "-tok", "zh")[1] == "美 众 院 公 布 对 特\n"
    for command in ("compare", "pairwise", "tokenize"):
        status, out, _ = run(capfd, command, "--help")
        assert status == 0 and "-l SRC-TRG, --language-pair SRC-TRG" in out
