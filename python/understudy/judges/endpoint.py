"""An OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, llama.cpp's server, Ollama):
one request a call, retried on what is worth retrying, with the same settings every time.

The key is read from ``UNDERSTUDY_JUDGE_KEY``, else ``OPENAI_API_KEY`` (a local server may need
none); it goes in the request's ``Authorization`` header to the endpoint's own origin and nowhere
else: not in a message (whatever a server echoes back, the key and any ``Bearer`` token are
redacted), a ``repr``, a log, a file, or a redirect to another host (refused, naming it).
Retried, at most ``retries`` times: 429 and 5xx answers (waiting as ``Retry-After`` says, else 1,
2, 4, ... seconds, capped at 60), connections dropped mid-answer, and timeouts. Not retried:
401/403 (the key), other 4xx (the request), and a server that is not there (connection refused,
a host name that does not resolve): those fail at once.

``timeout`` bounds each whole request, however slowly its answer trickles in; :meth:`Endpoint.abort`
ends every request in flight and every wait between attempts at once (Ctrl-C).

A request longer than the model's context is refused by most servers with a 400 that says so
(OpenAI's ``context_length_exceeded``, vLLM's "maximum context length", llama.cpp's "exceeds the
available context size"); that, and an answer the server cut at ``max_tokens`` (its
``finish_reason`` is ``length``), is a :class:`~understudy.errors.JudgeTooLongError`: the
segment's failure, not the run's. understudy never cuts a text to make it fit. (Ollama cuts an
overlong prompt itself, silently, at its ``num_ctx``: give it a context that holds the prompt.)

>>> endpoint = Endpoint("http://127.0.0.1:8000/v1", "llama-3")
>>> endpoint.chat_url
'http://127.0.0.1:8000/v1/chat/completions'
"""

from __future__ import annotations

import email.utils
import http.client
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from understudy.errors import JudgeEndpointError, JudgeTooLongError
from understudy.judges.transport import KEY_VARIABLES, Watch, api_key, opener, redact

RETRIED = frozenset({408, 409, 429, 500, 502, 503, 504})
"""HTTP statuses answered by asking again, after a wait."""

MAX_WAIT = 60.0
"""The longest wait between two attempts, in seconds, whatever ``Retry-After`` asks."""
OVER_CONTEXT = re.compile(r"context|too long|too many tokens|maximum.{0,40}length", re.I)
"""What a 400 or 413 answer says when the request is longer than the model's context."""

Message = dict[str, str]


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait as a ``Retry-After`` header says (seconds, or an HTTP date), capped.

    >>> retry_after("3"), retry_after("soon"), retry_after("1000")
    (3.0, None, 60.0)
    """
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return min(MAX_WAIT, float(value))
    try:
        when = email.utils.parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError):
        return None
    return min(MAX_WAIT, max(0.0, when - (time.time() if now is None else now)))


@dataclass
class Endpoint:
    """An endpoint's base URL (up to ``/v1``) and model; ``chat`` asks it one conversation."""

    url: str
    model: str
    timeout: float = 120.0
    """The longest one request may take, connection to last byte, in seconds."""
    retries: int = 5
    sleep: Callable[[float], None] | None = field(default=None, repr=False)
    """How to wait between attempts (tests record the waits instead); by default a wait that
    :meth:`abort` ends."""
    sent: int = field(default=0, init=False, repr=False)
    """Requests sent so far, retries included (for a progress bar's rate)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)
    _stopped: threading.Event = field(default_factory=threading.Event, init=False, repr=False)
    _watches: set[Watch] = field(default_factory=set, init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise JudgeEndpointError(f"--judge-url {self.url!r}: expected http:// or https://, up to /v1")
        if not self.model:
            raise JudgeEndpointError("no judge model: give --judge-model NAME (the endpoint's model name)")

    @property
    def chat_url(self) -> str:
        """Where conversations are sent."""
        return self.url.rstrip("/") + "/chat/completions"

    def abort(self) -> None:
        """End every request in flight and every wait between attempts now; later calls fail
        at once (Ctrl-C: the answers already read are the caller's to keep)."""
        self._stopped.set()
        with self._lock:
            watches = list(self._watches)
        for watch in watches:
            watch.cut()

    def chat(self, messages: Sequence[Message], **settings: Any) -> str:
        """The model's answer to ``messages`` under ``settings`` (``temperature``, ``seed``,
        ``max_tokens``: sent as given, the same on every attempt)."""
        body = json.dumps({"model": self.model, "messages": list(messages), **settings}).encode()
        problem = ""
        for attempt in range(self.retries + 1):
            self._check_stopped()
            status, headers, data, problem = self._send(body)
            if status == 200:
                return _content(data, self.chat_url, settings.get("max_tokens"))
            self._refuse(status, data)
            if attempt < self.retries:
                wait = retry_after(headers.get("Retry-After")) if headers else None
                (self.sleep or self._stopped.wait)(min(MAX_WAIT, 2.0**attempt) if wait is None else wait)
        self._check_stopped()
        raise JudgeEndpointError(f"{self.chat_url}: {problem}, {self.retries + 1} attempts")

    def _check_stopped(self) -> None:
        if self._stopped.is_set():
            raise JudgeEndpointError(f"{self.chat_url}: stopped (interrupted)")

    def _refuse(self, status: int | None, data: bytes) -> None:
        """Raise for an answer that asking again would not change."""
        if status in (400, 413) and OVER_CONTEXT.search(data.decode("utf-8", "replace")):
            raise JudgeTooLongError(
                f"over the model's context: {self.chat_url} answered {status}: {_short(data)}"
            )
        if status in (401, 403):
            variables = " or ".join(KEY_VARIABLES)
            raise JudgeEndpointError(f"{self.chat_url} refused the key ({status}): set {variables}")
        if status is not None and status not in RETRIED:
            raise JudgeEndpointError(f"{self.chat_url} answered {status}: {_short(data)}")

    def _send(self, body: bytes) -> tuple[int | None, dict[str, str], bytes, str]:
        """One attempt, within ``timeout`` whole: the status (``None``: no answer), headers,
        body, and what went wrong; a server that is not there is an error at once."""
        headers = {"Content-Type": "application/json"}
        key = api_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(self.chat_url, data=body, headers=headers, method="POST")
        watch = Watch(self.timeout)
        with self._lock:
            self.sent += 1
            self._watches.add(watch)
        try:
            with watch, opener(watch).open(request, timeout=self.timeout) as answer:
                return answer.status, dict(answer.headers), answer.read(), ""
        except urllib.error.HTTPError as err:
            data = err.read() if err.fp is not None else b""
            return err.code, dict(err.headers or {}), data, f"answered {err.code}: {_short(data)}"
        except (urllib.error.URLError, http.client.HTTPException, OSError) as err:
            return None, {}, b"", self._no_answer(watch, err)
        finally:
            with self._lock:
                self._watches.discard(watch)

    def _no_answer(self, watch: Watch, err: Exception) -> str:
        """What went wrong with an attempt that got no answer; a server that is not there, or
        an interrupted run, ends the call."""
        self._check_stopped()
        if watch.expired:
            return f"no whole answer within {self.timeout:g} s"
        reason = getattr(err, "reason", err)
        if isinstance(reason, ConnectionRefusedError | socket.gaierror):
            what = (
                "refused the connection" if isinstance(reason, ConnectionRefusedError) else "does not resolve"
            )
            host = urllib.parse.urlsplit(self.chat_url).netloc
            raise JudgeEndpointError(
                f"{self.chat_url}: {host} {what} (is the server running, and --judge-url right?)"
            )
        return redact(f"no answer ({type(reason).__name__}: {reason})")


def _content(data: bytes, url: str, max_tokens: object) -> str:
    """The answer's text: ``choices[0].message.content``, unless the server cut it."""
    try:
        choice = json.loads(data)["choices"][0]
        content, finish = choice["message"]["content"], choice.get("finish_reason")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        raise JudgeEndpointError(f"{url}: not a chat completion: {_short(data)}") from None
    if not isinstance(content, str):
        raise JudgeEndpointError(f"{url}: the answer has no text (content is {content!r})")
    if finish == "length":
        raise JudgeTooLongError(f"the answer was cut at max_tokens={max_tokens}: {_short(data)}")
    return content


def _short(data: bytes, width: int = 200) -> str:
    """The start of a server's answer, for a message, with any credential in it redacted."""
    text = redact(data.decode("utf-8", "replace").strip())
    return repr(text if len(text) <= width else text[:width] + "...")


__all__ = ["KEY_VARIABLES", "MAX_WAIT", "RETRIED", "Endpoint", "api_key", "retry_after"]
