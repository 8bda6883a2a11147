"""One small test set, written by a test, loaded both by understudy and by sacrebleu 2.6.0.

The set's files are packed into a .tar.gz under ``tmp``; understudy sees it through a
registry file in ``$UNDERSTUDY_REGISTRY`` and sacrebleu through an entry added to its
``DATASETS`` (both with a ``file://`` URL and the archive's MD5), so both tools fetch,
unpack and parse the same bytes, and their fields, echo output and scores can be
compared.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

import pytest
import sacrebleu.dataset as sb_dataset
import sacrebleu.dataset.base as sb_base
import sacrebleu.sacrebleu as sb_cli
import sacrebleu.utils as sb_utils
from sacrebleu.dataset.fake_sgml import FakeSGMLDataset, WMTAdditionDataset
from sacrebleu.dataset.iwslt_xml import IWSLTXMLDataset
from sacrebleu.dataset.plain_text import PlainTextDataset
from sacrebleu.dataset.tsv import TSVDataset
from sacrebleu.dataset.wmt_xml import WMTXMLDataset
from understudy.datasets import Cache, DatasetFields, load

from tests.support.testset_server import md5, tar_gz, write_registry

REPO = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("export_registry", REPO / "scripts" / "export_registry.py")
assert _spec is not None and _spec.loader is not None
export_registry = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(export_registry)

CLASSES: dict[str, type[Any]] = {
    "wmt-sgml": FakeSGMLDataset,
    "wmt-addition": WMTAdditionDataset,
    "iwslt-xml": IWSLTXMLDataset,
    "wmt-xml": WMTXMLDataset,
    "plain": PlainTextDataset,
    "tsv": TSVDataset,
}


class TwinSet:
    """A test set named ``name`` in both tools; ``langpairs`` in sacrebleu's notation."""

    def __init__(
        self,
        tmp: Path,
        monkeypatch: pytest.MonkeyPatch,
        name: str,
        kind: str,
        files: dict[str, bytes],
        langpairs: dict[str, Any],
        plain_downloads: dict[str, bytes] | None = None,
        subsets: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> None:
        self.name = name
        self.tmp = tmp
        archive = tmp / "served" / f"{name.replace('/', '_')}.tgz"
        archive.parent.mkdir(parents=True, exist_ok=True)
        archive.write_bytes(tar_gz(files))
        downloads = [(archive.as_uri(), md5(archive.read_bytes()))]
        for basename, data in (plain_downloads or {}).items():
            path = tmp / "served" / basename
            path.write_bytes(data)
            downloads.append((path.as_uri(), md5(data)))
        urls = [u for u, _ in downloads]
        cls = CLASSES[kind]
        dataset = cls(
            name, data=urls, md5=[m for _, m in downloads], langpairs=langpairs, description="t", **kwargs
        )
        sacre_dir = tmp / "sacrebleu"
        for module in (sb_base, sb_utils):
            monkeypatch.setattr(module, "SACREBLEU_DIR", str(sacre_dir))
        monkeypatch.setattr(dataset, "_outdir", str(sacre_dir / name))
        monkeypatch.setattr(dataset, "_rawdir", str(sacre_dir / name / "raw"))
        monkeypatch.setitem(sb_dataset.DATASETS, name, dataset)
        if subsets is not None:
            monkeypatch.setitem(sb_dataset.SUBSETS, name, subsets)
        self.sacrebleu = dataset
        ours_kind = "wmt-sgml" if kind == "wmt-addition" else kind
        record: dict[str, Any] = {
            "format": ours_kind,
            "description": "t",
            "downloads": [{"url": u, "md5": m} for u, m in downloads],
            "langpairs": {p: export_registry._pair(name, ours_kind, v, urls) for p, v in langpairs.items()},
        }
        if "refs" in kwargs:
            record["refs"] = kwargs["refs"]
        if name.startswith("wmt08"):
            record["doc_fields"] = False
        registry = write_registry(
            tmp / f"{name.replace('/', '_')}.json",
            {name: record},
            {name: subsets} if subsets is not None else None,
        )
        monkeypatch.setenv("UNDERSTUDY_REGISTRY", str(registry))
        self.cache_dir = tmp / "cache"
        monkeypatch.setenv("UNDERSTUDY_CACHE", str(self.cache_dir))

    def ours(self, pair: str) -> DatasetFields:
        """understudy's fields of ``pair``."""
        return load(self.name, pair, Cache(self.cache_dir))

    def theirs(self, pair: str) -> dict[str, list[str]]:
        """sacrebleu's fields of ``pair``, read back from its processed files as its CLI reads them."""
        fields = self.sacrebleu.fieldnames(pair)
        files = self.sacrebleu.get_files(pair)
        out = {}
        for field, path in zip(fields, files, strict=True):
            with open(path, encoding="utf-8", newline="\n") as fh:
                out[field] = [line.rstrip() for line in fh]
        return out

    def their_ref_fields(self, pair: str) -> list[str]:
        """The fields sacrebleu scores against, by the files it returns."""
        files = self.sacrebleu.get_reference_files(pair)
        names = dict(zip(self.sacrebleu.get_files(pair), self.sacrebleu.fieldnames(pair), strict=True))
        return [names[f] for f in files]


class _Descriptor:
    """Stands in for a stream whose descriptor sacrebleu reopens (and then owns)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


def run_sacrebleu(argv: list[str], capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """sacrebleu's command line, in process (so it sees the twin sets); its stdout.

    sacrebleu reopens standard input and output by descriptor (hence ``capfd``), and
    its file objects close the descriptor: it is given copies, closed here afterwards.
    """
    capfd.readouterr()
    monkeypatch.setattr(sys, "argv", ["sacrebleu", "-q", *argv])
    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin = _Descriptor(os.open(os.devnull, os.O_RDONLY))
    sys.stdout = _Descriptor(os.dup(stdout.fileno()))
    try:
        sb_cli.main()
    except SystemExit as exit:
        assert exit.code in (0, None), capfd.readouterr().err
    finally:
        for theirs in (sys.stdin, sys.stdout):
            if not isinstance(theirs, _Descriptor):
                theirs.close()
        sys.stdin, sys.stdout = stdin, stdout
    return capfd.readouterr().out
