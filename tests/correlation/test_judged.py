"""understudy.correlation.judged and paper.analyses: what ``correlate`` correlates, from Python,
checked against sacrebleu's scores and SciPy's correlations."""

from __future__ import annotations

import pytest
import sacrebleu
from scipy import stats as sp
from understudy import BLEU, CHRF
from understudy.correlation import correlate
from understudy.correlation.judged import segment_level, system_level
from understudy.correlation.paper import analyses
from understudy.correlation.text import Extras, text
from understudy.errors import InputError
from understudy.evaluation import Evaluation
from understudy.inputs.human import HumanScores

SYSTEMS = {
    "A": ["the cat sat on the mat", "a dog barked at the moon", "it rained all day"],
    "B": ["cat sat on mat", "the dog barked", "rain fell all the day"],
    "C": ["a cat is on the mat", "dogs bark at night", "it was raining all day long"],
}
REFS = [
    ["the cat sat on the mat", "a dog barked at the moon", "it rained all day long"],
    ["there is a cat on the mat", "the dog barked at the moon", "it was raining the whole day"],
]
SEGMENTS = {"A": {1: 0.9, 3: 0.7}, "B": {1: 0.2, 2: 0.4}, "C": {2: 0.5, 3: 0.6}}
HUMAN = HumanScores({"A": 0.8, "B": 0.3, "C": 0.55}, SEGMENTS, "human.tsv")
EVALUATION = Evaluation(SYSTEMS, REFS[:1])


def test_system_level_is_each_systems_corpus_score_beside_the_human_one() -> None:
    found = system_level(
        [EVALUATION.statistics(BLEU()), EVALUATION.statistics(CHRF())], ["A", "B", "C"], HUMAN
    )
    assert found.items == ["A", "B", "C"] and found.human == [0.8, 0.3, 0.55]
    for name, oracle in (("BLEU", sacrebleu.corpus_bleu), ("chrF2", sacrebleu.corpus_chrf)):
        expected = [oracle(SYSTEMS[s], REFS[:1]).score for s in "ABC"]
        assert found.scores[name] == pytest.approx(expected, abs=1e-9)
        assert found.signatures[name].startswith("nrefs:1|")


def test_segment_level_pools_the_judged_segments_of_every_system() -> None:
    others = {"other": HumanScores({}, {s: {g: g / 10 for g in range(1, 4)} for s in "ABC"}, "other.tsv")}
    found = segment_level([EVALUATION.statistics(CHRF())], ["A", "B", "C"], HUMAN, others)
    judged = [(s, g) for s in "ABC" for g in sorted(SEGMENTS[s])]
    assert found.items == [f"{s}:{g}" for s, g in judged]
    assert found.human == [SEGMENTS[s][g] for s, g in judged]
    expected = [sacrebleu.sentence_chrf(SYSTEMS[s][g - 1], [REFS[0][g - 1]]).score for s, g in judged]
    assert found.scores["chrF2"] == pytest.approx(expected, abs=1e-9)
    assert found.scores["other"] == [g / 10 for _, g in judged]


@pytest.mark.parametrize(
    ("human", "others", "said"),
    [
        (HumanScores({"A": 1.0, "B": 0.0, "C": 0.5}), {}, "has system scores only"),
        (
            HumanScores({}, {"A": {4: 1.0}}, "h.tsv"),
            {},
            "h.tsv scores segment 4 of 'A', but the references have 3",
        ),
        (HumanScores({}, {"D": {1: 1.0}}, "h.tsv"), {}, "h.tsv scores none of the segments of these systems"),
        (HUMAN, {"o": HumanScores({}, {"A": {1: 0.0}}, "o.tsv")}, r"o.tsv has no score for segment 3 of 'A'"),
    ],
)
def test_what_cannot_be_matched_is_an_error_naming_it(
    human: HumanScores, others: dict[str, HumanScores], said: str
) -> None:
    with pytest.raises(InputError, match=said):
        segment_level([EVALUATION.statistics(CHRF())], ["A", "B", "C"], human, others)


def test_the_papers_reference_subsets_rescore_with_each_subset() -> None:
    evaluation = Evaluation(SYSTEMS, REFS)
    found = system_level([evaluation.statistics(BLEU())], ["A", "B", "C"], HUMAN)
    result = correlate(found.scores, found.human, found.items, n_bootstrap=0, statistics=["pearson"])
    systems = list(SYSTEMS.values())
    systems_only = HumanScores(HUMAN.system)  # adjacent differences need shared judged segments
    record = analyses(result, systems_only, ["A", "B", "C"], [BLEU()], systems, REFS, ["r1", "r2"], "pearson")
    subsets = record["reference_subsets"]
    assert subsets["names"] == ["r1", "r2"] and subsets["statistic"] == "pearson"
    for k, chosen in ((1, [0]), (1, [1]), (2, [0, 1])):
        scores = [sacrebleu.corpus_bleu(SYSTEMS[s], [REFS[i] for i in chosen]).score for s in "ABC"]
        value = sp.pearsonr(scores, found.human).statistic
        listed = {tuple(c["references"]): c["value"] for c in subsets["metrics"]["BLEU"][k]}
        assert listed[tuple(i + 1 for i in chosen)] == pytest.approx(value, abs=1e-9)
    fit = sp.linregress(found.scores["BLEU"], found.human)
    assert record["regression"]["BLEU"]["slope"] == pytest.approx(fit.slope, abs=1e-9)
    shown = text(result, ["pearson"], 3, "human.tsv", Extras(paper=record))
    assert "BLEU, k=2:" in shown and f"r = {fit.rvalue:.3f}" in shown
