"""ESA answers: the format understudy's ESA prompt asks for, read, checked and located."""

from __future__ import annotations

import pytest
from understudy.errors import JudgeAnswerError
from understudy.judges.esa import ESAError, parse_esa


def test_a_well_formed_answer() -> None:
    text = (
        '{"errors": [{"span": "sitzt", "severity": "major", "category": "accuracy"},'
        ' {"span": "MATTE", "severity": "minor"}, {"span": "Hund", "severity": "minor"}], "score": 61.5}'
    )
    answer = parse_esa(text)
    assert answer.score == 61.5
    assert answer.errors == (
        ESAError("sitzt", "major", "accuracy"),
        ESAError("MATTE", "minor"),
        ESAError("Hund", "minor"),
    )
    hypothesis = "Die Katze sitzt auf der Matte."
    spans = answer.spans(hypothesis)
    assert [(s.start, s.end) for s in spans] == [(10, 15), (24, 29), (None, None)]
    assert hypothesis[10:15] == "sitzt" and hypothesis[24:29] == "Matte"


@pytest.mark.parametrize("fence", ["```json\n{}\n```", "  ```\n{}\n```\n", "{}"])
def test_a_markdown_fence_is_allowed_and_nothing_else(fence: str) -> None:
    body = '{"errors": [], "score": 0}'
    assert parse_esa(fence.replace("{}", body)).score == 0.0
    with pytest.raises(JudgeAnswerError, match="one JSON object"):
        parse_esa("Sure! " + body)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "one JSON object"),
        ("I cannot help with that.", "one JSON object"),
        ('{"errors": []', "one JSON object"),
        ("[1, 2]", "got list"),
        ('{"score": 50}', r"got \['score'\]"),
        ('{"errors": [], "score": 50, "note": "x"}', "got \\['errors', 'note', 'score'\\]"),
        ('{"errors": [], "score": -1}', "from 0 to 100, not -1"),
        ('{"errors": [], "score": "90"}', "from 0 to 100, not '90'"),
        ('{"errors": [], "score": true}', "from 0 to 100, not True"),
        ('{"errors": [], "score": NaN}', "from 0 to 100, not nan"),
        ('{"errors": {}, "score": 50}', '"errors" must be a list, not dict'),
        ('{"errors": ["sitzt"], "score": 50}', "error 1 must be an object"),
        ('{"errors": [{"span": "x", "severity": "critical"}], "score": 50}', "error 1 .* minor or major"),
        ('{"errors": [{"span": 3, "severity": "minor"}], "score": 50}', 'error 1 .* string "span"'),
        ('{"errors": [{"span": "x", "severity": "minor", "why": "y"}], "score": 50}', "error 1"),
    ],
)
def test_every_malformed_answer_is_a_typed_error_saying_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(JudgeAnswerError, match=message):
        parse_esa(text)
