"""The metric objects of every metric: pickling, signatures that parse back, saved statistics,
typed errors, and properties every metric must have."""

from __future__ import annotations

import dataclasses
import inspect
import os
import pickle
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from understudy import (
    BLEU,
    CHRF,
    TER,
    CHRFConfig,
    ConfigError,
    InputError,
    InputFileError,
    InputTypeError,
    LengthMismatchError,
    NoReferenceError,
    Signature,
    Stats,
    TERConfig,
    Totals,
    _core,
)
from understudy.datasets import FetchPolicy
from understudy.metric import Metric
from understudy.metrics import FAMILIES, metric_for
from understudy.threads import ThreadsCappedWarning

from tests.support.families import examples

HYPS = ["the cat sat on the mat", "a dog barked", "", "Nima's, x"]
REFS: list[list[str | None]] = [["the cat sat on a mat", "the dog barked", "nothing", "Nima's, x"]]
METRICS = [metric_for(config) for config in examples(*FAMILIES, first=2)]
"""Two configurations of every family of the registry (tests/support/families.py): a family
added is tested here."""
CHRF_AND_TER: list[Metric[Any, Any]] = [
    CHRF(),
    CHRF(word_order=2, beta=1),
    TER(),
    TER(normalized=True, tokenizer="tercom-fixed"),
]


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.config.name)
def test_pickled_metric_scores_the_same(metric: Metric[Any, Any]) -> None:
    cached = type(metric).__new__(type(metric))
    cached._setup(metric.config, REFS, 1)
    clone = pickle.loads(pickle.dumps(cached))
    assert clone.config == metric.config
    assert clone.corpus_score(HYPS) == cached.corpus_score(HYPS)
    assert pickle.loads(pickle.dumps(metric)).corpus_score(HYPS, REFS) == metric.corpus_score(HYPS, REFS)


CHOSEN_LATER = {("bleu", "tokenize")}
"""Constructor defaults that are not the configuration's: BLEU's tokenizer follows ``trg_lang``."""


@pytest.mark.parametrize("name", FAMILIES)
def test_metric_objects_take_every_option_with_the_configurations_default(name: str) -> None:
    family = FAMILIES[name]
    parameters = inspect.signature(family.metric.__init__).parameters
    for option in (f for f in dataclasses.fields(family.config) if f.init):
        assert option.name in parameters, f"{family.metric.__name__} cannot set {option.name}"
        if (name, option.name) not in CHOSEN_LATER:
            assert parameters[option.name].default == option.default, option.name
    # and the object's configuration is the default one, option for option
    assert family.metric().config == family.config()


def test_core_scorers_pickle_by_configuration() -> None:
    for scorer in (
        _core.families.Scorer("bleu", {"tokenizer": "intl", "lowercase": True, "max_order": 3}),
        _core.families.Scorer(
            "chrf", {"char_order": 4, "word_order": 2, "lowercase": True, "whitespace": False}
        ),
        _core.families.Scorer(
            "ter",
            {
                "normalized": True,
                "no_punct": False,
                "asian_support": True,
                "case_sensitive": False,
                "fixed": True,
            },
        ),
    ):
        clone = pickle.loads(pickle.dumps(scorer))
        rows, _ = scorer.sentence_stats(HYPS, REFS)
        np.testing.assert_array_equal(clone.sentence_stats(HYPS, REFS)[0], rows)


def test_core_configurations_are_read_by_name() -> None:
    # A missing or misspelt key is an error, never a default or a neighbour's value; and each is
    # understudy's own ConfigError, not a bare KeyError or TypeError.
    with pytest.raises(ConfigError, match="the ter scorer's configuration: KeyError: 'fixed'"):
        _core.families.Scorer(
            "ter", {"normalized": True, "no_punct": False, "asian_support": True, "case_sensitive": False}
        )
    with pytest.raises(ConfigError, match=r"the bleu scorer's configuration: TypeError: .*lowercase"):
        _core.families.Scorer("bleu", {"tokenizer": "13a", "lowercase": "yes", "max_order": 4})
    with pytest.raises(
        ConfigError, match="unknown metric family 'meteor'; known: bleu, chrf, ter, wer, gleu, nist"
    ):
        _core.families.Scorer("meteor", {})
    with pytest.raises(ConfigError, match="the nist scorer's configuration: KeyError: 'preserve_case'"):
        _core.families.Scorer("nist", {})
    with pytest.raises(ConfigError, match="rows"):
        _core.families.Scorer("bleu", FAMILIES["bleu"].config().core_config()).pairwise(["a"], ["a"]).rows(
            2, 1
        )
    assert _core.families.family_names() == list(FAMILIES)
    for name, family in FAMILIES.items():
        assert _core.families.Scorer(name, family.config().core_config()).family == name


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.config.name)
def test_signatures_parse_back_long_and_short(metric: Metric[Any, Any]) -> None:
    signature = metric.corpus_score(HYPS, REFS).signature.with_extras([("test", "wmt17"), ("lang", "en-de")])
    for short in (False, True):
        parsed = Signature.parse(signature.format(short))
        assert parsed == signature
        assert parsed.format(short) == signature.format(short)


def test_sacrebleu_signatures_of_chrf_and_ter_parse() -> None:
    chrf = Signature.parse("#:1|c:mixed|e:yes|nc:6|nw:2|s:no|v:2.6.0")
    assert chrf.config == CHRFConfig(word_order=2) and chrf.version == "2.6.0"
    ter = Signature.parse(
        "nrefs:2|test:wmt21|case:mixed|tok:tercom|norm:yes|punct:no|asian:yes|version:2.6.0"
    )
    assert ter.config == TERConfig(normalized=True, no_punct=True, asian_support=True, case_sensitive=True)
    assert ter.extras == (("test", "wmt21"),)


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: m.config.name)
def test_saved_statistics_load_as_their_metric(metric: Metric[Any, Any], tmp_path: Path) -> None:
    stats = metric.segment_stats(HYPS, REFS)
    path = tmp_path / "s.npz"
    stats.save(path)
    loaded = Stats.load(path)
    assert type(loaded) is type(stats) and loaded.config == stats.config
    assert loaded.score() == stats.score()
    assert list(tmp_path.iterdir()) == [path]  # written atomically: no temporary file left
    other = BLEU() if not isinstance(metric, BLEU) else CHRF()
    with pytest.raises(InputFileError, match="statistics, not"):
        type(other.segment_stats(HYPS, REFS)).load(path)


def test_typed_errors() -> None:
    for metric in (CHRF(), TER()):
        with pytest.raises(LengthMismatchError):
            metric.corpus_score(HYPS, [REFS[0][:2]])
        with pytest.raises(NoReferenceError):
            metric.corpus_score(HYPS)
        with pytest.raises(NoReferenceError, match="segment 2"):
            metric.corpus_score(["a", "b"], [["a", None]])
        with pytest.raises(TypeError, match="not a single string"):
            metric.corpus_score("a b", REFS)  # a str is a Sequence[str] to a type checker
    with pytest.raises(ConfigError, match="char_order"):
        CHRF(char_order=65)
    with pytest.raises(ConfigError):
        CHRF(char_order=0, word_order=0)
    with pytest.raises(ConfigError, match="TER tokenizer"):
        TER(tokenizer="13a")
    with pytest.raises(InputError, match="at most 16"):
        TER().corpus_score(["a"], [["a"]] * 17)
    # TER's matrix is quadratic in the sentence length: a pair too long for it is refused,
    # typed, where it would otherwise exhaust memory (and abort the process).
    long = " ".join(["w"] * 9000)
    with pytest.raises(InputError, match="segment 2: TER of a 9000-word hypothesis"):
        TER().corpus_score(["a", long], [["a", long]])
    # chrF's counting memory grows with characters x orders: a sentence beyond the bound is refused.
    import understudy.metrics.chrf

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(understudy.metrics.chrf, "MAX_POSITIONS", 60)
        with pytest.raises(InputError, match="references, segment 2: 11 characters; chrF with 6 orders"):
            CHRF().corpus_score(["a", "b"], [["a", "12345678901"]])
        with pytest.raises(InputError, match="hypotheses, segment 1: 11 characters"):
            CHRF().pairwise(["12345678901"], ["b"])
        assert CHRF().corpus_score(["1234567890"], [["1234567890"]]).score == 100.0


TEXT = st.text(alphabet=st.sampled_from("ab c.,'s\u00a0Éé中"), max_size=30)


@settings(max_examples=60, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=6), st.data())
def test_exact_properties(hyps: list[str], data: st.DataObject) -> None:
    refs = [data.draw(st.lists(TEXT, min_size=len(hyps), max_size=len(hyps)))]
    for metric in CHRF_AND_TER:
        stats = metric.segment_stats(hyps, refs)
        # Merging is associative and order-free.
        parts = [stats[: len(hyps) // 2], stats[len(hyps) // 2 :]]
        assert (Totals.empty(metric.config) + parts[1] + parts[0]).score() == stats.score()
        assert ((parts[0] + parts[1]) + stats).score() == (parts[0] + (parts[1] + stats)).score()
        # Identical hypothesis and reference give the best score, whenever the text has content.
        best = metric.segment_stats(hyps, [hyps]).sentence_scores()
        for hyp, score in zip(hyps, best, strict=True):
            if hyp.strip() and not (isinstance(metric, TER) and metric.config.tokenizer == "tercom"):
                assert score == (0.0 if isinstance(metric, TER) else 100.0), hyp


def test_a_matrix_larger_than_memory_is_refused_up_front(monkeypatch: pytest.MonkeyPatch) -> None:
    import understudy.metric

    monkeypatch.setattr(understudy.metric, "memory_bytes", lambda: 1000)
    with pytest.raises(InputError, match=r"a 20 x 10 matrix needs .* GiB, more than this machine's"):
        CHRF().pairwise(["a"] * 20, ["b"] * 10)
    assert CHRF().pairwise(["a"] * 10, ["b"] * 10).shape == (10, 10)  # 800 bytes fit


def test_a_failed_write_keeps_the_previous_file(tmp_path: Path) -> None:
    from understudy.files.atomic import atomic_write

    path = tmp_path / "m.npz"
    CHRF().segment_stats(HYPS, REFS).save(path)
    before = path.read_bytes()
    with pytest.raises(KeyboardInterrupt), atomic_write(path) as fh:
        fh.write(b"half a matrix")
        raise KeyboardInterrupt
    assert path.read_bytes() == before and list(tmp_path.iterdir()) == [path]


def test_loading_what_is_not_statistics_is_a_typed_error(tmp_path: Path) -> None:
    for name, data in [("garbage.npz", b"PK\x03\x04 not a zip"), ("text.npz", b"hello")]:
        (tmp_path / name).write_bytes(data)
        with pytest.raises(InputFileError, match="not a statistics file"):
            Stats.load(tmp_path / name)
    with pytest.raises(InputFileError, match=r"missing\.npz"):
        Stats.load(tmp_path / "missing.npz")
    stats = BLEU().segment_stats(HYPS, REFS)
    np.savez(
        tmp_path / "negative.npz",
        rows=-stats.rows,
        refs_per_segment=stats.refs_per_segment,
        config=np.array('{"metric": "bleu"}'),
    )
    with pytest.raises(InputFileError, match="whole numbers >= 0"):
        Stats.load(tmp_path / "negative.npz")


def test_generators_and_huge_thread_counts() -> None:
    with pytest.raises(InputTypeError, match=r"not a generator \(an iterator is read once: pass list"):
        CHRF().corpus_score((h for h in HYPS), REFS)  # type: ignore[arg-type]
    with pytest.warns(ThreadsCappedWarning):
        assert TER(threads=2**70).threads == len(os.sched_getaffinity(0))
    with pytest.raises(ConfigError):
        FetchPolicy(timeout=0)
    with pytest.raises(ConfigError, match="retries"):
        FetchPolicy(retries=-1)
