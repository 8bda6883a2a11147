"""Test sets from files of the user's: ``-t PATH`` with a WMT XML file (WMT21 onwards) or WMT25's
JSON lines (:mod:`understudy.datasets.wmt_jsonl`), gzipped or not. Every reference the file holds
is scored; the signature names the file by its name and the start of its SHA-256, so two files of
one name never pass for one test set.

>>> is_local("wmt25-genmt.jsonl"), is_local("wmt17")
(True, False)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from understudy.datasets.fields import DatasetFields
from understudy.datasets.formats import gunzipped, parse_wmt_xml
from understudy.datasets.wmt_jsonl import pairs, parse_test_set
from understudy.errors import InputFileError, UnknownDatasetError

SUFFIXES = (".jsonl", ".jsonl.gz", ".xml", ".xml.gz")
"""The names of test-set files: WMT25's JSON lines, WMT XML."""


def is_local(name: str) -> bool:
    """Whether ``-t NAME`` names a file (by its suffix) rather than a built-in set."""
    return name.endswith(SUFFIXES)


def is_jsonl(name: str) -> bool:
    """Whether ``-t NAME`` is a file of WMT25's JSON lines (whose systems may be JSON lines too)."""
    return name.endswith((".jsonl", ".jsonl.gz"))


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file (a test-set file for -t)") from None
    except IsADirectoryError:
        raise InputFileError(f"{path}: is a directory, not a file") from None
    except OSError as err:
        raise InputFileError(f"{path}: cannot read: {err.strerror or err}") from None


def label(path: str) -> str:
    """How a signature names the file: its name and the first 12 hex digits of its SHA-256."""
    return f"{Path(path).name}@{hashlib.sha256(_read(path)).hexdigest()[:12]}"


def describe(path: str) -> list[str]:
    """What ``testset info PATH`` prints of a file: its format, name, and language pairs."""
    data = _read(path)
    lines = [f"{path}: a test-set file ({'WMT25 JSON lines' if is_jsonl(path) else 'WMT XML'})"]
    lines.append(f"signature name: {label(path)}")
    if is_jsonl(path):
        found = pairs(data, path)
        lines.append("language pairs (documents, with a reference):")
        lines += [f"  {pair}  {documents}, {referenced}" for pair, (documents, referenced) in found.items()]
    else:
        lines.append(f"language pair: {parse_wmt_xml(gunzipped(data, path), path).langpair}")
    return lines


def load_local(path: str, langpair: str) -> DatasetFields:
    """Every field of the file's ``langpair``, each of its references scored."""
    data = _read(path)
    if is_jsonl(path):
        jsonl = parse_test_set(data, path, langpair)
        fields = jsonl.fields()
        refs = tuple(jsonl.refs)
        domain: list[str | None] = list(jsonl.domain)
        return DatasetFields(
            path, langpair, fields, refs, jsonl.docid, jsonl.origlang, domain, None, jsonl.paragraph
        )
    xml = parse_wmt_xml(gunzipped(data, path), path)
    if xml.langpair != langpair:
        # The pair picks the tokenizer: a wrong one would score silently with the wrong tokens.
        raise UnknownDatasetError(f"{path} is {xml.langpair} (its <src> and <ref> languages), not {langpair}")
    fields = xml.fields()
    refs = tuple(sorted(xml.refs))
    paragraph = xml.paragraph if any(xml.paragraph) else None
    return DatasetFields(
        path,
        langpair,
        fields,
        refs,
        xml.docid,
        xml.origlang,
        xml.domain if "domain" in fields else None,
        None,
        paragraph,
    )


__all__ = ["SUFFIXES", "describe", "is_jsonl", "is_local", "label", "load_local"]
