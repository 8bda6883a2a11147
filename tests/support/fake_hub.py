"""A stand-in for the Hugging Face hub on 127.0.0.1, enough for huggingface-hub's downloads.

Repositories are folders of files at commits; a name resolves to its latest commit. A gated
repository answers 401 as the hub does; ``die_after`` cuts a file's body short and closes
the connection, as a server that dies mid-file. A repository's information lists each file's
digest as the hub's does (weights kept in LFS: their SHA-256; the others: their git blob id);
``tampered`` serves other bytes for a file than those digests, as a proxy that alters it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse


@dataclass
class Repo:
    """A repository's commits, oldest first: (commit hash, files by path)."""

    commits: list[tuple[str, dict[str, bytes]]] = field(default_factory=list)
    gated: bool = False

    def add(self, files: dict[str, bytes]) -> str:
        """A new commit of ``files``; its hash."""
        commit = hashlib.sha1(repr((len(self.commits), sorted(files))).encode()).hexdigest()
        self.commits.append((commit, files))
        return commit

    def at(self, revision: str) -> tuple[str, dict[str, bytes]] | None:
        if revision == "main":
            return self.commits[-1] if self.commits else None
        return next((c for c in self.commits if c[0] == revision), None)


LFS = (".ckpt", ".bin", ".safetensors", ".model", ".pt")
"""The endings the hub's repositories keep in Git LFS (the weights, SentencePiece models)."""


def _sibling(name: str, data: bytes) -> dict[str, Any]:
    """A file as the hub's model information lists it with ``blobs=true``."""
    if name.endswith(LFS):
        pointer = (
            f"version https://git-lfs.github.com/spec/v1\noid sha256:{hashlib.sha256(data).hexdigest()}\n"
        )
        lfs = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest(), "pointerSize": len(pointer)}
        return {"rfilename": name, "size": len(data), "blobId": _git_blob(pointer.encode()), "lfs": lfs}
    return {"rfilename": name, "size": len(data), "blobId": _git_blob(data)}


def _git_blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def folder_files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


class Hub:
    """The server: ``url`` for HF_ENDPOINT; ``requests`` logs the paths asked for."""

    def __init__(self) -> None:
        self.repos: dict[str, Repo] = {}
        self.requests: list[str] = []
        self.die_after: dict[str, tuple[int, int]] = {}
        """A file's name: (bytes sent before the connection dies, how many more times)."""
        self.tampered: dict[str, bytes] = {}
        """A file's name: the bytes sent instead of the commit's."""
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_HEAD(self) -> None:
                hub.answer(self, body=False)

            def do_GET(self) -> None:
                hub.answer(self, body=True)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def answer(self, handler: BaseHTTPRequestHandler, body: bool) -> None:
        path = unquote(urlparse(handler.path).path)
        self.requests.append(f"{handler.command} {path}")
        parts = path.strip("/").split("/")
        if parts[:2] == ["api", "models"] and len(parts) >= 3:
            # A repository's id is "org/name", or a bare legacy name such as "xlm-roberta-large".
            size = 1 if parts[2] in self.repos else 2
            repo_id, rest = "/".join(parts[2 : 2 + size]), parts[2 + size :]
            revision = rest[1] if len(rest) > 1 and rest[0] in ("revision", "tree") else "main"
            if rest[:1] == ["tree"]:
                return self._tree(handler, repo_id, revision, body)
            return self._info(handler, repo_id, revision, body)
        size = 1 if parts[0] in self.repos else 2
        if len(parts) >= size + 3 and parts[size] == "resolve":
            repo_id, revision = "/".join(parts[:size]), parts[size + 1]
            return self._file(handler, repo_id, revision, "/".join(parts[size + 2 :]), body)
        self._send(handler, 404, {"X-Error-Code": "EntryNotFound"}, b'{"error": "not found"}', body)

    def _refuse(self, handler: BaseHTTPRequestHandler, repo_id: str, body: bool) -> bool:
        repo = self.repos.get(repo_id)
        if repo is None:
            self._send(
                handler, 404, {"X-Error-Code": "RepoNotFound"}, b'{"error": "Repository not found"}', body
            )
            return True
        if repo.gated:
            message = json.dumps({"error": f"Access to model {repo_id} is restricted."}).encode()
            self._send(handler, 401, {"X-Error-Code": "GatedRepo", "X-Error-Message": "gated"}, message, body)
            return True
        return False

    def _revision(
        self, handler: BaseHTTPRequestHandler, repo_id: str, revision: str, body: bool
    ) -> tuple[str, dict[str, bytes]] | None:
        """The repository's commit and files at ``revision``; else the refusal or 404 is sent."""
        if self._refuse(handler, repo_id, body):
            return None
        found = self.repos[repo_id].at(revision)
        if found is None:
            self._send(
                handler, 404, {"X-Error-Code": "RevisionNotFound"}, b'{"error": "Invalid rev id"}', body
            )
        return found

    def _info(self, handler: BaseHTTPRequestHandler, repo_id: str, revision: str, body: bool) -> None:
        found = self._revision(handler, repo_id, revision, body)
        if found is None:
            return
        commit, files = found
        info = {
            "id": repo_id,
            "modelId": repo_id,
            "sha": commit,
            "private": False,
            "siblings": [_sibling(name, data) for name, data in sorted(files.items())],
        }
        self._send(handler, 200, {"Content-Type": "application/json"}, json.dumps(info).encode(), body)

    def _tree(self, handler: BaseHTTPRequestHandler, repo_id: str, revision: str, body: bool) -> None:
        found = self._revision(handler, repo_id, revision, body)
        if found is None:
            return
        entries = [
            {"type": "file", "path": name, "size": len(data), "oid": hashlib.sha1(data).hexdigest()}
            for name, data in sorted(found[1].items())
        ]
        self._send(handler, 200, {"Content-Type": "application/json"}, json.dumps(entries).encode(), body)

    def _file(
        self, handler: BaseHTTPRequestHandler, repo_id: str, revision: str, name: str, body: bool
    ) -> None:
        if self._refuse(handler, repo_id, body):
            return
        found = self.repos[repo_id].at(revision)
        if found is None or name not in found[1]:
            self._send(handler, 404, {"X-Error-Code": "EntryNotFound"}, b'{"error": "Entry not found"}', body)
            return
        commit, files = found
        data = self.tampered.get(name, files[name])
        headers = {
            "X-Repo-Commit": commit,
            "ETag": f'"{hashlib.sha256(data).hexdigest()}"',
            "Content-Type": "application/octet-stream",
        }
        cut, times = self.die_after.get(name, (None, 0)) if body else (None, 0)
        if cut is not None:
            self.die_after[name] = (cut, times - 1)
            if times <= 1:
                del self.die_after[name]
            handler.send_response(200)
            for key, value in {**headers, "Content-Length": str(len(data))}.items():
                handler.send_header(key, value)
            handler.end_headers()
            handler.wfile.write(data[:cut])
            handler.wfile.flush()
            handler.close_connection = True
            return
        self._send(handler, 200, headers, data, body)

    @staticmethod
    def _send(
        handler: BaseHTTPRequestHandler, status: int, headers: dict[str, str], data: bytes, body: bool
    ) -> None:
        handler.send_response(status)
        for key, value in {**headers, "Content-Length": str(len(data))}.items():
            handler.send_header(key, value)
        handler.end_headers()
        if body:
            handler.wfile.write(data)
