"""Unpacking tar and zip archives so that nothing lands outside the target folder.

Every member name is checked before anything is written: an absolute path, a drive
letter, a ``..`` part or a link whose target leaves the folder raises
:class:`~understudy.errors.UnsafeArchiveError`, as do devices and FIFOs. Links that
stay inside are written as copies of their target, so the tree holds only folders and
regular files. Unpacking goes to a temporary folder that is renamed into place only
when complete, with a manifest of every file's SHA-256 for re-verification.

>>> import io, tarfile, tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with tarfile.open(folder / "ok.tgz", "w:gz") as tar:
...     info = tarfile.TarInfo("test/a.txt"); info.size = 3
...     tar.addfile(info, io.BytesIO(b"abc"))
>>> manifest = unpack(folder / "ok.tgz", folder / "ok")
>>> (folder / "ok" / "test" / "a.txt").read_text(), list(manifest)
('abc', ['test/a.txt'])
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import posixpath
import shutil
import stat
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from understudy.errors import DatasetFormatError, UnsafeArchiveError

MANIFEST = ".understudy-manifest.json"
"""The file in an unpacked folder that maps each file's path to its SHA-256."""


@dataclass(frozen=True)
class _Member:
    """One archive entry: a folder, a file (``open`` gives its bytes) or a link."""

    name: str
    kind: str  # "dir", "file" or "link"
    link_target: str = ""


def _is_absolute(path: str) -> bool:
    """A POSIX root or a Windows drive letter (``C:``), with ``/`` or ``\\`` already unified."""
    return path.startswith("/") or (len(path) > 1 and path[1] == ":")


def safe_name(name: str, archive: str) -> str:
    """``name`` as a clean relative path, or :class:`UnsafeArchiveError` if it could escape."""
    unified = name.replace("\\", "/")
    if "\x00" in unified:
        raise UnsafeArchiveError(f"{archive}: member {name!r} has a NUL byte in its name")
    if _is_absolute(unified):
        raise UnsafeArchiveError(f"{archive}: member {name!r} has an absolute path")
    parts = [p for p in unified.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UnsafeArchiveError(f"{archive}: member {name!r} points outside the archive's folder")
    return "/".join(parts)


def _link_target(member: str, target: str, archive: str) -> str:
    unified = target.replace("\\", "/")
    if _is_absolute(unified):
        raise UnsafeArchiveError(f"{archive}: link {member!r} points to the absolute path {target!r}")
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(member), unified))
    if joined == ".." or joined.startswith("../"):
        raise UnsafeArchiveError(
            f"{archive}: link {member!r} points outside the archive's folder ({target!r})"
        )
    return joined


def _tar_members(tar: tarfile.TarFile, archive: str) -> Iterator[tuple[_Member, IO[bytes] | None]]:
    for info in tar:
        name = safe_name(info.name, archive)
        if info.isdir():
            yield _Member(name, "dir"), None
        elif info.issym():
            yield _Member(name, "link", _link_target(name, info.linkname, archive)), None
        elif info.islnk():
            target = safe_name(info.linkname, archive)
            yield _Member(name, "link", target), None
        elif info.isfile():
            yield _Member(name, "file"), tar.extractfile(info)
        else:
            raise UnsafeArchiveError(f"{archive}: member {info.name!r} is a device or FIFO, not a file")


def _zip_members(zf: zipfile.ZipFile, archive: str) -> Iterator[tuple[_Member, IO[bytes] | None]]:
    for info in zf.infolist():
        name = safe_name(info.filename, archive)
        mode = info.external_attr >> 16
        if info.is_dir():
            yield _Member(name, "dir"), None
        elif stat.S_ISLNK(mode):
            target = zf.read(info).decode("utf-8", "surrogateescape")
            yield _Member(name, "link", _link_target(name, target, archive)), None
        else:
            yield _Member(name, "file"), zf.open(info)


def _members(path: Path, stack: ExitStack) -> Iterator[tuple[_Member, IO[bytes] | None]]:
    archive = path.name
    if archive.endswith(".zip"):
        return _zip_members(stack.enter_context(zipfile.ZipFile(path)), archive)
    return _tar_members(stack.enter_context(tarfile.open(path)), archive)


def _write(source: IO[bytes], dest: Path) -> str:
    digest = hashlib.sha256()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with source, open(dest, "wb") as out:
        while block := source.read(1 << 20):
            digest.update(block)
            out.write(block)
    return digest.hexdigest()


def _resolve_links(root: Path, links: dict[str, str], manifest: dict[str, str]) -> None:
    """Write each link as a copy of its target file (chains of links included)."""
    for name, target in links.items():
        seen = {name}
        while target in links and target not in seen:
            seen.add(target)
            target = links[target]
        if target in manifest:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / target, root / name)
            manifest[name] = manifest[target]


def unpack(archive: Path, dest: Path) -> dict[str, str]:
    """Unpack ``archive`` (.tar.gz, .tgz, .zip) into the new folder ``dest``.

    Returns the manifest: each file's path (with ``/``) and SHA-256. ``dest`` appears
    only complete; on any error nothing is left behind.
    """
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.tmp-", dir=dest.parent))
    try:
        manifest: dict[str, str] = {}
        links: dict[str, str] = {}
        with ExitStack() as stack:
            try:
                for member, data in _members(archive, stack):
                    if member.name in ("", MANIFEST):
                        continue
                    if member.kind == "dir":
                        (tmp / member.name).mkdir(parents=True, exist_ok=True)
                    elif member.kind == "link":
                        links[member.name] = member.link_target
                    elif data is not None:
                        manifest[member.name] = _write(data, tmp / member.name)
            except (tarfile.TarError, zipfile.BadZipFile, gzip.BadGzipFile, EOFError, zlib.error) as err:
                raise DatasetFormatError(f"{archive.name}: not a readable archive: {err}") from None
        _resolve_links(tmp, links, manifest)
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=0, sort_keys=True), encoding="utf-8")
        os.rename(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return manifest


def read_manifest(folder: Path) -> dict[str, str] | None:
    """The manifest of an unpacked folder, or ``None`` if it has none (incomplete)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
