"""How a judge's request travels: a whole-request deadline, an abort that ends it at once, no
credential carried to another host, and no credential in any message.

A :class:`Watch` holds the sockets of one request and cuts them when its time is up or when it
is told to (Ctrl-C): a read blocked on a silent server, or an answer trickled a byte at a time,
ends then, not after a socket timeout per byte. :func:`opener` is urllib's (proxies from the
environment as usual) with its connections watched and redirects kept to the endpoint's origin.

>>> redact("echo: Authorization: Bearer sk-abc123, ok")
'echo: Authorization: Bearer [redacted], ok'
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import socket
import threading
import urllib.parse
import urllib.request
from types import TracebackType
from typing import Any

from understudy.errors import JudgeEndpointError

KEY_VARIABLES = ("UNDERSTUDY_JUDGE_KEY", "OPENAI_API_KEY")
"""Where the key is read from, in this order."""

_BEARER = re.compile(r"(Bearer\s+)[^\s\"',;]+", re.I)


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


def redact(text: str) -> str:
    """``text`` with the key (of any variable read for it) and every ``Bearer`` token replaced
    by ``[redacted]``: a server may echo the request's headers in its error."""
    for name in KEY_VARIABLES:
        value = os.environ.get(name)
        if value:
            text = text.replace(value, "[redacted]")
    return _BEARER.sub(r"\1[redacted]", text)


class Watch:
    """One request's sockets, cut when ``timeout`` seconds have passed since entering, or on
    :meth:`cut`; ``expired`` says the deadline did it."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.expired = False
        self._cut = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(timeout, self._expire)
        self._timer.daemon = True

    def __enter__(self) -> Watch:
        self._timer.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._timer.cancel()

    def _expire(self) -> None:
        self.expired = True
        self.cut()

    def track(self, sock: socket.socket) -> None:
        """Watch ``sock`` (cut at once if the request was already cut)."""
        with self._lock:
            self._sockets.append(sock)
            cut = self._cut
        if cut:
            _shut(sock)

    def cut(self) -> None:
        """End the request now: its blocked reads and writes return with an error."""
        with self._lock:
            self._cut = True
            sockets = list(self._sockets)
        for sock in sockets:
            _shut(sock)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed: nothing left to end
        sock.shutdown(socket.SHUT_RDWR)


def _origin(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return parts.scheme, f"{parts.hostname}:{parts.port or default}"


class _SameOrigin(urllib.request.HTTPRedirectHandler):
    """Redirects within the endpoint's origin only, the request sent again as it was; the key
    never goes to another host."""

    def redirect_request(
        self, req: urllib.request.Request, fp: Any, code: int, msg: str, headers: Any, newurl: str
    ) -> urllib.request.Request | None:
        if _origin(newurl) != _origin(req.full_url):
            where = "{}://{}".format(*_origin(newurl))
            raise JudgeEndpointError(
                f"{req.full_url} redirects ({code}) to another host, {where}: understudy does not send"
                " the key there (give that address as --judge-url if it is the endpoint)"
            )
        # The request again, as it was (urllib would drop a POST's body, or refuse a 307).
        return urllib.request.Request(
            newurl,
            data=req.data,
            headers=dict(req.header_items()),
            method=req.get_method(),
            unverifiable=True,
        )


def opener(watch: Watch) -> urllib.request.OpenerDirector:
    """urllib's opener whose connections ``watch`` holds, redirects kept to one origin."""

    class HTTP(http.client.HTTPConnection):
        def connect(self) -> None:
            super().connect()
            watch.track(self.sock)

    class HTTPS(http.client.HTTPSConnection):
        def connect(self) -> None:
            super().connect()
            watch.track(self.sock)

    class HTTPHandler(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(HTTP, req)

    class HTTPSHandler(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
            return self.do_open(HTTPS, req, context=self._context)  # type: ignore[attr-defined]

    return urllib.request.build_opener(HTTPHandler(), HTTPSHandler(), _SameOrigin())
