"""Where a neural metric's checkpoint is: a hub name, ``NAME@REVISION``, or a local folder.

A hub name is fetched into (or found in) the Hugging Face cache by huggingface-hub, which
honours ``HF_ENDPOINT``, ``HF_HOME``, ``HF_TOKEN`` and ``HF_HUB_OFFLINE``; its revision is the
commit the name resolved to. A local folder's revision is the commit of the hub snapshot it is
(``.../snapshots/<commit>``), else ``sha256-`` and the start of the SHA-256 of every file the
model reads there (the weights, the configuration, the tokenizer's files): two checkpoints that
differ in any of them never pass for one revision. Text that looks like a path (``./``, ``/``,
``~``, a parent folder that exists) and names no folder is "no such folder", never a hub name.

>>> split_spec("Unbabel/wmt22-comet-da@2760a223ac957f30acfb18c8aa649b01cf1d75f2")[1][:7]
'2760a22'
>>> split_spec("Unbabel/wmt22-comet-da")
('Unbabel/wmt22-comet-da', None)
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from os import PathLike, fspath
from pathlib import Path
from typing import Any

from understudy.errors import HubUnreachableError, ModelError
from understudy.neural._extra import need

_COMMIT = re.compile(r"[0-9a-f]{40}")
MANIFEST = ".understudy-fetched.json"
"""The file in which ``understudy fetch-model`` records what a folder was on the hub."""
_HASH_CHUNK = 1 << 22


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint found: its folder, its name (the hub name, or the folder's name) and its
    revision."""

    folder: Path
    name: str
    revision: str

    def spec(self) -> str:
        """How another process (a Dask worker) finds this very checkpoint: ``NAME@COMMIT`` for
        a hub snapshot, else the folder's absolute path."""
        if _COMMIT.fullmatch(self.revision):  # a hub snapshot's; a folder's is its files' hash
            return f"{self.name}@{self.revision}"
        return str(self.folder.resolve())


def split_spec(spec: str) -> tuple[str, str | None]:
    """``NAME@REVISION`` as ``(NAME, REVISION)``; a name without ``@`` has no revision."""
    name, sep, revision = spec.rpartition("@")
    if not sep or "/" in revision or not name:
        return spec, None
    if not revision:
        raise ModelError(f"{spec!r}: a revision after @ is empty (give NAME or NAME@REVISION)")
    return name, revision


def file_revision(path: Path) -> str:
    """``sha256-`` and the first 16 hex digits of a file's SHA-256."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_HASH_CHUNK):
            digest.update(block)
    return f"sha256-{digest.hexdigest()[:16]}"


def file_hashes(folder: Path, reads: Sequence[str]) -> dict[str, str]:
    """The :func:`file_revision` of each file of ``folder`` that the glob patterns ``reads``
    match, by its path inside the folder, in name order."""
    files = sorted({path for pattern in reads if pattern for path in folder.glob(pattern) if path.is_file()})
    return {path.relative_to(folder).as_posix(): file_revision(path) for path in files}


def folder_revision(folder: Path, reads: Sequence[str], hashes: dict[str, str] | None = None) -> str:
    """``sha256-`` and the first 16 hex digits of the SHA-256 of the files of ``folder`` that the
    glob patterns ``reads`` match, names and contents, in name order (one file: its own
    :func:`file_revision`, as before several were hashed); ``hashes``: theirs, already made."""
    hashes = file_hashes(folder, reads) if hashes is None else hashes
    if len(hashes) == 1:
        return next(iter(hashes.values()))
    digest = hashlib.sha256()
    for name, hashed in hashes.items():
        encoded = name.encode("utf-8", "surrogateescape")
        digest.update(len(encoded).to_bytes(8, "little") + encoded)
        digest.update(hashed.encode())
    return f"sha256-{digest.hexdigest()[:16]}"


def write_manifest(folder: Path, name: str, revision: str, files: Sequence[str]) -> None:
    """Record in ``folder`` (a checkpoint fetched from the hub) its hub name, its commit and the
    hash of each of its ``files`` (that commit's, as paths inside it), so that the folder signs as
    the hub name does while its files are the ones fetched (:func:`local`)."""
    from understudy.files.atomic import atomic_write

    hashes = {path: file_revision(folder / path) for path in sorted(files)}
    record = {"name": name, "revision": revision, "files": hashes}
    with atomic_write(folder / MANIFEST) as out:
        out.write(json.dumps(record, indent=1, sort_keys=True).encode("utf-8"))


def _manifest(folder: Path) -> tuple[str, str, dict[str, str]] | None:
    """A fetched folder's manifest: its hub name, commit and files' hashes (``None``: none, or
    not one this package wrote)."""
    try:
        record = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        name, revision, files = record["name"], record["revision"], record["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (str(name), str(revision), files) if isinstance(files, dict) else None


def manifest_files(folder: Path) -> list[str]:
    """The files a fetched folder's manifest lists (none without one)."""
    found = _manifest(folder)
    return [] if found is None else [str(path) for path in found[2]]


def _fetched(folder: Path, hashes: dict[str, str]) -> tuple[str, str] | None:
    """The hub name and commit a fetched folder was, when every file read (``hashes``) is the
    one fetched; ``None`` for a folder without a manifest, or with a file changed since."""
    found = _manifest(folder)
    if found is None:
        return None
    name, revision, files = found
    same = bool(hashes) and all(files.get(path) == hashed for path, hashed in hashes.items())
    return (str(name), str(revision)) if same and _COMMIT.fullmatch(str(revision)) else None


def looks_like_path(text: str) -> bool:
    """Whether ``text`` is meant as a folder rather than a hub name: it starts with ``./``,
    ``../``, ``/`` or ``~`` (or a drive), or its parent folder exists.

    >>> looks_like_path("./no-such"), looks_like_path("Unbabel/wmt22-comet-da"), looks_like_path("~/m")
    (True, False, True)
    """
    if text in (".", "..") or text.startswith(("./", "../", "/", "~", ".\\", "..\\")):
        return True
    if re.match(r"[A-Za-z]:[\\/]", text):
        return True
    parent = Path(text).parent
    return str(parent) not in ("", ".") and parent.is_dir()


def locate(
    spec: str | PathLike[str],
    weights: str,
    patterns: list[str] | None = None,
    reads: Sequence[str] | None = None,
) -> Checkpoint:
    """The checkpoint ``spec`` names, whose weights are the file ``weights`` inside its folder:
    a local folder when one exists at ``spec``, else a hub name fetched (``patterns``: only the
    files matching them). A local folder's revision hashes the files ``reads`` matches (by
    default ``patterns``, else ``weights``)."""
    text = fspath(spec)
    folder = Path(text).expanduser()
    reads = reads or patterns or [weights]
    if folder.is_dir():
        return local(folder, weights, reads)
    if looks_like_path(text) or (os.sep in text and not re.fullmatch(r"[\w.-]+/[\w.-]+(@[\w./-]+)?", text)):
        raise ModelError(f"{text}: no such folder (a checkpoint is a local folder or a hub name, ORG/NAME)")
    name, revision = split_spec(text)
    folder = download(name, revision, patterns)
    if weights and not (folder / weights).is_file():
        raise ModelError(f"{name}: the hub's files hold no {weights} (is it a checkpoint of this metric?)")
    return Checkpoint(folder, name, folder.name if _COMMIT.fullmatch(folder.name) else revision or "")


def named_by(name: str, checkpoint: Path, reads: Sequence[str], flag: str | None = None) -> Checkpoint:
    """What a checkpoint names but does not hold (COMET's encoder, MetricX's tokenizer), looked
    for in order: a folder of that name beside the checkpoint's folder, then inside it (where
    ``understudy fetch-model --to`` puts it); then as :func:`locate` finds a name (a folder as
    given, the hub's cache, the hub). ``reads``: the files the model reads of it; ``flag``: the
    option that names it, for the message when it is nowhere."""
    places = (checkpoint.parent / name, checkpoint / name)
    for place in places:
        if place.is_dir():
            return local(place, "", reads)
    try:
        return locate(name, "", list(reads))
    except HubUnreachableError as err:
        where = (
            f"the checkpoint {checkpoint} reads {name}, looked for in turn at {places[0]}, at {places[1]},"
            f" as the folder {name}, in the hub cache and on the hub"
        )
        option = f"; or name its folder with {flag}" if flag else ""
        raise HubUnreachableError(f"{where}; none has it: {err}{option}") from None


def local(folder: Path, weights: str, reads: Sequence[str] = ()) -> Checkpoint:
    """A checkpoint in a local folder, with its revision: the hub commit of a snapshot of the
    hub's cache, else the hash of the files ``reads`` matches (by default ``weights``)."""
    path = folder / weights if weights else folder
    if weights and not path.is_file():
        raise ModelError(f"{folder}: no {weights} in this folder (expected the published layout)")
    resolved = folder.resolve()
    in_cache = resolved.parent.name == "snapshots" and _COMMIT.fullmatch(resolved.name)
    if in_cache:
        name = resolved.parent.parent.name.removeprefix("models--").replace("--", "/")
        return Checkpoint(folder, name, resolved.name)
    hashes = file_hashes(folder, list(reads) or [weights])
    fetched = _fetched(folder, hashes)
    if fetched is not None:  # understudy fetch-model's folder, as it was fetched: the hub's name
        return Checkpoint(folder, *fetched)
    return Checkpoint(folder, resolved.name, folder_revision(folder, [], hashes))


def download(
    name: str,
    revision: str | None,
    patterns: list[str] | None = None,
    local_dir: Path | None = None,
    fetching: bool = False,
) -> Path:
    """A hub repository's snapshot folder, fetched into the cache or found there; with
    ``local_dir``, its files written into that folder instead (``fetching``: for fetch-model,
    whose failures say so)."""
    # First, as importing it sets the library's log level, which is held below.
    fetch = need("huggingface_hub").snapshot_download
    if not sys.stderr.isatty():
        need("huggingface_hub.utils").disable_progress_bars()  # its bars are for a person at a terminal
    # Its retries log a warning each ("Trying to resume download..."); the outcome is ours to say.
    log = logging.getLogger("huggingface_hub")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        where = {} if local_dir is None else {"local_dir": str(local_dir)}
        return Path(fetch(name, revision=revision, allow_patterns=patterns, **where))
    except Exception as err:  # the transport's own errors (httpx) come through as they are
        raise download_error(name, revision, err, fetching) from None
    finally:
        log.setLevel(level)


def download_error(name: str, revision: str | None, err: Exception, fetching: bool = False) -> ModelError:
    """What to raise for a failed download, by what failed (``fetching``: for fetch-model, which
    has no local copy to fall back on)."""
    errors = need("huggingface_hub.errors")
    wanted = f"{name}@{revision}" if revision else name
    if isinstance(err, errors.GatedRepoError):
        return ModelError(
            f"{name} is gated: accept its licence on its hub page, then log in (hf auth login)"
            " or set HF_TOKEN"
        )
    if isinstance(err, errors.RevisionNotFoundError):
        return ModelError(f"{name} has no revision {revision!r} on the hub")
    if isinstance(err, errors.RepositoryNotFoundError):
        return ModelError(f"{name}: no such model on the hub (or it is private: set HF_TOKEN)")
    if _unreachable(err):
        why = _why_unreachable(err)
        if fetching:
            return HubUnreachableError(f"{wanted}: the hub cannot be reached ({why}): nothing was fetched")
        where = need("huggingface_hub.constants").HF_HUB_CACHE
        return HubUnreachableError(
            f"{wanted} is not in the local cache ({where}) and the hub cannot be reached ({why}):"
            f" fetch it with `understudy fetch-model {wanted}` where the hub is reachable, or give a"
            " local folder"
        )
    return ModelError(
        f"{name}: the download failed, nothing of it is used ({type(err).__name__}: {_first_line(err)})"
    )


def _unreachable(err: Exception) -> bool:
    """Whether ``err`` says the hub was not reached (offline mode, no connection), whichever
    transport huggingface-hub runs on (its transport errors are named ``...TransportError``)."""
    errors = need("huggingface_hub.errors")
    if isinstance(err, errors.LocalEntryNotFoundError | ConnectionError | TimeoutError):
        return True
    return any(kind.__name__ == "TransportError" for kind in type(err).__mro__)


def _why_unreachable(err: Exception) -> str:
    constants = need("huggingface_hub.constants")
    if constants.HF_HUB_OFFLINE:
        return "HF_HUB_OFFLINE is set"
    return f"{constants.ENDPOINT}: {_first_line(err)}"


def _first_line(err: Any) -> str:
    return str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
