"""TER against sacrebleu 2.6.0: every WMT17 system's rows and corpus score (recorded), long and
lopsided sentences through the beam, the beam's widening and candidate cap (recorded), and
``tercom-fixed``, which tokenizes references once.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from understudy import TERConfig

from tests.support.parity import TEXT, as_their_layout, assert_parity, ours, theirs
from tests.support.paths import FIXTURES
from tests.support.recorded_oracles import TER_BEAM_PAIRWISE, recorded, ter_beam_cases

TER_FIXTURE = FIXTURES / "ter_wmt17.json.gz"


def test_every_wmt17_system_ter_corpus_and_rows(
    wmt17_dir: Path, wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> None:
    """sacrebleu's TER of the 16 systems, recorded by scripts/ter_wmt17_fixture.py (recomputing it
    took 567 s of CPU a run); the rows of one system are also checked against sacrebleu live below
    (test_every_path_on_wmt17)."""
    recorded = json.loads(gzip.decompress(TER_FIXTURE.read_bytes()))
    regenerate = f"the WMT17 data changed: regenerate the fixture with {recorded['command']}"
    assert recorded["reference_sha256"] == _sha256(wmt17_dir / "newstest2017.ref.en-de.de"), regenerate
    assert recorded["oracle"].startswith("sacrebleu 2.6.0")
    config = TERConfig()
    scores = ours(config, references=[wmt17_ref]).segment_stats_many(list(wmt17_systems.values()))
    assert sorted(recorded["systems"]) == sorted(wmt17_systems)
    for name, stats in zip(wmt17_systems, scores, strict=True):
        expected = recorded["systems"][name]
        path = next(wmt17_dir.glob(f"newstest2017.{name}.*en-de.de"))
        assert expected["sha256"] == _sha256(path), regenerate
        rows = np.array(expected["rows"], dtype=np.float64)
        np.testing.assert_array_equal(stats.rows[:, 0], rows[:, 0], err_msg=name)
        assert (stats.rows[:, 1] / config.length_scale == rows[:, 1]).all(), name
        assert stats.score().score == expected["score"], name


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@settings(max_examples=40, deadline=None)
@given(
    hyp=st.lists(st.sampled_from("abcdefg"), min_size=0, max_size=70).map(" ".join),
    ref=st.lists(st.sampled_from("abcdefg"), min_size=0, max_size=70).map(" ".join),
)
def test_ter_long_and_lopsided_sentences(hyp: str, ref: str) -> None:
    # Long repetitive sentences exercise the beam, the shift limits and the candidate cap.
    assert_parity(TERConfig(), [hyp, ref], [[ref, hyp]], pairwise=2, sentences=2)


def test_ter_beam_widening_and_candidate_cap() -> None:
    # sacrebleu's answers, recorded by scripts/sacrebleu_slow_fixtures.py (asked live, 79 s).
    hyps, refs = ter_beam_cases()
    answer = recorded()["ter_beam"]
    config = TERConfig()
    stats = ours(config, references=[refs]).segment_stats(hyps)
    np.testing.assert_array_equal(as_their_layout(config, stats.rows), np.array(answer["rows"]))
    one_shot = ours(config, threads=1)
    np.testing.assert_array_equal(one_shot.segment_stats(hyps, [refs]).rows, stats.rows)
    assert stats.score().score == answer["corpus"]
    assert ours(config, references=[refs]).sentence_scores(hyps).tolist() == answer["sentences"]
    k = TER_BEAM_PAIRWISE
    assert one_shot.pairwise(hyps[:k], refs[:k]).tolist() == answer["pairs"]


@settings(max_examples=60, deadline=None)
@given(hyps=st.lists(TEXT, min_size=1, max_size=4), normalized=st.booleans(), asian=st.booleans())
def test_tercom_fixed_tokenizes_references_once(hyps: list[str], normalized: bool, asian: bool) -> None:
    fixed = TERConfig(normalized=normalized, asian_support=asian, tokenizer="tercom-fixed")
    # A hypothesis equal to its reference needs no edit, whatever the text.
    assert ours(fixed).segment_stats(hyps, [hyps]).rows[:, 0].tolist() == [0] * len(hyps)
    # Where tokenizing twice changes nothing, the fix is sacrebleu's TER.
    sacre = TERConfig(normalized=normalized, asian_support=asian)
    tokenizer = theirs(sacre).tokenizer
    refs = [tokenizer(tokenizer(h.rstrip())) for h in hyps]
    if all(tokenizer(r) == r for r in refs):
        np.testing.assert_array_equal(
            ours(fixed).segment_stats(hyps, [refs]).rows, ours(sacre).segment_stats(hyps, [refs]).rows
        )
