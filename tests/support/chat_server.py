"""A stand-in for an OpenAI-compatible chat-completions endpoint on 127.0.0.1: it answers each
request with the next scripted reply (an answer's text, or a status with headers, a slow answer,
a connection dropped mid-body), then with ``default``, and records every request."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One reply: ``text`` as a chat completion (status 200), or ``status`` with ``body``."""

    text: str | None = None
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    delay: float = 0.0
    drop: bool = False
    """Send the headers and half the body, then close the connection."""

    def payload(self) -> bytes:
        if self.text is None:
            return self.body
        answer = {"choices": [{"index": 0, "message": {"role": "assistant", "content": self.text}}]}
        return json.dumps(answer).encode()


@dataclass
class Request:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ChatServer:
    """The server: ``url`` is the base (up to ``/v1``); ``script`` the replies to come."""

    def __init__(self, default: Reply | None = None) -> None:
        self.script: deque[Reply] = deque()
        self.default = default or Reply(text="ok")
        self.respond: Callable[[dict[str, Any]], Reply] | None = None
        """Replies made from the request's body (when set, the script is not read)."""
        self.requests: list[Request] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append(Request(self.path, dict(self.headers), body))
                if server.respond is not None:
                    reply = server.respond(body)
                else:
                    reply = server.script.popleft() if server.script else server.default
                time.sleep(reply.delay)
                data = reply.payload()
                self.send_response(reply.status)
                for key, value in {**reply.headers, "Content-Length": str(len(data))}.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data[: len(data) // 2] if reply.drop else data)
                self.wfile.flush()
                if reply.drop:
                    self.close_connection = True

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
