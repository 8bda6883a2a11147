"""The options every text metric has for Unicode (``--normalize-unicode``) and the ``cjk`` tokenizer.

Oracles: Python's ``unicodedata`` for the forms (on characters Unicode 14, CPython 3.11's
version, assigns: no assigned character's normalisation changes in a later version), each
family's unnormalised score of text ``unicodedata`` normalised (sacrebleu's for BLEU, chrF
and TER), and sacrebleu's ``13a`` and ``zh`` tokenizers for ``cjk``.
"""

from __future__ import annotations

import io
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh
from understudy import BLEU, tokenize
from understudy.config import UNICODE_FORMS, MetricConfig
from understudy.errors import ConfigError, InputTypeError
from understudy.metrics import FAMILIES
from understudy.signature import Signature
from understudy.text.normalization import normalize

from tests.support.cli import run_cli
from tests.support.families import TEST_FAMILIES

FORMS: dict[str, Literal["NFC", "NFKC"]] = {"nfc": "NFC", "nfkc": "NFKC"}
ASSIGNED = [
    chr(c)
    for c in range(sys.maxunicode + 1)
    if not 0xD800 <= c < 0xE000 and unicodedata.category(chr(c)) != "Cn"
]
needs_unicode_14 = pytest.mark.skipif(
    unicodedata.unidata_version != "14.0.0", reason="ASSIGNED is Unicode 14.0.0's (CPython 3.11)"
)


@needs_unicode_14
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("context", ["{}", "e{}", "{}\u0301", "\u1100{}\u11a8", "{}\u0323\u0301"])
def test_every_assigned_character_normalises_as_unicodedata(form: str, context: str) -> None:
    lines = [context.format(c) for c in ASSIGNED]
    assert normalize(lines, form) == [unicodedata.normalize(FORMS[form], line) for line in lines]


assigned_text = st.text(st.sampled_from([*ASSIGNED[:0x3400], "\u0301", "\u0323", "\u1161", "\u11a8"]))


@given(st.lists(assigned_text, min_size=1, max_size=8), st.sampled_from(list(FORMS)))
@settings(max_examples=200, deadline=None)
def test_random_text_normalises_as_unicodedata(lines: list[str], form: str) -> None:
    assert normalize(lines, form) == [unicodedata.normalize(FORMS[form], line) for line in lines]


def test_text_already_in_the_form_is_not_copied_and_none_stays_none() -> None:
    lines = ["plain", "café", None]
    out = normalize(lines, "nfc")
    assert out == lines and all(a is b for a, b in zip(out, lines, strict=True))


def test_unknown_form_and_bad_text_are_typed_errors() -> None:
    with pytest.raises(ConfigError, match="unknown Unicode normalisation 'nfd'"):
        normalize(["x"], "nfd")
    with pytest.raises(ConfigError, match="nfd"):
        BLEU(normalize_unicode="nfd")
    with pytest.raises(InputTypeError, match="segment 2 is int"):
        normalize(["a", 3], "nfc")  # type: ignore[type-var]
    with pytest.raises(InputTypeError, match="hypotheses: segment 2 is int"):
        BLEU(normalize_unicode="nfc").corpus_score(["a", 3], [["a", "b"]])  # type: ignore[list-item]


def _decomposed(lines: list[str]) -> list[str]:
    # The same text as a user's file may hold it: every composed character taken apart, and
    # compatibility characters where NFKC has something to fold.
    return [
        unicodedata.normalize("NFD", line).replace("fi", "\ufb01").replace("1", "\uff11") for line in lines
    ]


def _configs() -> list[MetricConfig]:
    return [family.examples[0] for family in TEST_FAMILIES.values()]


def _with_form(config: MetricConfig, form: str) -> MetricConfig:
    import dataclasses

    changed: MetricConfig = dataclasses.replace(config, **{"normalize_unicode": form})  # every text family's
    return changed


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("config", _configs(), ids=lambda c: c.metric)
def test_every_family_scores_normalised_text_as_if_given_it(
    config: MetricConfig, form: str, wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    # The hypotheses decomposed, the references as given (composed): unnormalised, they differ.
    hyps = _decomposed(next(iter(wmt17_systems.values()))[:300])
    refs = [wmt17_ref[:300]]
    oracle_hyps = [unicodedata.normalize(FORMS[form], h) for h in hyps]
    oracle_refs = [[unicodedata.normalize(FORMS[form], r) for r in refs[0]]]
    family = FAMILIES[config.metric].metric
    plain = family.from_config(config)
    metric = family.from_config(_with_form(config, form))
    expected = plain.segment_stats(oracle_hyps, oracle_refs)
    # Every path text takes into the core: references used once, cached, and all pairs.
    assert np.array_equal(metric.segment_stats(hyps, refs).rows, expected.rows)
    cached = family.from_config(_with_form(config, form), references=refs)
    assert np.array_equal(cached.segment_stats(hyps).rows, expected.rows)
    assert np.array_equal(
        metric.pairwise(hyps[:20], refs[0][:30]), plain.pairwise(oracle_hyps[:20], oracle_refs[0][:30])
    )
    # The option changes these numbers: the text has something to normalise.
    assert not np.array_equal(plain.segment_stats(hyps, refs).rows, expected.rows)


def _sacrebleu(name: str) -> Any:
    return {"bleu": SacreBLEU(), "chrf": SacreCHRF(), "ter": SacreTER()}[name]


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_sacrebleu_on_normalised_text_gives_the_same_score(
    name: str, wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    hyps = _decomposed(wmt17_systems["uedin-nmt"][:500])
    refs = [wmt17_ref[:500]]
    expected = _sacrebleu(name).corpus_score(
        [unicodedata.normalize("NFKC", h) for h in hyps],
        [[unicodedata.normalize("NFKC", r) for r in refs[0]]],
    )
    metric = FAMILIES[name].metric.from_config(_with_form(FAMILIES[name].config(), "nfkc"))
    assert metric.corpus_score(hyps, refs).score == expected.score


def test_python_tokenizers_get_normalised_text_first() -> None:
    pytest.importorskip("MeCab")
    hyps, refs = ["ｶﾀｶﾅで書いた文です。"], [["カタカナで書いた文です。"]]
    folded = [unicodedata.normalize("NFKC", h) for h in hyps]
    metric = BLEU(tokenize="ja-mecab", normalize_unicode="nfkc")
    assert (
        metric.corpus_score(hyps, refs).score
        == BLEU(tokenize="ja-mecab").corpus_score(folded, refs).score
        == pytest.approx(100)
    )
    assert metric.matched_tokens(hyps, refs) == BLEU(tokenize="ja-mecab").matched_tokens(folded, refs)


def test_report_counts_see_normalised_text() -> None:
    hyps, refs = ["cafe\u0301 au lait"], [["café au lait"]]
    counts = BLEU(normalize_unicode="nfc").ngram_matches(hyps, refs)
    assert counts.matched.tolist() == counts.hyp.tolist()


def test_the_default_changes_no_signature_and_a_form_parses_back() -> None:
    for family in FAMILIES.values():
        assert "unicode" not in str(Signature(1, family.config()))
    config = _with_form(FAMILIES["chrf"].config(), "nfkc")
    long, short = Signature(1, config).format(), Signature(1, config).format(short=True)
    assert "|unicode:nfkc|" in long and "|nf:nfkc|" in short
    assert Signature.parse(long).config == Signature.parse(short).config == config
    # A signature from before the key existed reads as the default.
    assert (
        Signature.parse("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0").config == BLEU().config
    )
    assert set(UNICODE_FORMS) == {"none", *FORMS}


def test_command_line_normalises_for_every_metric(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "hyp").write_text("le cafe\u0301 au lait noir\n", encoding="utf-8")
    (tmp_path / "ref").write_text("le café au lait noir\n", encoding="utf-8")
    argv = ["score", str(tmp_path / "ref"), "-i", str(tmp_path / "hyp"), "-m", "bleu", "chrf", "wer", "-b"]
    code, out, err = run_cli(capsys, *argv, "--normalize-unicode", "nfc")
    assert code == 0, err
    assert json.loads(out) == [100.0, 100.0, 0.0]  # one flag, every metric
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and json.loads(out)[2] == 0.2, err  # one substitution in five words


def test_tokenize_command_normalises_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("ｶﾀｶﾅ 今日は ﬁne\n".encode())))
    code, out, err = run_cli(capsys, "tokenize", "--normalize-unicode", "nfkc", "-tok", "cjk")
    assert (code, out) == (0, "カ タ カ ナ 今 日 は fine\n"), err


# ---- the cjk tokenizer ----

sacrebleu_13a, sacrebleu_zh = Tokenizer13a(), TokenizerZh()
SCRIPT_NAMES = (
    "CJK UNIFIED IDEOGRAPH",
    "CJK COMPATIBILITY IDEOGRAPH",
    "HIRAGANA",
    "KATAKANA",
    "HANGUL",
    "BOPOMOFO",
)


@needs_unicode_14
def test_cjk_splits_every_han_kana_hangul_and_bopomofo_character() -> None:
    chars = [c for c in ASSIGNED if unicodedata.name(c, "").startswith(SCRIPT_NAMES) and not c.isspace()]
    assert len(chars) > 90_000  # Unicode 14 has 92,856 Han ideographs alone
    assert tokenize([f"a{c}b" for c in chars], "cjk") == [f"a {c} b" for c in chars]


@needs_unicode_14
def test_cjk_is_13a_on_every_character_before_hangul() -> None:
    lines = [f"a{c}b 1{c}2 .{c}" for c in ASSIGNED if ord(c) < 0x1100]
    assert tokenize(lines, "cjk") == [sacrebleu_13a(line.rstrip()) for line in lines]


@given(st.text(st.characters(max_codepoint=0x10FF, exclude_categories=["Cs"])))
@settings(max_examples=300, deadline=None)
def test_cjk_is_13a_without_cjk_text(line: str) -> None:
    assert tokenize([line], "cjk") == [sacrebleu_13a(line.rstrip())]


# Characters both zh and cjk split (zh's own ranges, less its accidental U+2001..U+2A6D) and
# ASCII but for the two that 13a's replacements read ('&' of entities, '<' of <skipped>).
chinese = st.text(
    st.one_of(
        st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5),
        st.characters(min_codepoint=0x3000, max_codepoint=0x303F),
        st.characters(min_codepoint=0xFF00, max_codepoint=0xFFEF),
        st.sampled_from([c for c in map(chr, range(0x20, 0x7F)) if c not in "&<"]),
    )
)


@given(chinese)
@settings(max_examples=300, deadline=None)
def test_cjk_is_13a_after_zh_splits_chinese_text(line: str) -> None:
    # sacrebleu's zh tokenizes the line unpadded (``0.`` at its end stays whole, where 13a splits
    # it): the oracle is sacrebleu's 13a of the text with zh's characters split by zh's own test.
    padded = "".join(f" {c} " if TokenizerZh._is_chinese_char(c) else c for c in line)
    assert tokenize([line], "cjk") == [sacrebleu_13a(padded.rstrip())]


def test_cjk_splits_the_kana_zh_leaves_whole() -> None:
    # sacrebleu issue 171: character-level BLEU of Japanese, as the WMT20 en-ja papers report it.
    line = "今日はいい天気ですね。"
    assert tokenize([line], "cjk") == [" ".join(line)]
    assert tokenize([line], "zh") == [sacrebleu_zh(line)] != [" ".join(line)]
    assert BLEU(tokenize="cjk").corpus_score([line], [[line]]).signature.format().count("tok:cjk") == 1
