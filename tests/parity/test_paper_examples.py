"""The worked examples of the BLEU paper (as the lecture notes give them) and the cloud guide."""

from __future__ import annotations

import math

import pytest
from understudy import BLEU, corpus_bleu

# Example 1 of Papineni et al. (2002). The paper counts words, ignoring capitalization
# and the final period, so the period is dropped and the text lowercased.
CANDIDATE_1 = "It is a guide to action which ensures that the military always obeys the commands of the party"
CANDIDATE_2 = "It is to insure the troops forever hearing the activity guidebook that party direct"
REFERENCES = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the "
    "Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
PAPER = BLEU(tokenize="13a", lowercase=True, max_ngram_order=2)


def precisions(hyp: str, refs: list[str]) -> list[tuple[int, int]]:
    result = PAPER.sentence_score(hyp, refs)
    return list(zip(result.counts, result.totals, strict=True))


def test_example_1_modified_precisions() -> None:
    assert precisions(CANDIDATE_1, REFERENCES) == [(17, 18), (10, 17)]
    assert precisions(CANDIDATE_2, REFERENCES) == [(8, 14), (1, 13)]


def test_example_2_clipping() -> None:
    refs = ["The cat is on the mat", "There is a cat on the mat"]
    assert precisions("the the the the the the the", refs) == [(2, 7), (0, 6)]


def test_example_3_short_candidate_has_inflated_precision() -> None:
    assert precisions("of the", REFERENCES) == [(2, 2), (1, 1)]


def test_cloud_guide_unigram_example() -> None:
    result = corpus_bleu(["the the the cat mat"], [["the cat is on the mat"]], max_ngram_order=1)
    assert (result.counts[0], result.totals[0]) == (4, 5)


GUIDE_REF = "The NASA Opportunity rover is battling a massive dust storm on Mars."


@pytest.mark.parametrize(
    ("candidate", "fractions", "bleu"),
    [
        (
            "The Opportunity rover is combating a big sandstorm on Mars.",
            [(8, 11), (4, 10), (2, 9), (0, 8)],
            0.0,
        ),
        ("A NASA rover is fighting a massive storm on Mars.", [(9, 11), (5, 10), (2, 9), (1, 8)], 0.27),
    ],
)
def test_cloud_guide_bleu_table(candidate: str, fractions: list[tuple[int, int]], bleu: float) -> None:
    result = corpus_bleu([candidate], [[GUIDE_REF]], smooth_method="none")
    assert list(zip(result.counts, result.totals, strict=True)) == fractions
    assert round(result.bp, 2) == 0.83
    assert result.bp == math.exp(1 - 13 / 11)
    assert round(result.score / 100, 2) == bleu
