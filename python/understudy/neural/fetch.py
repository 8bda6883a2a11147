"""``understudy fetch-model``: a checkpoint with everything it names, for machines without a
network.

A COMET checkpoint names its encoder (``hparams.yaml``'s ``pretrained_model``), whose config and
tokenizer it does not hold; MetricX reads an mT5 tokenizer that its checkpoint does not name
(predict.py's ``--tokenizer``). Fetched into the hub cache, both are found there by name with
``HF_HUB_OFFLINE=1``; fetched into a folder, the checkpoint goes to ``FOLDER/NAME`` and what it
names inside it, where the metrics look first (:func:`~understudy.neural.xlmr.find_encoder`), so
that the one folder scores anywhere. Each folder records the hub commit and its files' hashes:
scored from the folder, the signature is the hub name's, as long as the files are those fetched.

>>> Fetched("Unbabel/wmt22-comet-da", "2760a223ac957f30acfb18c8aa649b01cf1d75f2", Path(".")).pinned
'Unbabel/wmt22-comet-da@2760a223ac957f30acfb18c8aa649b01cf1d75f2'
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from understudy.computed.metricx import DEFAULT_TOKENIZER
from understudy.errors import ModelError
from understudy.neural.base import layouts
from understudy.neural.checkpoints import download, manifest_files, split_spec, write_manifest
from understudy.neural.hub_digests import hub_files


@dataclass(frozen=True)
class Fetched:
    """One repository fetched: its hub name, the commit, and the folder it is in (``cached``:
    a snapshot of the hub cache)."""

    name: str
    commit: str
    folder: Path
    cached: bool = False

    @property
    def pinned(self) -> str:
        """``NAME@COMMIT``: what to give to score this very revision anywhere."""
        return f"{self.name}@{self.commit}"


def fetch_model(spec: str, to: Path | None = None, tokenizer: str = DEFAULT_TOKENIZER) -> list[Fetched]:
    """Fetch the checkpoint ``spec`` (``NAME`` or ``NAME@REVISION``) and what it names: a COMET
    checkpoint's encoder config and tokenizer, a MetricX checkpoint's mT5 ``tokenizer``; into the
    hub cache, or with ``to`` into ``to/NAME`` (what it names inside it)."""
    name, revision = split_spec(spec)
    main = _fetch(name, revision, None, None if to is None else to / name)
    layout = next((cls for cls in layouts() if cls.recognises(main.folder)), None)
    if layout is None:
        told = " nor ".join(f"{cls.__name__}'s ({cls.marker})" for cls in layouts())
        raise ModelError(f"{name}: no checkpoint layout understudy reads: neither {told}")
    beside = layout.names_beside(main.folder, tokenizer)
    if beside is None:
        return [main]
    needed, files = beside
    inside = None if main.cached else main.folder / needed
    return [main, _fetch(*split_spec(needed), files, inside)]


def _fetch(name: str, revision: str | None, patterns: list[str] | None, folder: Path | None) -> Fetched:
    """One repository into the cache, or into ``folder`` with its manifest: the commit the hub
    resolves ``revision`` to now, each file checked against the hub's digest."""
    if folder is None:
        # By the name asked, so that the cache keeps its ref (offline use by name); the
        # snapshot's folder is its commit, and the files are checked against that commit's.
        snapshot = download(name, revision, patterns, fetching=True)
        hub_files(name, snapshot.name).check(snapshot, patterns, name)
        return Fetched(name, snapshot.name, snapshot, cached=True)
    hub = hub_files(name, revision)
    folder.mkdir(parents=True, exist_ok=True)
    wanted = hub.paths(patterns)
    for stale in set(manifest_files(folder)) - set(wanted):
        # Fetched before, gone from the commit now (the branch moved): not part of this folder.
        (folder / stale).unlink(missing_ok=True)
    download(name, hub.commit, patterns, local_dir=folder, fetching=True)
    hub.check(folder, patterns, name)
    write_manifest(folder, name, hub.commit, wanted)
    return Fetched(name, hub.commit, folder)
