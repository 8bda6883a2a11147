"""The judges when things go wrong mid-run: Ctrl-C and a vanished endpoint keep the answers read
(a re-run continues where the run stopped), a segment over the model's context fails alone and
is declared, the progress bar's rate and failures, and eight processes sharing one cache."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from understudy.cli.progress import Progress
from understudy.computed.cache import ScoreCache
from understudy.errors import JudgeAnswerError, JudgeEndpointError
from understudy.judges.metric import ESA, GembaMQM
from understudy.judges.mock import ChatServer, Reply, made_up_answer

from tests.judges.test_metric import MQM, SOURCES, SYSTEM_A, SYSTEM_B, hypothesis_of
from tests.support.signals import interruptible

HYPS = [f"Satz Nummer {k} ist hier." for k in range(60)]
SRCS = [f"Sentence number {k} is here." for k in range(60)]


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer()
    chat.respond = lambda body: made_up_answer(body, "gemba-mqm")
    yield chat
    chat.close()


def _gemba(server: ChatServer, cache: Any, **options: Any) -> GembaMQM:
    return GembaMQM(server.url, "judge-7b", pair="en-de", cache=cache, **options)


def test_ctrl_c_keeps_the_answers_read_and_a_rerun_asks_only_the_rest(
    server: ChatServer, tmp_path: Path
) -> None:
    seen = [0]

    def interrupt_after_20(count: int) -> None:
        seen[0] += count
        if seen[0] == 20:
            raise KeyboardInterrupt

    judge = _gemba(server, tmp_path / "c.sqlite", concurrency=4)
    with pytest.raises(KeyboardInterrupt):
        judge.system_scores({"s": HYPS}, None, SRCS, progress=interrupt_after_20)
    kept = ScoreCache(tmp_path / "c.sqlite").stats().entries
    assert kept >= 20  # every answer read before the interruption (those in flight may be lost)
    again = _gemba(server, tmp_path / "c.sqlite", concurrency=4)
    scores = again.system_scores({"s": HYPS}, None, SRCS)
    assert again.computed == 60 - kept and again.endpoint.sent == 60 - kept
    fresh = _gemba(server, None).system_scores({"s": HYPS}, None, SRCS)
    assert scores.sentence_scores("s").tolist() == fresh.sentence_scores("s").tolist()


def test_an_endpoint_gone_mid_run_keeps_what_it_answered(server: ChatServer, tmp_path: Path) -> None:
    answered = [0]

    def fail_after_30(body: dict[str, Any]) -> Reply:
        answered[0] += 1
        if answered[0] > 30:
            return Reply(status=404, body=b'{"error": "model unloaded"}')
        return made_up_answer(body, "gemba-mqm")

    server.respond = fail_after_30
    judge = _gemba(server, tmp_path / "c.sqlite", concurrency=1)
    with pytest.raises(JudgeEndpointError, match="answered 404"):
        judge.system_scores({"s": HYPS}, None, SRCS)
    assert ScoreCache(tmp_path / "c.sqlite").stats().entries == 30


def test_a_segment_over_the_context_fails_alone_and_is_not_asked_again(
    server: ChatServer, tmp_path: Path
) -> None:
    too_long = b'{"error": {"code": "context_length_exceeded", "message": "maximum context length is 8192"}}'

    def answer(body: dict[str, Any]) -> Reply:
        hypothesis = hypothesis_of(body)
        if hypothesis == "Morgen.":
            return Reply(status=400, body=too_long)
        if hypothesis == "Es regnet.":  # the answer cut at max_tokens
            completion = {"choices": [{"message": {"content": "Critical:\n"}, "finish_reason": "length"}]}
            return Reply(body=json.dumps(completion).encode())
        return Reply(text=MQM[hypothesis])

    server.respond = answer
    judge = _gemba(server, tmp_path / "c.sqlite", answer_retries=2)
    with pytest.raises(JudgeAnswerError, match="2 of 5 answers could not be read"):
        judge.system_scores({"A": SYSTEM_A, "B": SYSTEM_B}, None, SOURCES)
    cut = json.dumps({"choices": [{"message": {"content": "Critical:\n"}, "finish_reason": "length"}]})
    assert sorted(judge.failures) == [
        f"over the model's context: {server.url}/chat/completions answered 400: {too_long.decode()!r}",
        f"the answer was cut at max_tokens=1024: {cut!r}",
    ]
    assert len(server.requests) == 5  # neither failure asked again: the same request, the same refusal
    assert json.loads(judge.details["B"][2])["failure"].startswith("over the model's context")


def test_the_progress_bar_shows_requests_a_second_and_failures(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = "Satz Nummer 3 ist hier."
    server.respond = lambda body: (
        Reply(text='{"improved translation": "x"}')
        if hypothesis_of(body) == broken
        else made_up_answer(body, "gemba-mqm")
    )
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stderr)
    judge = _gemba(server, None, answer_retries=0, concurrency=2)
    with Progress("GEMBA-MQM", unit=judge.unit, enabled=True) as bar:

        def advance(count: int) -> None:
            bar.note(judge.status())
            bar.update(bar._bar.n + count)

        with pytest.raises(JudgeAnswerError):
            judge.system_scores({"s": HYPS[:10]}, None, SRCS[:10], progress=advance)
        bar._bar.refresh()
    drawn = stderr.getvalue()
    assert "req/s, 1 failed" in drawn and "segments" in drawn
    assert judge.endpoint.sent == 10


WORKER = """
import sys
sys.path.insert(0, {root!r})
from understudy.judges.metric import GembaMQM
hyps = [h + " {k}" for h in {hyps!r}]
judge = GembaMQM({url!r}, "judge-7b", pair="en-de", cache={cache!r}, concurrency=4)
scores = judge.system_scores({{"s": hyps, "t": {hyps!r}}}, None, {srcs!r})
print(judge.computed)
"""


def test_eight_processes_share_the_cache_and_lose_nothing(server: ChatServer, tmp_path: Path) -> None:
    cache = str(tmp_path / "c.sqlite")
    root = str(Path(__file__).parents[2])
    code = [
        WORKER.format(root=root, k=k % 4, hyps=HYPS[:30], srcs=SRCS[:30], url=server.url, cache=cache)
        for k in range(8)
    ]
    procs = [
        subprocess.Popen([sys.executable, "-c", c], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for c in code
    ]
    errors = [p.communicate(timeout=300)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0] * 8, [err[-600:] for err in errors]
    # Each of the four hypothesis sets and the shared one, kept once; nothing is asked again.
    assert ScoreCache(cache).stats().entries == 5 * 30
    asked = len(server.requests)
    judge = _gemba(server, cache)
    for k in range(4):
        judge.system_scores({"s": [h + f" {k}" for h in HYPS[:30]]}, None, SRCS[:30])
        assert judge.computed == 0
    assert len(server.requests) == asked
    assert asked <= 8 * 60  # no process asked more than its own segments


def test_sigint_stops_the_cli_and_a_rerun_continues(server: ChatServer, tmp_path: Path) -> None:
    for name, lines in [("src", SRCS), ("ref", HYPS), ("hyp", HYPS)]:
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = [sys.executable, "-m", "understudy", "score", str(tmp_path / "ref"), "-i", str(tmp_path / "hyp")]
    argv += ["-m", "gemba-mqm", "--source", str(tmp_path / "src"), "-l", "en-de", "--judge-url", server.url]
    argv += ["--judge-model", "m", "--judge-concurrency", "2", "-f", "json"]
    env = {**os.environ, "UNDERSTUDY_CACHE": str(tmp_path / "cache")}
    child: list[subprocess.Popen[bytes]] = []
    answered = threading.Event()

    def answer(body: dict[str, Any]) -> Reply:
        if len(server.requests) == 25 and child:
            os.kill(child[0].pid, signal.SIGINT)
            answered.set()
        return made_up_answer(body, "gemba-mqm")

    server.respond = answer
    child.append(interruptible(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    _, err = child[0].communicate(timeout=300)
    assert answered.is_set() and child[0].returncode == 130, err
    assert err.decode() == "understudy: error: interrupted\n"
    kept = ScoreCache(tmp_path / "cache" / "neural" / "scores.sqlite").stats().entries
    first = len(server.requests)
    assert 20 <= kept < 60
    server.respond = lambda body: made_up_answer(body, "gemba-mqm")
    rerun = subprocess.run(argv, env=env, capture_output=True, timeout=300, check=True)
    assert len(server.requests) - first == 60 - kept
    fresh = subprocess.run([*argv, "--no-cache"], env=env, capture_output=True, timeout=300, check=True)
    assert json.loads(rerun.stdout) == json.loads(fresh.stdout)


def test_spans_the_hypothesis_does_not_hold_are_kept_and_counted(server: ChatServer) -> None:
    answers = {
        "Die Katze saß.": 'Major:\naccuracy/mistranslation - "Hund"\nMinor:\nstyle/awkward - "saß"',
        "Es regnet.": "Critical:\nno-error\nMajor:\nno-error\nMinor:\nno-error",
        "Guten Morgen.": 'Minor:\nfluency/spelling - "Margen"',
    }
    server.respond = lambda body: Reply(text=answers[hypothesis_of(body)])
    judge = _gemba(server, None)
    spans = judge.error_spans(SYSTEM_A, sources=SOURCES)
    assert [[(s.text, s.start) for s in per] for per in spans] == [
        [("Hund", None), ("saß", 10)],
        [],
        [("Margen", None)],
    ]
    assert judge.notices() == ["GEMBA-MQM: 2 of 3 error spans quote text the hypothesis does not hold"]
    assert judge.sentence_scores(SYSTEM_A, None, sources=SOURCES) == [-6.0, 0.0, -1.0]  # counted all the same


@pytest.mark.parametrize(
    ("kind", "answer"),
    [
        (
            "gemba-mqm",
            '{"improved translation": "x", "errors": {"critical": [], "major": null, "minor": []}}',
        ),
        ("esa", '{"errors": [], "score": ' + "9" * 400 + "}"),
    ],
)
def test_an_answer_that_breaks_the_parser_is_a_failed_answer(
    server: ChatServer, kind: str, answer: str
) -> None:
    # Before: TypeError (a null list) and OverflowError (400 digits) ended the run with a traceback.
    server.respond = lambda body: Reply(text=answer)
    judge = (GembaMQM if kind == "gemba-mqm" else ESA)(server.url, "m", pair="en-de", cache=None)
    with pytest.raises(JudgeAnswerError, match=r"3 of 3 answers could not be read after 3 attempt\(s\)"):
        judge.system_scores({"s": HYPS[:3]}, None, SRCS[:3])
    assert len(judge.failures) == 3 and "cannot read" in judge.failures[0]


def test_ctrl_c_ends_a_wait_on_a_silent_endpoint_at_once(tmp_path: Path) -> None:
    held = threading.Event()  # the server answers nothing until the test ends (at most 60 s)
    silent = ChatServer(Reply(text="late", hold=held))
    for name, lines in [("src", SRCS[:8]), ("ref", HYPS[:8]), ("hyp", HYPS[:8])]:
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    argv = [sys.executable, "-m", "understudy", "score", str(tmp_path / "ref"), "-i", str(tmp_path / "hyp")]
    argv += ["-m", "gemba-mqm", "--source", str(tmp_path / "src"), "-l", "en-de", "--judge-url", silent.url]
    argv += ["--judge-model", "m", "--no-cache"]
    child = interruptible(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for _ in range(1200):  # every request in flight (60 s bound): the threads are waiting
            if len(silent.requests) >= 4 or child.poll() is not None:
                break
            time.sleep(0.05)
        assert len(silent.requests) >= 4
        child.send_signal(signal.SIGINT)
        # Bounded below the server's 60 s hold: before, the threads waited for it (and retried).
        _, err = child.communicate(timeout=30)
        assert child.returncode == 130 and err.decode() == "understudy: error: interrupted\n"
    finally:
        child.kill()
        held.set()
        silent.close()
