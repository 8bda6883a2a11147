"""An OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, llama.cpp's server, Ollama):
one request a call, retried on what is worth retrying, with the same settings every time.

The key is read from ``UNDERSTUDY_JUDGE_KEY``, else ``OPENAI_API_KEY`` (a local server may need
none); it goes in the request's ``Authorization`` header and nowhere else: not in a message, a
``repr``, a log or a file. Retried, at most ``retries`` times: 429 and 5xx answers (waiting as
``Retry-After`` says, else 1, 2, 4, ... seconds, capped at 60), connections refused or dropped
mid-answer, and timeouts. Not retried: 401/403 (the key), other 4xx (the request).

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
import os
import re
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from understudy.errors import JudgeEndpointError, JudgeTooLongError

KEY_VARIABLES = ("UNDERSTUDY_JUDGE_KEY", "OPENAI_API_KEY")
"""Where the key is read from, in this order."""

RETRIED = frozenset({408, 409, 429, 500, 502, 503, 504})
"""HTTP statuses answered by asking again, after a wait."""

MAX_WAIT = 60.0
OVER_CONTEXT = re.compile(r"context|too long|too many tokens|maximum.{0,40}length", re.I)
"""What a 400 or 413 answer says when the request is longer than the model's context."""
"""The longest wait between two attempts, in seconds, whatever ``Retry-After`` asks."""

Message = dict[str, str]


def api_key() -> str | None:
    """The key from the environment (``None``: send none).

    >>> import os
    >>> os.environ["UNDERSTUDY_JUDGE_KEY"] = "sk-test"
    >>> api_key() == "sk-test"
    True
    >>> del os.environ["UNDERSTUDY_JUDGE_KEY"]
    """
    for name in KEY_VARIABLES:
        value = os.environ.get(name)
        if value:
            return value
    return None


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
    retries: int = 5
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    """How to wait between attempts (tests record the waits instead)."""
    sent: int = field(default=0, init=False, repr=False)
    """Requests sent so far, retries included (for a progress bar's rate)."""
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise JudgeEndpointError(f"--judge-url {self.url!r}: expected http:// or https://, up to /v1")
        if not self.model:
            raise JudgeEndpointError("no judge model: give --judge-model NAME (the endpoint's model name)")

    @property
    def chat_url(self) -> str:
        """Where conversations are sent."""
        return self.url.rstrip("/") + "/chat/completions"

    def chat(self, messages: Sequence[Message], **settings: Any) -> str:
        """The model's answer to ``messages`` under ``settings`` (``temperature``, ``seed``,
        ``max_tokens``: sent as given, the same on every attempt)."""
        body = json.dumps({"model": self.model, "messages": list(messages), **settings}).encode()
        problem = ""
        for attempt in range(self.retries + 1):
            status, headers, data, problem = self._send(body)
            if status == 200:
                return _content(data, self.chat_url, settings.get("max_tokens"))
            if status in (400, 413) and OVER_CONTEXT.search(data.decode("utf-8", "replace")):
                raise JudgeTooLongError(
                    f"over the model's context: {self.chat_url} answered {status}: {_short(data)}"
                )
            if status in (401, 403):
                variables = " or ".join(KEY_VARIABLES)
                raise JudgeEndpointError(f"{self.chat_url} refused the key ({status}): set {variables}")
            if status is not None and status not in RETRIED:
                raise JudgeEndpointError(f"{self.chat_url} answered {status}: {_short(data)}")
            if attempt < self.retries:
                wait = retry_after(headers.get("Retry-After")) if headers else None
                self.sleep(min(MAX_WAIT, 2.0**attempt) if wait is None else wait)
        raise JudgeEndpointError(f"{self.chat_url}: {problem}, {self.retries + 1} attempts")

    def _send(self, body: bytes) -> tuple[int | None, dict[str, str], bytes, str]:
        """One attempt: the status (``None``: no answer), headers, body, and what went wrong."""
        headers = {"Content-Type": "application/json"}
        key = api_key()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(self.chat_url, data=body, headers=headers, method="POST")
        with self._lock:
            self.sent += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return answer.status, dict(answer.headers), answer.read(), ""
        except urllib.error.HTTPError as err:
            data = err.read() if err.fp is not None else b""
            return err.code, dict(err.headers or {}), data, f"answered {err.code}"
        except (urllib.error.URLError, http.client.HTTPException, TimeoutError, ConnectionError) as err:
            reason = getattr(err, "reason", err)
            return None, {}, b"", f"no answer ({type(reason).__name__}: {reason})"


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
    text = data.decode("utf-8", "replace").strip()
    return repr(text if len(text) <= width else text[:width] + "...")


__all__ = ["KEY_VARIABLES", "MAX_WAIT", "RETRIED", "Endpoint", "api_key", "retry_after"]
