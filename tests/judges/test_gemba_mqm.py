"""GEMBA-MQM's answers scored as GEMBA's own parser scores them: 407 answers (generated, and a
few by hand) with the scores and error lists GEMBA's ``parse_mqm_answer`` gave, run as a black
box outside the repository (tests/fixtures/gemba_mqm_answers.json, by scripts/gemba_fixtures.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from understudy.errors import JudgeAnswerError
from understudy.judges.gemba_mqm import MQMAnswer, gemba_mqm_score, parse_gemba_mqm

from tests.support.paths import FIXTURES

RECORD = json.loads((FIXTURES / "gemba_mqm_answers.json").read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = RECORD["cases"]


def test_the_fixture_is_gembas_and_covers_the_rule() -> None:
    assert RECORD["gemba_commit"].startswith("a7a7eff")
    scores = [case["score"] for case in CASES]
    assert len(CASES) > 400 and set(range(-25, 1)) - set(scores) <= {-24, -23, -22, -21, -19, -18, -14}
    assert sum(case["answer"].startswith('{"improved translation"') for case in CASES) > 30
    assert sum(len(errors) > 5 for case in CASES for errors in case["errors"].values()) > 10


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_score_and_errors_are_gembas(case: dict[str, Any]) -> None:
    if "raises" in case["errors"]:
        with pytest.raises(JudgeAnswerError):
            parse_gemba_mqm(case["answer"])
        return
    answer = parse_gemba_mqm(case["answer"])
    assert gemba_mqm_score(case["answer"]) == case["score"]
    listed = {level: [str(e) for e in found] for level, found in answer.errors.items() if found}
    assert listed == case["errors"]


def test_the_rule_by_hand() -> None:
    # The weights, the five-error limit (critical first) and the cap.
    assert MQMAnswer({"minor": ("m",) * 4, "major": ("M",) * 2}).penalty() == 5 + 5 + 1 + 1 + 1
    assert MQMAnswer({"critical": ("c",), "minor": ("m",) * 9}).penalty() == 25
    assert MQMAnswer({"major": ("M",) * 6}).penalty() == 25  # five count: 25, and the cap
    assert MQMAnswer({"major": ("M",) * 6}).penalty_uncapped() == 30
    # A header with text after it is no header; a line before any header counts for nothing.
    assert gemba_mqm_score('critical: accuracy/mistranslation - "x"') == 0.0
    assert gemba_mqm_score('Minor: \n fluency/grammar - "x" \r\nmajor:\nno error here') == -1.0
    with pytest.raises(JudgeAnswerError, match="errors"):
        parse_gemba_mqm('{"improved translation": "x", "errors": ["critical"]}')


def test_each_error_keeps_its_line_as_written() -> None:
    for case in CASES:
        if "raises" in case["errors"] or case["answer"].startswith('{"improved translation"'):
            continue
        answer = parse_gemba_mqm(case["answer"])
        for level, lines in answer.errors.items():
            assert [w.lower() for w in answer.written[level]] == list(lines)


def test_spans_are_found_in_the_hypothesis_with_its_offsets() -> None:
    hypothesis = "Nach İstanbul fährt die KATZE, die Katze."
    answer = parse_gemba_mqm(
        "Critical:\nno-error\n"
        'Major:\nAccuracy/Mistranslation - "İstanbul"\nfluency/spelling - "katze"\n'
        'Minor:\nstyle/awkward - "Hund"\nother\nnon-translation - ""'
    )
    spans = answer.spans(hypothesis)
    assert [(s.severity, s.category, s.text) for s in spans] == [
        ("critical", "non-translation", ""),
        ("major", "accuracy/mistranslation", "İstanbul"),
        ("major", "fluency/spelling", "katze"),
        ("minor", "style/awkward", "Hund"),
        ("minor", "other", ""),
    ]
    for span in spans:
        if span.found:
            assert span.start is not None and span.end is not None
            assert hypothesis[span.start : span.end].casefold() == span.text.casefold()
    # As written first (İ lowercases to two characters), then ignoring case; else not found.
    assert [(s.start, s.end) for s in spans] == [(None, None), (5, 13), (24, 29), (None, None), (None, None)]


def test_json_answers_give_their_spans_too() -> None:
    text = (
        '{"improved translation": "x", "errors": {"minor": [{"class": "fluency/grammar", "span": "Katze"}]}}'
    )
    (span,) = parse_gemba_mqm(text).spans("die Katze")
    assert (span.severity, span.category, span.text, span.start) == ("minor", "fluency/grammar", "Katze", 4)
