"""The speed figures in README.md and docs/speed.md come from the benchmarks' result files, never
typed by hand: docs/speed.md holds markers that scripts/docs_hooks.py renders into tables from
benchmarks/results/*.json, and README.md's headline table is what benchmarks/tables.py renders
from benchmarks/results/bleu.json."""

from __future__ import annotations

import json
import re
import sys

import pytest

from tests.support.paths import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "scripts"))

import docs_hooks
import tables

SPEED = (REPO / "docs" / "speed.md").read_text(encoding="utf-8")


def test_readmes_speed_table_is_the_results_files() -> None:
    record = json.loads((REPO / "benchmarks" / "results" / "bleu.json").read_text(encoding="utf-8"))
    rows = tables.readme_rows(record)
    readme = (REPO / "README.md").read_text(encoding="utf-8").split("\n")
    start = readme.index(rows[0])
    assert readme[start : start + len(rows)] == rows


def test_speed_page_has_no_typed_timings() -> None:
    """No table of times or ratios is written on the page; every one is a marker rendered at build time."""
    typed = [
        line
        for line in SPEED.split("\n")
        if line.startswith("|") and re.search(r"\d+(\.\d+)? ?(ms|s|x)\b", line)
    ]
    assert typed == []


def test_every_marker_renders_from_an_existing_result() -> None:
    markers = docs_hooks.BENCH.findall(SPEED) + docs_hooks.NEURAL.findall(SPEED)
    assert len(markers) >= 25 and docs_hooks.JUDGE.findall(SPEED) == ["judges.json"]
    assert docs_hooks.RESEGMENT.findall(SPEED) == ["resegment.json"]
    rendered = docs_hooks.on_page_markdown(SPEED, page=None)
    assert "<!-- bench" not in rendered
    record = json.loads((REPO / "benchmarks" / "results" / "bleu.json").read_text(encoding="utf-8"))
    corpus = next(t for t in record["tables"] if t["task"] == "corpus")
    first = corpus["rows"][0]
    assert f"| {first['tool']} | {first['seconds'] * 1000:.1f} ms | 1x |" in rendered
    judged = json.loads((REPO / "benchmarks" / "results" / "judges.json").read_text(encoding="utf-8"))
    assert f"| understudy, cold (no cache) | {judged['cold_seconds']:.1f} s |" in rendered
    cut = json.loads((REPO / "benchmarks" / "results" / "resegment.json").read_text(encoding="utf-8"))
    stream = cut["cases"]["stream"]
    assert f"| {stream['understudy']['seconds']:.2f} s | {stream['mweralign']['seconds']:.2f} s |" in rendered
    assert docs_hooks.COMET_MBR.findall(SPEED) == ["comet-mbr-large.json"]
    mbr = json.loads((REPO / "benchmarks" / "results" / "comet-mbr-large.json").read_text(encoding="utf-8"))
    assert (
        f"| understudy `mbr.select` | {mbr['understudy']['wall']:.1f} s | {mbr['ratio']:.2f}x faster |"
        in rendered
    )
    work = mbr["encoder_work"]
    assert f"understudy {work['understudy_positions']:,} token positions" in rendered
    assert f"mbrs {work['mbrs_positions']:,}" in rendered


def test_a_marker_naming_a_missing_task_is_an_error() -> None:
    with pytest.raises(ValueError, match="no-such-task"):
        docs_hooks.bench_tables("bleu.json", ["no-such-task"])
