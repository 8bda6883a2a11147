"""A stand-in for an OpenAI-compatible chat-completions endpoint on 127.0.0.1, to try the judges
without a model and to test them: it answers each request with the next scripted reply (an
answer's text, or a status with headers, a slow answer, a connection dropped mid-body), or with
``respond(body)``, else ``default``, and records every request.

From the command line it answers every request with a made-up judgment of the hypothesis shown
(seeded by its text: the same hypothesis, the same answer), in GEMBA-MQM's or ESA's format. The
numbers show the plumbing; no model made them.

    url=$(python -m understudy.judges.mock --background)   # prints its URL once it listens
    understudy score ref.de -i hyp.de -m gemba-mqm --source src.en -l en-de \
        --judge-url "$url" --judge-model mock

>>> server = ChatServer(Reply(text="Critical:\\nno-error"))
>>> server.url.startswith("http://127.0.0.1:")
True
>>> server.close()
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
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
    hold: threading.Event | None = None
    """Answer only once this is set (at most 60 s): a client that gives up first has timed out."""
    trickle: float = 0.0
    """Send the body a byte at a time, this many seconds apart (a slow, never silent server)."""

    def payload(self) -> bytes:
        """The body sent: a chat completion holding ``text``, else ``body``."""
        if self.text is None:
            return self.body
        answer = {"choices": [{"index": 0, "message": {"role": "assistant", "content": self.text}}]}
        return json.dumps(answer).encode()


@dataclass
class Request:
    """A request received: its path, headers and JSON body."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class _Joined(ThreadingHTTPServer):
    """Closing waits for every request being answered: no answer outlives its server."""

    daemon_threads = False
    block_on_close = True
    request_queue_size = 128  # a client's concurrency of 16 or 64 connects at once


class ChatServer:
    """The server: ``url`` is the base (up to ``/v1``); ``script`` the replies to come."""

    def __init__(self, default: Reply | None = None, port: int = 0) -> None:
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
                server.last = time.monotonic()
                if server.respond is not None:
                    reply = server.respond(body)
                else:
                    reply = server.script.popleft() if server.script else server.default
                time.sleep(reply.delay)
                if reply.hold is not None:
                    reply.hold.wait(60)
                data = reply.payload()
                try:
                    self.send_response(reply.status)
                    for key, value in {**reply.headers, "Content-Length": str(len(data))}.items():
                        self.send_header(key, value)
                    self.end_headers()
                    if reply.trickle:
                        for k in range(len(data)):
                            self.wfile.write(data[k : k + 1])
                            self.wfile.flush()
                            time.sleep(reply.trickle)
                    else:
                        self.wfile.write(data[: len(data) // 2] if reply.drop else data)
                    self.wfile.flush()
                except OSError:  # the client gave up (a timeout): nobody to answer
                    self.close_connection = True
                if reply.drop:
                    self.close_connection = True

        self.last = time.monotonic()
        self.server = _Joined(("127.0.0.1", port), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        """Stop serving and release the port."""
        self.server.shutdown()
        self.server.server_close()


def made_up_answer(body: dict[str, Any], kind: str) -> Reply:
    """A judgment of the request's hypothesis, made up from its text (not a model's): the same
    hypothesis always gets the same answer.

    >>> body = {"messages": [{"content": "translation:\\n```Hallo Welt.```"}]}
    >>> made_up_answer(body, "esa").text == made_up_answer(body, "esa").text
    True
    >>> sorted(json.loads(made_up_answer(body, "esa").text))
    ['errors', 'score']
    """
    content = body["messages"][-1]["content"]
    found = re.search(r"translation:\n```(.*)```", content, re.S)
    hypothesis = found[1] if found else ""
    words = hypothesis.split()
    rng = random.Random(hashlib.sha256(hypothesis.encode("utf-8")).digest())
    wrong = [w for w in words if rng.random() < 0.08]
    if kind == "esa":
        errors = [{"span": w, "severity": "major" if len(w) > 8 else "minor"} for w in wrong]
        return Reply(text=json.dumps({"errors": errors, "score": max(0, 100 - 10 * len(wrong))}))
    sections = {
        "critical": [],
        "major": [w for w in wrong if len(w) > 8],
        "minor": [w for w in wrong if len(w) <= 8],
    }
    lines = []
    for level, spans in sections.items():
        lines.append(f"{level.capitalize()}:")
        lines.extend(f'accuracy/mistranslation - "{w}"' for w in spans) if spans else lines.append("no-error")
    return Reply(text="\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    """Serve made-up judgments until idle for ``--idle`` seconds; ``--background`` returns once
    the server listens, printing its URL."""
    parser = argparse.ArgumentParser(prog="python -m understudy.judges.mock", description=__doc__)
    parser.add_argument("--port", type=int, default=0, help="the port (default: a free one)")
    parser.add_argument("--kind", choices=["gemba-mqm", "esa"], default="gemba-mqm")
    parser.add_argument("--idle", type=float, default=60.0, help="stop after this many idle seconds")
    parser.add_argument(
        "--latency",
        type=float,
        default=0.0,
        help="seconds each answer takes, as a model's would (default: 0)",
    )
    parser.add_argument("--background", action="store_true", help="print the URL and return; serve on")
    args = parser.parse_args(argv)
    if args.background:
        reader, writer = os.pipe()
        if os.fork():
            os.close(writer)
            print(os.read(reader, 200).decode().strip())
            return 0
        os.close(reader)
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for descriptor in (0, 1, 2):  # the caller's $( ) and pipes end when the URL is read
            os.dup2(null, descriptor)
    server = ChatServer()
    server.respond = lambda body: replace(made_up_answer(body, args.kind), delay=args.latency)
    if args.background:
        os.write(writer, server.url.encode() + b"\n")
        os.close(writer)
    else:
        print(server.url, flush=True)
    while time.monotonic() - server.last < args.idle:
        time.sleep(0.2)
    server.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
