"""chrF and chrF++ against sacrebleu 2.6.0: every WMT17 system's statistics rows and corpus
score.
"""

from __future__ import annotations

import numpy as np
import pytest
from understudy import CHRF, CHRFConfig

from tests.support.parity import ours, their_rows, theirs
from tests.support.recorded_oracles import SWEEP_CONFIGS, rows_sha256, swept

CHRF_SWEEPS = [c for c in SWEEP_CONFIGS if isinstance(c, CHRFConfig)]


@pytest.mark.parametrize("config", CHRF_SWEEPS, ids=str)
def test_every_wmt17_system_corpus_and_rows(
    config: CHRFConfig, wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    # Every system against sacrebleu's rows and corpus score (recorded by
    # scripts/sacrebleu_slow_fixtures.py), one of them against sacrebleu live.
    record = swept(config, wmt17_systems, wmt17_ref)
    scores = ours(config, references=[wmt17_ref]).segment_stats_many(
        [wmt17_systems[name] for name in record["systems"]]
    )
    live = record["systems"][7 * CHRF_SWEEPS.index(config) + 3]
    for k, (name, stats) in enumerate(zip(record["systems"], scores, strict=True)):
        assert rows_sha256(stats.rows) == record["rows_sha256"][k], name
        assert stats.score().score == record["scores"][k], name
        if name == live:
            sacre = theirs(config, [wmt17_ref])
            expected = their_rows(config, sacre, wmt17_systems[name], None)
            np.testing.assert_array_equal(stats.rows, expected, err_msg=name)
            assert stats.score().score == sacre._aggregate_and_compute(expected.tolist()).score, name


@pytest.mark.parametrize(
    "options",
    [{}, {"word_order": 2}, {"eps_smoothing": True}, {"lowercase": True, "whitespace": True}, {"beta": 1}],
    ids=str,
)
def test_sentence_scores_are_sacrebleus(
    options: dict[str, object], wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    from sacrebleu.metrics import CHRF as SacreCHRF

    hyps = [*next(iter(wmt17_systems.values()))[:200], "", "x", wmt17_ref[0]]
    refs = [*wmt17_ref[:200], "a reference", "", wmt17_ref[0]]
    sacre = SacreCHRF(**options)  # type: ignore[arg-type]
    expected = [sacre.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    assert CHRF(**options).sentence_scores(hyps, [refs]).tolist() == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(("word_order", "name"), [(0, "chrF2"), (2, "chrF2++"), (1, "chrF2+")])
def test_the_name_and_signature_are_sacrebleus(word_order: int, name: str) -> None:
    from sacrebleu.metrics import CHRF as SacreCHRF

    sacre = SacreCHRF(word_order=word_order)
    ours_ = CHRF(word_order=word_order).corpus_score(["a cat"], [["a cat"]])
    theirs_ = sacre.corpus_score(["a cat"], [["a cat"]])
    assert (ours_.name, ours_.score) == (theirs_.name, theirs_.score) == (name, 100.0)
    # sacrebleu's keys with sacrebleu's values; understudy adds nrefs and beta, and its version.
    mine = dict(pair.split(":", 1) for pair in ours_.format().split(" = ")[0].split("|")[1:])
    expected = dict(pair.split(":", 1) for pair in str(sacre.get_signature()).split("|")[1:])
    assert {key: mine[key] for key in expected if key != "version"} == {
        key: value for key, value in expected.items() if key != "version"
    }
