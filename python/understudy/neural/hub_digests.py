"""What the hub says a repository holds at a commit, and fetched files checked against it.

``fetch-model`` first asks the hub which commit a name (or ``NAME@REVISION``) is now and each of
that commit's files with its digest: the SHA-256 for a file kept in Git LFS (the weights), the
git blob id for the others. It then fetches that very commit, so a branch that moves meanwhile
cannot mix two commits, and checks every file fetched: a file whose bytes are not the hub's is
removed and refused, never signed as the hub's commit.

>>> git_blob_id(b"hello\\n")  # as `git hash-object` gives it
'ce013625030ba8dba906f756967f9e9ca394464a'
>>> HubFiles("c" * 40, {"model.ckpt": ("sha256", "ab"), "hparams.yaml": ("git", "cd")}).paths(["*.yaml"])
['hparams.yaml']
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from understudy.errors import ModelError
from understudy.neural._extra import need

_CHUNK = 1 << 22


@dataclass(frozen=True)
class HubFiles:
    """A commit and its files: path to ``(kind, hex digest)``, kind ``sha256`` or ``git``."""

    commit: str
    digests: dict[str, tuple[str, str]]

    def paths(self, patterns: Sequence[str] | None) -> list[str]:
        """The commit's files that the glob ``patterns`` select (all for ``None``), as
        huggingface-hub selects what it downloads."""
        select = need("huggingface_hub.utils").filter_repo_objects
        return sorted(select(self.digests, allow_patterns=None if patterns is None else list(patterns)))

    def check(self, folder: Path, patterns: Sequence[str] | None, name: str) -> None:
        """Refuse (``ModelError``) a selected file of ``folder`` whose bytes are not the hub's, or
        that is missing; a wrong file is removed first, so that nothing of it is used."""
        for path in self.paths(patterns):
            found = folder / path
            if not found.exists():
                raise ModelError(f"{name}@{self.commit}: {path} was not fetched; fetch again")
            kind, wanted = self.digests[path]
            got = file_digest(found, kind)
            if got != wanted:
                _remove(found)
                raise ModelError(
                    f"{name}@{self.commit}: {path} is not the hub's file (its {_label(kind)} is {got},"
                    f" the hub's {wanted}): it was removed and nothing of it is used; fetch again"
                )


def hub_files(name: str, revision: str | None) -> HubFiles:
    """The commit that ``name`` at ``revision`` (``None``: the default branch) is on the hub now,
    and its files' digests."""
    from understudy.neural.checkpoints import download_error

    api = need("huggingface_hub").HfApi()
    try:
        info = api.model_info(name, revision=revision, files_metadata=True)
    except Exception as err:  # the transport's own errors (httpx) come through as they are
        raise download_error(name, revision, err, fetching=True) from None
    digests: dict[str, tuple[str, str]] = {}
    for sibling in info.siblings or []:
        if sibling.lfs is not None and sibling.lfs.sha256:
            digests[sibling.rfilename] = ("sha256", sibling.lfs.sha256)
        elif sibling.blob_id:
            digests[sibling.rfilename] = ("git", sibling.blob_id)
        else:
            raise ModelError(
                f"{name}: the hub gave no digest of {sibling.rfilename}, so it cannot be checked"
            )
    return HubFiles(str(info.sha), digests)


def file_digest(path: Path, kind: str) -> str:
    """A file's SHA-256 (``sha256``) or git blob id (``git``), in hex."""
    digest = (
        hashlib.sha256()
        if kind == "sha256"
        else hashlib.sha1(b"blob %d\0" % path.stat().st_size, usedforsecurity=False)
    )
    with open(path, "rb") as fh:
        while block := fh.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def git_blob_id(data: bytes) -> str:
    """The git blob id of ``data``: SHA-1 of ``blob SIZE\\0`` and the bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _label(kind: str) -> str:
    return "SHA-256" if kind == "sha256" else "git blob id"


def _remove(path: Path) -> None:
    """A wrong file out of the way: in the hub cache, the blob a snapshot's link names too."""
    target = path.resolve()
    path.unlink()
    if target != path.absolute():
        target.unlink(missing_ok=True)


__all__ = ["HubFiles", "file_digest", "git_blob_id", "hub_files"]
