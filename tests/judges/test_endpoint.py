"""The judges' endpoint against a stand-in server on 127.0.0.1: answers, retries with the same
settings (waiting as Retry-After says), dropped connections, timeouts, refusals, and the key,
which goes in the Authorization header and nowhere else."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from understudy.errors import JudgeEndpointError
from understudy.judges.endpoint import Endpoint
from understudy.judges.mock import ChatServer, Reply

KEY = "sk-understudy-test-0123456789"
MESSAGES = [{"role": "user", "content": "Score this."}]
SETTINGS = {"temperature": 0.0, "seed": 7, "max_tokens": 64}


@pytest.fixture
def server() -> Iterator[ChatServer]:
    chat = ChatServer()
    yield chat
    chat.close()


def _endpoint(server: ChatServer, waits: list[float], **options: float) -> Endpoint:
    return Endpoint(server.url, "judge-model", sleep=waits.append, **options)  # type: ignore[arg-type]


def test_an_answer_and_what_was_sent(server: ChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNDERSTUDY_JUDGE_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-the-other-one")
    server.script.append(Reply(text="Critical:\nno-error"))
    assert _endpoint(server, []).chat(MESSAGES, **SETTINGS) == "Critical:\nno-error"
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.body == {"model": "judge-model", "messages": MESSAGES, **SETTINGS}
    assert request.headers["Authorization"] == f"Bearer {KEY}"  # UNDERSTUDY_JUDGE_KEY first


def test_no_key_sends_no_header(server: ChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UNDERSTUDY_JUDGE_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    _endpoint(server, []).chat(MESSAGES)
    assert "Authorization" not in server.requests[0].headers


def test_busy_and_failing_servers_are_asked_again_with_the_same_settings(server: ChatServer) -> None:
    waits: list[float] = []
    server.script.extend(
        [
            Reply(status=429, headers={"Retry-After": "3"}, body=b'{"error": "slow down"}'),
            Reply(status=500, body=b"oops"),
            Reply(status=503, headers={"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}),  # past: now
            Reply(text="x", drop=True),  # half an answer, then the connection closes
            Reply(text="Minor:\nother"),
        ]
    )
    assert _endpoint(server, waits).chat(MESSAGES, **SETTINGS) == "Minor:\nother"
    # Retry-After's seconds, then 2^attempt, then the past date's zero, then 2^3.
    assert waits == [3.0, 2.0, 0.0, 8.0]
    assert len(server.requests) == 5 and all(r.body == server.requests[0].body for r in server.requests)


def test_a_server_that_keeps_failing_is_one_error_after_its_retries(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERSTUDY_JUDGE_KEY", KEY)
    server.default = Reply(status=502, body=KEY.encode())  # even an echoed key is not repeated
    waits: list[float] = []
    with pytest.raises(JudgeEndpointError, match=r"answered 502: '\[redacted\]', 3 attempts") as caught:
        _endpoint(server, waits, retries=2).chat(MESSAGES)
    assert waits == [1.0, 2.0] and len(server.requests) == 3
    assert KEY not in str(caught.value)


def test_a_slow_answer_times_out_and_is_asked_again(server: ChatServer) -> None:
    # The first answer is held until the client has given up, whatever the machine's load.
    gate = threading.Event()
    server.script.append(Reply(text="late", hold=gate))
    waits: list[float] = []
    try:
        assert _endpoint(server, waits, timeout=2.0).chat(MESSAGES) == "ok"
    finally:
        gate.set()
    assert waits == [1.0] and len(server.requests) == 2


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_key_names_the_variables_and_not_the_key(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("UNDERSTUDY_JUDGE_KEY", raising=False)
    server.default = Reply(status=status, body=b'{"error": "invalid key"}')
    with pytest.raises(JudgeEndpointError, match="set UNDERSTUDY_JUDGE_KEY or OPENAI_API_KEY") as caught:
        _endpoint(server, []).chat(MESSAGES)
    assert len(server.requests) == 1 and KEY not in str(caught.value) and KEY not in repr(caught.value)


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (Reply(status=400, body=b'{"error": "bad model"}'), 'answered 400: \'{"error": "bad model"}\''),
        (Reply(status=200, body=b"<html>"), "not a chat completion: '<html>'"),
        (Reply(status=200, body=b'{"choices": []}'), "not a chat completion"),
        (Reply(status=200, body=b'{"choices": [{"message": {"content": null}}]}'), "has no text"),
    ],
)
def test_answers_that_are_no_chat_completion_are_named(
    server: ChatServer, reply: Reply, message: str
) -> None:
    server.default = reply
    with pytest.raises(JudgeEndpointError, match=message.replace("(", r"\(")):
        _endpoint(server, []).chat(MESSAGES)
    assert len(server.requests) == 1


def test_no_server_and_bad_settings_are_one_line_each(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    # Nothing listens: one attempt, no waits (before: six attempts over 64 s).
    dead = Endpoint("http://127.0.0.1:9/v1", "m", sleep=waits.append)
    with pytest.raises(
        JudgeEndpointError, match=r"127.0.0.1:9 refused the connection \(is the server running"
    ):
        dead.chat(MESSAGES)
    assert waits == []
    nowhere = Endpoint("http://no-such-host.invalid/v1", "m", sleep=waits.append)
    with pytest.raises(JudgeEndpointError, match=r"no-such-host.invalid does not resolve"):
        nowhere.chat(MESSAGES)
    assert waits == []
    with pytest.raises(JudgeEndpointError, match="expected http:// or https://"):
        Endpoint("127.0.0.1:8000/v1", "m")
    with pytest.raises(JudgeEndpointError, match="--judge-model"):
        Endpoint("http://127.0.0.1:8000/v1", "")
    monkeypatch.setenv("UNDERSTUDY_JUDGE_KEY", KEY)
    assert KEY not in repr(Endpoint("http://127.0.0.1:8000/v1", "m"))


@pytest.mark.parametrize("status", [302, 307])
def test_a_redirect_to_another_host_gets_no_key(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    monkeypatch.setenv("UNDERSTUDY_JUDGE_KEY", KEY)
    other = ChatServer()  # another port: another origin
    try:
        server.default = Reply(status=status, headers={"Location": other.url + "/chat/completions"})
        with pytest.raises(
            JudgeEndpointError, match=r"redirects \(\d+\) to another host, http://127.0.0.1:"
        ) as caught:
            _endpoint(server, []).chat(MESSAGES)
        assert other.requests == [] and KEY not in str(caught.value)
    finally:
        other.close()


def test_a_redirect_within_the_endpoint_keeps_the_key(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNDERSTUDY_JUDGE_KEY", KEY)
    server.script.append(Reply(status=307, headers={"Location": "/v2/chat/completions"}))
    assert _endpoint(server, []).chat(MESSAGES) == "ok"
    assert [r.path for r in server.requests] == ["/v1/chat/completions", "/v2/chat/completions"]
    assert server.requests[1].headers["Authorization"] == f"Bearer {KEY}"


@pytest.mark.parametrize("status", [400, 500])
def test_a_server_echoing_the_key_never_gets_it_printed(
    server: ChatServer, monkeypatch: pytest.MonkeyPatch, status: int
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    echoed = (
        f'{{"error": "bad request", "headers": {{"Authorization": "Bearer {KEY}", "X": "Bearer tok-9"}}}}'
    )
    server.default = Reply(status=status, body=echoed.encode())
    with pytest.raises(JudgeEndpointError) as caught:
        _endpoint(server, [], retries=0).chat(MESSAGES)
    message = str(caught.value)
    assert KEY not in message and "tok-9" not in message and "Bearer [redacted]" in message


def test_timeout_bounds_the_whole_request_not_each_read(server: ChatServer) -> None:
    # A byte every 0.3 s: each read is quick, the whole answer takes over a minute.
    server.default = Reply(text="x" * 200, trickle=0.3)
    with pytest.raises(JudgeEndpointError, match=r"no whole answer within 2 s, 1 attempts"):
        _endpoint(server, [], timeout=2.0, retries=0).chat(MESSAGES)


def test_abort_ends_a_request_in_flight_and_the_waits(server: ChatServer) -> None:
    gate = threading.Event()
    server.default = Reply(text="late", hold=gate)
    endpoint = Endpoint(server.url, "m", timeout=120.0)
    failed: list[BaseException] = []

    def ask() -> None:
        try:
            endpoint.chat(MESSAGES)
        except JudgeEndpointError as err:
            failed.append(err)

    asking = threading.Thread(target=ask)
    try:
        asking.start()
        for _ in range(1200):  # the request is in flight once the server holds it (60 s bound)
            if server.requests:
                break
            asking.join(0.05)
        assert server.requests
        endpoint.abort()
        asking.join(60)  # a bound: without abort it would wait the 120 s timeout, then retry
        assert not asking.is_alive() and "stopped (interrupted)" in str(failed[0])
    finally:
        gate.set()
