"""The family registry and what derives from the declarations: signatures both ways, the command
line's options, direction and range, and statistics that stay exact."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from understudy import BLEU, TER, BLEUConfig, CHRFConfig, Signature, TERConfig
from understudy.cli import build_parser
from understudy.cli.options import scorers
from understudy.config import MetricConfig
from understudy.errors import ConfigError, InputError, SignatureError
from understudy.metrics import CONFIGS, FAMILIES, METRICS
from understudy.metrics.gleu import GLEUConfig
from understudy.metrics.nist import NISTConfig
from understudy.metrics.wer import WERConfig
from understudy.significance import _sums
from understudy.stats import Stats, Totals

from tests.support.families import TEST_FAMILIES, examples


def test_every_family_is_importable_from_the_package() -> None:
    """``from understudy import GLEU`` as ``from understudy import BLEU``: each family's metric
    object, configuration and statistics types, by their own names."""
    import understudy

    for family in FAMILIES.values():
        for kind in (family.metric, family.config, family.stats):
            assert getattr(understudy, kind.__name__) is kind and kind.__name__ in understudy.__all__


def test_every_family_has_a_test_entry() -> None:
    # A family added to understudy.metrics without tests/support/families.py fails here.
    assert list(TEST_FAMILIES) == list(FAMILIES)
    for name, family in FAMILIES.items():
        assert family.config.metric == name == family.stats.metric
        assert family.metric.config_type is family.config and family.metric.stats_type is family.stats
        assert all(type(c) is family.config for c in TEST_FAMILIES[name].examples)


@pytest.mark.parametrize("config", examples(), ids=str)
@pytest.mark.parametrize("short", [False, True])
def test_signature_parses_back_to_an_equal_config(config: MetricConfig, short: bool) -> None:
    for nrefs in (1, None):
        signature = Signature(nrefs, config)
        parsed = Signature.parse(signature.format(short))
        assert parsed == signature and parsed.config == config


@pytest.mark.parametrize("config", examples(), ids=str)
def test_signature_with_a_metric_key_names_its_family(config: MetricConfig) -> None:
    # New families print metric:<family>; sacrebleu's three are read with it too.
    text = f"metric:{config.metric}|" + Signature(1, config).format()
    assert Signature.parse(text).config == config
    short = f"m:{config.metric}|" + Signature(1, config).format(short=True)
    assert Signature.parse(short).config == config


def test_signature_of_an_unknown_metric_is_refused() -> None:
    with pytest.raises(SignatureError, match="unknown metric 'meteor'"):
        Signature.parse("metric:meteor|nrefs:1|version:x")
    with pytest.raises(SignatureError, match="signature lacks case"):
        Signature.parse("metric:nist|nrefs:1|version:x")


def test_sacrebleu_signatures_are_told_by_their_keys() -> None:
    # sacrebleu 2.6.0's own signatures (sacrebleu-behaviour.md): no ngram, no beta.
    bleu = Signature.parse("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0").config
    chrf = Signature.parse("nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0").config
    ter = Signature.parse("nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0").config
    assert (bleu, chrf, ter) == (BLEUConfig(), CHRFConfig(), TERConfig())


def _parse(argv: list[str]) -> Any:
    return build_parser().parse_args(["score", "ref", "-i", "hyp", *argv])


def test_command_line_defaults_are_the_configs_defaults() -> None:
    args = _parse(["-m", *FAMILIES, "-j", "1"])
    assert [m.config for m in scorers(args, sentence_level=False)] == [c() for c in CONFIGS.values()]
    sentence = [m.config for m in scorers(args, sentence_level=True)]
    assert sentence == [c().for_sentences() for c in CONFIGS.values()]
    # What for_sentences changes: BLEU's effective order, as sacrebleu's sentence_bleu sets it.
    assert [c for c in sentence if c != type(c)()] == [BLEUConfig(effective_order=True)]


def test_every_declared_flag_reaches_its_field() -> None:
    argv = ["-m", *FAMILIES, "-j", "1", "-tok", "intl", "-lc", "-s", "floor", "-sv", "0.2"]
    argv += ["--max-ngram-order", "3", "-cc", "4", "-cw", "2", "--chrf-beta", "3", "--chrf-whitespace"]
    argv += ["--chrf-lowercase", "--chrf-eps-smoothing", "--ter-case-sensitive", "--ter-asian-support"]
    argv += ["--ter-no-punct", "--ter-normalized", "--ter-tokenizer", "tercom-fixed"]
    argv += ["--wer-measure", "mer", "--wer-unit", "characters", "--wer-lowercase", "--wer-no-punct"]
    argv += ["--gleu-tokenize", "char", "--gleu-lowercase", "--gleu-min-len", "2", "--gleu-max-len", "3"]
    argv += ["--nist-preserve-case", "--nist-fix-zero", "--normalize-unicode", "nfkc"]
    got = [m.config for m in scorers(_parse(argv), sentence_level=False)]
    nf = {"normalize_unicode": "nfkc"}  # one flag, every text family
    assert got == [
        BLEUConfig("intl", True, "floor", 0.2, 3, False, **nf),
        CHRFConfig(4, 2, 3, True, True, True, **nf),
        TERConfig(True, True, True, True, "tercom-fixed", **nf),
        WERConfig("mer", "characters", True, True, **nf),
        GLEUConfig("char", True, 2, 3, **nf),
        NISTConfig(True, True, **nf),
    ]
    # Every declared flag was given above: none is left out of this test.
    flags = {flag for c in CONFIGS.values() for _, opt in c.options() for flag in opt.flags[:1]}
    assert flags <= set(argv)


def test_bleu_tokenizer_follows_the_target_language() -> None:
    args = build_parser().parse_args(["compare", "ref", "-i", "a", "b", "-l", "en-zh"])
    config = scorers(args, sentence_level=False)[0].config
    assert isinstance(config, BLEUConfig) and config.tokenize == "zh"


@pytest.mark.parametrize("name", [n for n, f in TEST_FAMILIES.items() if f.by_parts])
def test_direction_and_range_are_the_oracles(name: str) -> None:
    """Each family's declared direction and best score, as its oracle scores a perfect
    hypothesis and a poor one (sacrebleu, jiwer, NLTK)."""
    config = FAMILIES[name].config()
    refs = [["the cat sat on the mat today", "a dog barked twice at night"]]
    perfect, poor = refs[0], ["mat the sat", "night dog a"]
    oracle = TEST_FAMILIES[name].oracle(config, None)
    best = oracle.corpus_score(perfect, refs).score
    worse = oracle.corpus_score(poor, refs).score
    assert config.higher_is_better == (best > worse)
    low, high = config.score_range
    assert best == pytest.approx(high if config.higher_is_better else low, abs=1e-12)
    assert (low is None or worse >= low) and (high is None or worse <= high)
    assert TER().segment_stats(["a b"], [["a b c"]]).higher_is_better is False


def test_wer_measures_declare_their_own_direction() -> None:
    # WER's measures declare theirs per configuration: WIP is higher-is-better, and 0..1.
    wip = WERConfig(measure="wip")
    assert (wip.higher_is_better, wip.score_range) == (True, (0.0, 1.0))


def test_float_rows_are_refused() -> None:
    rows = BLEU().segment_stats(["a b c d"], [["a b c d"]]).rows
    stats_type = FAMILIES["bleu"].stats
    with pytest.raises(ConfigError, match="must be integers"):
        stats_type(rows.astype(np.float64), np.array([1]), BLEUConfig())
    with pytest.raises(ConfigError, match="must be integers"):
        stats_type(rows, np.array([1.0]), BLEUConfig())
    with pytest.raises(ConfigError, match="beyond int64"):
        unsigned: Any = rows.astype(np.uint64) + np.uint64(2**63)  # what the annotation refuses, checked
        stats_type(unsigned, np.array([1]), BLEUConfig())
    assert len(stats_type(rows.astype(np.int32), np.array([1], dtype=np.uint8), BLEUConfig())) == 1


@pytest.mark.parametrize("scale", [1, 2**20, 2**42])  # float32, float64, int64 products
def test_resampled_sums_are_exact_at_any_size(scale: int) -> None:
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 1000, size=(300, 3)) * scale + rng.integers(0, 7, size=(300, 3))
    weights = rng.integers(0, 4, size=(40, 300)).astype(np.float64)
    got = _sums(weights, rows.astype(np.int64))
    want = [[sum(int(w) * int(r) for w, r in zip(wr, col, strict=True)) for col in rows.T] for wr in weights]
    assert got.tolist() == want


def test_resampled_sums_beyond_int64_are_refused() -> None:
    rows = np.full((4, 2), 2**62, dtype=np.int64)
    with pytest.raises(InputError, match="beyond int64"):
        _sums(np.ones((2, 4)), rows)


def test_totals_of_every_family_read_back_from_state() -> None:
    for config in examples(first=1):
        metric = METRICS[config.metric].from_config(config)
        stats = metric.segment_stats(["a b c", "d e"], [["a b c", "d f"]])
        back = Totals.from_state(config, stats.totals().state)
        assert back.score() == stats.score() and isinstance(stats, Stats)


def test_ter_length_scale_keeps_averages_exact() -> None:
    # Three references of lengths 1, 2 and 4: the average 7/3 is stored exactly.
    stats = TER().segment_stats(["a"], [["a"], ["a b"], ["a b c d"]])
    assert Fraction(int(stats.rows[0, 1]), TERConfig.length_scale) == Fraction(7, 3)


def test_configs_are_frozen_declarations() -> None:
    for config_type in CONFIGS.values():
        assert dataclasses.is_dataclass(config_type)
        declared = dict(config_type.options())
        keys = [key for _, key, _ in config_type.signature_keys()]
        assert len(keys) == len(set(keys)), config_type
        assert declared, config_type


def test_a_family_that_needs_corpus_is_never_summed_by_parts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from understudy import BLEU, streaming
    from understudy.cli import main
    from understudy.metrics.bleu import BLEUConfig

    hyps, refs = ["the cat sat", "a dog", "the mat"], ["the cat sat down", "a dog barked", "a mat"]
    whole = BLEU().corpus_score(hyps, [refs]).score
    # As NIST will declare it: statistics that depend on the whole reference corpus.
    monkeypatch.setattr(BLEUConfig, "needs_corpus", True)
    bleu = BLEU()
    for attempt, parts in [
        (lambda: bleu.accumulator(), "an accumulator's batches"),
        (
            lambda: bleu.segment_stats(hyps[:1], [refs[:1]]) + bleu.segment_stats(hyps[1:], [refs[1:]]),
            "separately",
        ),
        (
            lambda: (
                bleu.segment_stats(hyps[:1], [refs[:1]]).totals() + bleu.segment_stats(hyps[1:], [refs[1:]])
            ),
            "parts",
        ),
    ]:
        with pytest.raises(ConfigError, match=f"BLEU needs the whole reference corpus .*{parts}"):
            attempt()
    pytest.importorskip("dask")
    from understudy.execution import dask as on_dask

    with pytest.raises(ConfigError, match="Dask partitions"):
        on_dask.corpus_score(bleu, None)
    # The command line reads such a family's input in one pass, whatever its chunk size.
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n")
    monkeypatch.setattr(streaming, "CHUNK_LINES", 1)
    assert main([str(tmp_path / "r.txt"), "-i", str(tmp_path / "h.txt"), "-b", "-w", "6"]) == 0
    assert capsys.readouterr().out == f"{whole:.6f}\n"
    assert main([str(tmp_path / "r.txt"), "-i", str(tmp_path / "h.txt"), "--dask", "local"]) == 1
    assert "needs the whole corpus at once" in capsys.readouterr().err


def test_the_ground_registry_names_each_family_as_its_module_does() -> None:
    from understudy import registry

    assert list(registry.TEXT_FAMILIES) == list(FAMILIES)
    assert {name: registry.family(name).name for name in registry.MODULES} == {n: n for n in registry.MODULES}
    assert registry.find("scores") is not None and registry.find("comet") is None
