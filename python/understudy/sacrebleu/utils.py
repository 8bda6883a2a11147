"""sacrebleu's public helpers: test-set lookups, file paths, ``smart_open`` and ``SACREBLEU_DIR``.

>>> "wmt19" in get_available_testsets() and "wmt05" not in get_available_testsets()
True
>>> "wmt09" in get_available_testsets_for_langpair("en-it")
True
"""

from __future__ import annotations

import gzip
from typing import IO, Any, cast

from understudy.datasets import default_cache_dir
from understudy.errors import UnknownDatasetError
from understudy.sacrebleu.dataset import DATASETS

SACREBLEU_DIR = str(default_cache_dir())
"""understudy's cache folder, which plays the part of sacrebleu's ``~/.sacrebleu``."""


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> IO[Any]:
    """Open ``file`` for reading, decompressing ``.gz`` files, as sacrebleu does."""
    text = "b" not in mode
    newline = "\n" if text else None
    if file.endswith(".gz"):
        # The caller closes it, as with open().
        return cast(IO[Any], gzip.open(file, mode, encoding=encoding if text else None, newline=newline))
    return open(file, mode=mode, encoding=encoding if text else None, newline=newline)


def _dataset(test_set: str) -> Any:
    if test_set not in DATASETS:
        raise UnknownDatasetError(f"No such test set {test_set}")
    return DATASETS[test_set]


def get_source_file(test_set: str, langpair: str) -> str:
    """The path of the plain-text source file of ``test_set`` and ``langpair`` (fetched if needed)."""
    path: str = _dataset(test_set).get_source_file(langpair)
    return path


def get_reference_files(test_set: str, langpair: str) -> list[str]:
    """The paths of the plain-text reference files (fetched if needed)."""
    paths: list[str] = _dataset(test_set).get_reference_files(langpair)
    return paths


def download_test_set(test_set: str, langpair: str | None = None) -> list[str]:
    """Fetch ``test_set`` and return its plain-text files (of every pair, when ``langpair`` is None)."""
    dataset = _dataset(test_set)
    pairs = [langpair] if langpair else list(dataset.langpairs)
    return [path for pair in pairs for path in dataset.get_files(pair)]


def get_langpairs_for_testset(testset: str) -> list[str]:
    """The language pairs of ``testset`` (empty for an unknown set, as in sacrebleu)."""
    return [pair for pair in DATASETS[testset].langpairs if "-" in pair] if testset in DATASETS else []


def get_available_testsets() -> list[str]:
    """Every test set's name, newest first."""
    return sorted(DATASETS, reverse=True)


def get_available_testsets_for_langpair(langpair: str) -> list[str]:
    """The test sets that have ``langpair`` in either direction."""
    src, _, trg = langpair.partition("-")
    both = {f"{src}-{trg}", f"{trg}-{src}"}
    return [name for name, dataset in DATASETS.items() if both & set(dataset.langpairs)]


__all__ = [
    "SACREBLEU_DIR",
    "download_test_set",
    "get_available_testsets",
    "get_available_testsets_for_langpair",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "smart_open",
]
