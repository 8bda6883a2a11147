"""Every code point, through every Python-defined behaviour the tokenizers depend on.

The Rust tables are generated from CPython 3.11 (Unicode 14.0.0) and regex 2026.11.15;
under those versions these tests compare all 1,112,064 scalar values with sacrebleu.
"""

from __future__ import annotations

import sys
import unicodedata

import pytest
import regex
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
from understudy import tokenize

from tests.support.recorded_oracles import lines_sha256, recorded, unicode_lines

pytestmark = pytest.mark.skipif(
    unicodedata.unidata_version != "14.0.0" or regex.__version__ != "2026.11.15",
    reason="the tables are pinned to Unicode 14.0.0 (CPython 3.11) and regex 2026.11.15",
)

ALL_CHARS = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]


def test_whitespace_is_pythons() -> None:
    lines = [f"a{c}b" for c in ALL_CHARS]
    assert tokenize(lines, "none") == [" ".join(line.split()) for line in lines]


def test_lowercase_is_pythons_str_lower() -> None:
    lines = [f"x{c}" for c in ALL_CHARS]
    assert tokenize(lines, "none", lowercase=True) == [" ".join(line.lower().split()) for line in lines]


@pytest.mark.parametrize("context", ["A{}Σ", "AΣ{}", "AΣ{}B", "{}Σ", "Σ{}"])
def test_final_sigma_in_every_context(context: str) -> None:
    lines = [context.format(c) for c in ALL_CHARS]
    assert tokenize(lines, "none", lowercase=True) == [" ".join(line.lower().split()) for line in lines]


@pytest.mark.parametrize("name", ["intl", "zh"])
def test_intl_classes_and_zh_ranges_bug_for_bug(name: str) -> None:
    # sacrebleu's tokens of every code point, recorded (their SHA-256, by
    # scripts/sacrebleu_slow_fixtures.py: asked live they cost 30 s of every run); every 97th
    # code point's line against sacrebleu live.
    record = recorded()["unicode"]
    assert (record["unicode"], record["regex"]) == (unicodedata.unidata_version, regex.__version__)
    lines = unicode_lines(name)
    ours = tokenize(lines, name)
    assert lines_sha256(ours) == record[name]
    theirs = TokenizerV14International() if name == "intl" else TokenizerZh()
    assert ours[::97] == [theirs(line.rstrip()) for line in lines[::97]]
