"""A local HTTP server on 127.0.0.1 that serves test-set downloads well and badly, and builders.

Routes are set per test: ``server.serve(path, body, mode)`` where mode is one of

- ``ok``: the body with its Content-Length;
- ``truncated``: Content-Length of the whole body, half of it sent, then the connection closed;
- ``slow``: the body in small pieces with pauses between them;
- ``stall``: the headers, then silence for longer than any test's timeout;
- ``cut-once``: no Content-Length; the first response half the body, the next ones all of it;
- ``flaky``: HTTP 503 for the first two requests, then the body;
- any other path: 404.

``server.hits[path]`` counts the requests for a path.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import tarfile
import threading
import time
import zipfile
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

SLOW_PIECES = 20
SLOW_PAUSE = 0.03
STALL_SECONDS = 5.0


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        server = self.server
        with server.lock:
            server.hits[self.path] += 1
            hit = server.hits[self.path]
        route = server.routes.get(self.path)
        if route is None:
            self.send_error(404, "Not Found")
            return
        body, mode = route
        if mode == "flaky" and hit <= 2:
            self.send_error(503, "Service Unavailable")
            return
        self.send_response(200)
        if mode == "cut-once":
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body[: len(body) // 2] if hit == 1 else body)
            self.close_connection = True
            return
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._send(body, mode)

    def _send(self, body: bytes, mode: str) -> None:
        if mode == "truncated":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
        elif mode == "slow":
            step = max(1, len(body) // SLOW_PIECES)
            for start in range(0, len(body), step):
                self.wfile.write(body[start : start + step])
                self.wfile.flush()
                time.sleep(SLOW_PAUSE)
        elif mode == "stall":
            self.wfile.flush()
            time.sleep(STALL_SECONDS)
        else:
            self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes: dict[str, tuple[bytes, str]] = {}
        self.hits: Counter[str] = Counter()
        self.lock = threading.Lock()

    def serve(self, path: str, body: bytes, mode: str = "ok") -> str:
        """Serve ``body`` at ``path`` in ``mode``; returns its URL."""
        self.routes[path] = (body, mode)
        return self.url(path)

    def url(self, path: str) -> str:
        """The URL of ``path`` on this server."""
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}{path}"


def running_server() -> Iterator[_Server]:
    """A server on a free port, for the life of a fixture."""
    server = _Server()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def md5(data: bytes) -> str:
    """The hex MD5 of ``data``."""
    return hashlib.md5(data).hexdigest()


def tar_gz(members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    """A .tar.gz with these files (name to bytes) and symbolic links (name to target)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            tar.addfile(info)
    return buffer.getvalue()


def zip_bytes(members: dict[str, bytes]) -> bytes:
    """A .zip with these files (names written as given, ``..`` included)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in members.items():
            zf.writestr(zipfile.ZipInfo(name), data)
    return buffer.getvalue()


def sgml(segments: list[str], docs: list[tuple[dict[str, str], int]], root: str = "srcset") -> bytes:
    """A WMT .sgm file: ``docs`` gives each document's attributes and how many segments it has."""
    lines = [f'<{root} setid="test" srclang="any">']
    it = iter(segments)
    for attributes, count in docs:
        attrs = " ".join(f'{k}="{v}"' for k, v in attributes.items())
        lines.append(f"<doc {attrs}>")
        lines += [f'<seg id="{k + 1}">{next(it)}</seg>' for k in range(count)]
        lines.append("</doc>")
    lines.append(f"</{root}>")
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_registry(
    path: Path, sets: dict[str, Any], subsets: dict[str, dict[str, str]] | None = None
) -> Path:
    """A registry file in the package's format, for ``UNDERSTUDY_REGISTRY``."""
    path.write_text(json.dumps({"schema": 1, "testsets": sets, "subsets": subsets or {}}), encoding="utf-8")
    return path
