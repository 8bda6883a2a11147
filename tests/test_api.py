"""The Python API: typed errors, signatures that parse back, statistics values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from understudy import (
    BLEU,
    BLEUConfig,
    BLEUStats,
    ConfigError,
    EmptyInputError,
    InputError,
    LengthMismatchError,
    NoReferenceError,
    Signature,
    SignatureError,
    corpus_bleu,
    score_rows,
    sentence_bleu,
)


def test_length_mismatch_names_both_lengths() -> None:
    with pytest.raises(
        LengthMismatchError, match="the hypotheses has 2 segments but reference stream 1 has 3"
    ):
        corpus_bleu(["a", "b"], [["a", "b", "c"]])
    with pytest.raises(LengthMismatchError, match="has 2 segments but reference stream 2 has 1"):
        corpus_bleu(["a", "b"], [["a", "b"], ["a"]])


def test_input_type_errors() -> None:
    with pytest.raises(TypeError, match="not a single string"):
        corpus_bleu("a b", [["a b"]])  # a str is a Sequence[str] to a type checker: refused when run
    with pytest.raises(TypeError, match="list of streams"):
        corpus_bleu(["a b"], ["a b"])
    with pytest.raises(TypeError, match="list of reference strings"):
        sentence_bleu("a", "a")
    with pytest.raises(EmptyInputError):
        corpus_bleu([], [[]])


def test_segment_without_any_reference() -> None:
    with pytest.raises(NoReferenceError, match="segment 2 has no reference"):
        corpus_bleu(["a", "b"], [["a", None], [None, None]])


def test_empty_reference_is_a_length_zero_reference_but_none_is_absent() -> None:
    """sacrebleu's documented example: hyp 'a b', refs '' / 'a b c d e f'."""
    with_empty = corpus_bleu(["a b"], [[""], ["a b c d e f"]])
    with_none = corpus_bleu(["a b"], [[None], ["a b c d e f"]])
    assert (with_empty.ref_len, with_empty.bp) == (0, 1.0)
    assert with_none.ref_len == 6 and round(with_none.bp, 3) == 0.135
    assert with_empty.signature.nrefs == 2 and with_none.signature.nrefs == 1


def test_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown tokenizer"):
        BLEU(tokenize="13b")
    with pytest.raises(ConfigError, match="max_ngram_order"):
        BLEU(max_ngram_order=0)
    with pytest.raises(ConfigError, match="unknown smoothing"):
        BLEU(smooth_method="add-one")
    assert BLEU(trg_lang="ja").config.tokenize == "ja-mecab"
    assert BLEU(trg_lang="ko").config.tokenize == "ko-mecab"
    assert BLEU(trg_lang="zh").config.tokenize == "zh"
    with pytest.warns(UserWarning, match="consider the 'ja-mecab' tokenizer"):
        assert BLEU(trg_lang="ja", tokenize="char").config.tokenize == "char"


CONFIGS = [
    BLEUConfig(),
    BLEUConfig(tokenize="zh-fixed", lowercase=True, max_ngram_order=7),
    BLEUConfig(smooth_method="floor", smooth_value=0.123, effective_order=True),
    BLEUConfig(smooth_method="add-k", smooth_value=2.0, tokenize="char"),
    BLEUConfig(smooth_method="none", tokenize="none"),
]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("short", [False, True])
def test_signature_parses_back_to_the_config(config: BLEUConfig, short: bool) -> None:
    sig = Signature(nrefs=None, config=config)
    parsed = Signature.parse(sig.format(short))
    assert parsed == sig and parsed.config == config


def test_sacrebleu_signatures_parse_and_reproduce_the_score() -> None:
    hyps, refs = ["The cat sat on a mat ."], [["The cat sat on the mat ."]]
    theirs = sacrebleu.BLEU(smooth_method="floor", lowercase=True)
    expected = theirs.corpus_score(hyps, refs)
    config = Signature.parse(theirs.get_signature().format(short=True)).config
    assert isinstance(config, BLEUConfig)
    assert config.max_ngram_order == 4 and config.smooth_value == 0.1
    ours = BLEU(
        **{
            k: getattr(config, k)
            for k in (
                "tokenize",
                "lowercase",
                "smooth_method",
                "smooth_value",
                "max_ngram_order",
                "effective_order",
            )
        }
    )
    assert ours.corpus_score(hyps, refs).score == expected.score


@pytest.mark.parametrize(
    "text",
    [
        "nrefs:1",
        "nrefs:1|case:upper|eff:no|tok:13a|smooth:exp",
        "x|y",
        "nrefs:1|case:lc|eff:no|tok:ja-kytea|smooth:exp",
    ],
)
def test_bad_signatures(text: str) -> None:
    with pytest.raises(SignatureError):
        Signature.parse(text)


def test_stats_slice_save_load_and_merge_checks(tmp_path: Path) -> None:
    bleu = BLEU(references=[["a b c d", "e f g", "h i"]])
    stats = bleu.segment_stats(["a b c d", "e f x", "h"])
    assert len(stats[1:]) == 2 and stats[0].rows.tolist() == [[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]]
    stats.save(tmp_path / "s.npz")
    loaded = BLEUStats.load(tmp_path / "s.npz")
    np.testing.assert_array_equal(loaded.rows, stats.rows)
    assert loaded.config == stats.config and loaded.score() == stats.score()
    other = BLEU(lowercase=True).segment_stats(["a"], [["a"]])
    with pytest.raises(ConfigError, match="cannot merge"):
        stats + other
    np.testing.assert_array_equal(stats.sentence_scores(), [r.score for r in stats.sentence_results()])


def test_reference_cache_matches_explicit_references() -> None:
    refs = [["the cat sat on the mat", "a dog"]]
    cached = BLEU(references=refs)
    for hyps in (["the cat sat", "a dog"], ["mat the on", "dog"]):
        assert cached.corpus_score(hyps) == BLEU().corpus_score(hyps, refs)
    with pytest.raises(LengthMismatchError):
        cached.corpus_score(["one"])


def test_lone_surrogates_are_a_typed_error_naming_the_segment() -> None:
    with pytest.raises(InputError, match=r"hypotheses: segment 2 contains a lone surrogate U\+DC00"):
        corpus_bleu(["a", "b \udc00"], [["a", "b"]])
    with pytest.raises(
        InputError, match=r"references: stream 2, segment 1 contains a lone surrogate U\+D800"
    ):
        corpus_bleu(["a"], [["a"], ["\ud800"]])


def test_sentence_results_equal_scoring_each_segment_alone() -> None:
    hyps = ["a b c d", "a x", "q", ""]
    refs = [["a b c d", "a b", None, "z"], ["a b c", None, "q r", None]]
    stats = BLEU(effective_order=True).segment_stats(hyps, refs)
    for i, result in enumerate(stats.sentence_results()):
        alone = stats[i].score()
        assert result == alone
        assert result.signature.nrefs == [2, 1, 1, 1][i]
    with pytest.raises(ConfigError, match="columns"):
        score_rows(np.zeros((1, 5), dtype=np.int64), BLEUConfig())
