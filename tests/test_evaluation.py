"""``understudy.evaluation.Evaluation``: what ``compare`` computes, from Python, for text metrics,
computed metrics and given scores alike; its numbers are sacrebleu's and the command line's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from understudy import BLEU, CHRF, GivenScores
from understudy.computed.metric import ComputedMetric, Item, Progress
from understudy.errors import LengthMismatchError
from understudy.evaluation import Evaluation
from understudy.significance import all_pairs

from tests.support.cli import run_cli

Texts = tuple[dict[str, list[str]], list[str]]


@pytest.fixture
def texts(wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]) -> Texts:
    systems = {name: lines[:300] for name, lines in list(wmt17_systems.items())[:4]}
    return systems, wmt17_ref[:300]


def test_corpus_scores_are_sacrebleus(texts: Texts) -> None:
    systems, ref = texts
    found = Evaluation(systems, [ref]).corpus_scores(BLEU())
    assert {name: r.score for name, r in found.items()} == {
        name: SacreBLEU().corpus_score(hyps, [ref]).score for name, hyps in systems.items()
    }


def test_the_ranking_is_all_pairs_and_the_command_lines(
    texts: Texts, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    systems, ref = texts
    paths = {}
    for name, lines in {"ref": ref, **systems}.items():
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    evaluation = Evaluation({str(paths[n]): systems[n] for n in systems}, [ref])
    ranked = evaluation.ranking(CHRF(), n=200, seed=7)
    stats = CHRF().segment_stats_many(list(systems.values()), [ref])
    direct = all_pairs(stats, evaluation.names, "bs", 200, 7)
    assert ranked.to_dict() == direct.to_dict()
    argv = ["compare", str(paths["ref"]), "-i", *evaluation.names, "-m", "chrf", "-n", "200", "--seed", "7"]
    status, out, err = run_cli(capsys, *argv, "-f", "json")
    assert status == 0, err
    printed = json.loads(out)
    assert [s["name"] for s in printed["ranking"]] == [s.name for s in ranked.ranking]
    assert printed["clusters"] == [list(c) for c in ranked.clusters]


class Length(ComputedMetric):
    kind, name = "test-length", "Length"

    def computed_by(self) -> dict[str, str]:
        return {"model": "len", "revision": "1", "dtype": "-", "reference": "no"}

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        return (hypothesis,)

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        return [float(len(item[0])) for item in items]


def test_computed_and_given_scores_take_the_same_road(texts: Texts) -> None:
    systems, ref = texts
    evaluation = Evaluation(systems, [ref], sources=ref)
    lengths = {name: [float(len(h)) for h in hyps] for name, hyps in systems.items()}
    computed = evaluation.corpus_scores(Length(cache=None))
    given = evaluation.corpus_scores(GivenScores(lengths, "Length", lower_is_better=False))
    for name in systems:
        assert computed[name].score == given[name].score == pytest.approx(np.mean(lengths[name]), abs=1e-12)


def test_inputs_of_other_lengths_are_refused_by_name() -> None:
    with pytest.raises(LengthMismatchError, match=r"system 'B' has 1 segment; the references have 2"):
        Evaluation({"A": ["a", "b"], "B": ["a"]}, [["a", "b"]])
    with pytest.raises(LengthMismatchError, match=r"the sources have 3 segments"):
        Evaluation({"A": ["a", "b"]}, [["a", "b"]], sources=["x", "y", "z"])
