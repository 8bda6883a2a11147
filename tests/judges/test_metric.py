"""The judges as metrics, against a stand-in endpoint answering from the hypothesis it is shown:
scores computed by hand from canned answers, each distinct segment asked once, the cache (a
re-run asks nothing), failures counted and never cached, and the signature."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from understudy.computed.cache import ScoreCache
from understudy.errors import JudgeAnswerError
from understudy.judges.metric import ESA, GembaMQM
from understudy.judges.mock import ChatServer, Reply
from understudy.judges.prompts import Template

KEY = "sk-judge-key-never-kept-42"
SOURCES = ["The cat sat.", "It rains.", "Good morning."]
SYSTEM_A = ["Die Katze saß.", "Es regnet.", "Guten Morgen."]
SYSTEM_B = ["Die Katze sitzt.", "Es regnet.", "Morgen."]  # "Es regnet." as A's: asked once

MQM = {
    "Die Katze saß.": "Critical:\nno-error\nMajor:\nno-error\nMinor:\nno-error",
    "Es regnet.": 'Critical:\nno-error\nMajor:\nno-error\nMinor:\nstyle/awkward - "regnet"',
    "Guten Morgen.": "Critical:\nno-error\nMajor:\nno-error\nMinor:\nno-error",
    "Die Katze sitzt.": 'Critical:\nno-error\nMajor:\naccuracy/mistranslation - "sitzt"\nMinor:\nno-error',
    "Morgen.": 'Critical:\naccuracy/omission - "Morgen."\nMajor:\nno-error\nMinor:\nno-error',
}
"""Each hypothesis's canned GEMBA-MQM answer."""


def hypothesis_of(body: dict[str, Any]) -> str:
    found = re.search(r"translation:\n```(.*)```", body["messages"][-1]["content"], re.S)
    assert found is not None
    return found[1]


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer()
    chat.respond = lambda body: Reply(text=MQM[hypothesis_of(body)])
    yield chat
    chat.close()


def _gemba(server: ChatServer, cache: Any, **options: Any) -> GembaMQM:
    return GembaMQM(server.url, "judge-7b", pair="en-de", cache=cache, concurrency=3, **options)


def test_gemba_mqm_scores_are_the_answers_scored_by_hand(
    server: ChatServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERSTUDY_JUDGE_KEY", KEY)
    judge = _gemba(server, tmp_path / "cache.sqlite")
    scores = judge.system_scores({"A": SYSTEM_A, "B": SYSTEM_B}, None, SOURCES)
    assert scores.sentence_scores("A").tolist() == [0.0, -1.0, 0.0]
    assert scores.sentence_scores("B").tolist() == [-5.0, -1.0, -25.0]
    assert scores.segment_stats("B").score().score == pytest.approx(-31 / 3)
    assert len(server.requests) == 5 and judge.computed == 5  # "Es regnet." once
    body = server.requests[0].body
    assert (body["model"], body["temperature"], body["seed"]) == ("judge-7b", 0.0, 0)
    # The spans, located in each hypothesis, for the report.
    assert judge.marks()["B"] == [[("major", "sitzt")], [("minor", "regnet")], [("critical", "Morgen.")]]
    # A re-run asks nothing; the key is in no file.
    again = _gemba(server, tmp_path / "cache.sqlite")
    assert again.system_scores({"A": SYSTEM_A}, None, SOURCES).sentence_scores("A").tolist() == [
        0.0,
        -1.0,
        0.0,
    ]
    assert again.computed == 0 and len(server.requests) == 5
    assert all(KEY.encode() not in p.read_bytes() for p in tmp_path.iterdir())


def test_the_signature_pins_model_template_and_settings(server: ChatServer) -> None:
    judge = _gemba(server, None, seed=11)
    text = str(judge.system_scores({"A": SYSTEM_A}, None, SOURCES).segment_stats("A").score().signature)
    sha = Template.load("gemba-mqm").sha256
    assert f"|model:judge-7b|rev:gemba-mqm-v1-{sha[:16]}|dtype:t0-seed11-max1024|ref:no|" in text
    assert "|name:GEMBA-MQM|" in text


def test_unreadable_answers_are_failures_counted_and_asked_again_later(
    server: ChatServer, tmp_path: Path
) -> None:
    # GEMBA's rule reads any text (a line outside the sections counts for nothing); what it
    # cannot read is its JSON form without errors.
    cache = ScoreCache(tmp_path / "cache.sqlite")
    broken = {"Morgen.": '{"improved translation": "Guten Morgen."}'}
    server.respond = lambda body: Reply(text=broken.get(hypothesis_of(body)) or MQM[hypothesis_of(body)])
    judge = _gemba(server, cache, answer_retries=1)
    with pytest.raises(JudgeAnswerError, match=r"1 of 5 answers could not be read after 2 attempt\(s\)"):
        judge.system_scores({"A": SYSTEM_A, "B": SYSTEM_B}, None, SOURCES)
    assert len(server.requests) == 6  # five segments, the broken one asked twice
    broken.clear()
    scores = judge.system_scores({"A": SYSTEM_A, "B": SYSTEM_B}, None, SOURCES)
    assert judge.computed == 1 and len(server.requests) == 7  # only the failed one asked again
    assert scores.sentence_scores("B").tolist() == [-5.0, -1.0, -25.0]


def test_esa_reads_json_answers_and_fails_on_others(server: ChatServer, tmp_path: Path) -> None:
    answers = {
        "Die Katze saß.": '{"errors": [], "score": 95}',
        "Es regnet.": '```json\n{"errors": [{"span": "regnet", "severity": "minor"}], "score": 80}\n```',
        "Guten Morgen.": "Sorry, I cannot do that.",
    }
    server.respond = lambda body: Reply(text=answers[hypothesis_of(body)])
    judge = ESA(server.url, "judge-7b", pair="en-de", cache=tmp_path / "cache.sqlite", answer_retries=1)
    expected = (
        r"ESA: 1 of 3 answers could not be read after 2 attempt\(s\) each \(first: ESA answer: expected"
    )
    with pytest.raises(JudgeAnswerError, match=expected):
        judge.system_scores({"A": SYSTEM_A}, None, SOURCES)
    assert len(server.requests) == 4  # the refusal asked twice, with the same body
    refused = [r.body for r in server.requests if hypothesis_of(r.body) == "Guten Morgen."]
    assert len(refused) == 2 and refused[0] == refused[1]
    # The two answers read were kept: once the endpoint answers, only the third is asked.
    answers["Guten Morgen."] = '{"errors": [], "score": 100}'
    scores = judge.system_scores({"A": SYSTEM_A}, None, SOURCES)
    assert scores.sentence_scores("A").tolist() == [95.0, 80.0, 100.0] and judge.computed == 1
    assert len(server.requests) == 5
