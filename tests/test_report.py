"""`understudy report`: one self-contained page with the command line's numbers, user text as text."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from .conftest import SAMPLE
from .conftest import run_cli as run

REF = SAMPLE / "newstest2017.ref.en-de.de"
SYSTEMS = sorted(p for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)


class _Rankings(HTMLParser):
    """Each ranking table's rows: (metric, cluster, system, score text)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, int, str, str]] = []
        self.metric = ""
        self.cells: list[str] | None = None
        self.text = ""
        self.external: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("src", "href"):
            if values.get(key):
                self.external.append(f"{tag} {key}={values[key]}")
        if tag in ("script", "link", "iframe", "img", "object"):
            self.external.append(tag)
        if tag == "table" and "ranking" in (values.get("class") or ""):
            self.metric = values.get("data-metric") or ""
        if tag == "tr" and self.metric and values.get("data-system") is not None:
            self.cells = []
        if tag == "td" and self.cells is not None:
            self.text = ""

    def handle_data(self, data: str) -> None:
        self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.cells is not None:
            self.cells.append(self.text.strip())
        if tag == "tr" and self.cells is not None:
            cluster, system, score = self.cells[:3]
            self.rows.append((self.metric, int(cluster), system, score))
            self.cells = None
        if tag == "table":
            self.metric = ""


def test_the_report_shows_the_command_lines_rankings(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    inputs = [str(p) for p in SYSTEMS]
    status, _, err = run(
        capfd, "report", str(REF), "-i", *inputs, "-m", "bleu", "chrf", "ter", "-n", "200", "-o", str(out)
    )
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    parsed = _Rankings()
    parsed.feed(page)
    assert parsed.external == []  # nothing is fetched: no script, stylesheet, image or link
    assert not re.search(r"url\((?!#)|@import", page)  # the SVGs' url(#clip) stay inside the page
    status, compare, _ = run(
        capfd, "compare", str(REF), "-i", *inputs, "-m", "bleu", "chrf", "ter", "-n", "200", "-f", "json"
    )
    metrics = list(dict.fromkeys(r[0] for r in parsed.rows))
    assert metrics == ["BLEU", "chrF2", "TER"]
    for metric, record in zip(metrics, json.loads(compare), strict=True):
        clusters = {s: k + 1 for k, members in enumerate(record["clusters"]) for s in members}
        want = [(metric, clusters[s["name"]], s["name"], f"{s['score']:.2f}") for s in record["ranking"]]
        assert [r for r in parsed.rows if r[0] == metric] == want
    for section in (
        'id="systems"',
        'id="interpretation"',
        'id="per-system"',
        "The gist is clear",
        "brevity penalty",
    ):
        assert section in page
    assert page.count('<figure class="histogram"><svg') == len(SYSTEMS)


def test_user_text_is_text(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    evil = tmp_path / "{{7*7}}<img src=x onerror=alert(1)>.de"
    lines = REF.read_text(encoding="utf-8").splitlines()
    lines[0] = "</textarea><script>alert(1)</script> \u202eRTL {{ x }}"
    lines[1] = "Lange " * 2_000_000  # 12 MB in one segment
    evil.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ref = tmp_path / "ref.de"
    shutil.copy(REF, ref)
    out = tmp_path / "report.html"
    status, _, err = run(
        capfd, "report", str(ref), "-i", str(evil), str(SYSTEMS[0]), "-n", "50", "-o", str(out)
    )
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    assert "<script>" not in page and "<img" not in page and "onerror=alert(1)&gt;" in page
    assert "&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page and "{{ x }}" in page
    assert "49" not in re.findall(r"data-system=\"([^\"]*)\"", page)[0]  # the template did not evaluate names
    assert len(page) < 400_000 and "more characters" in page  # the long segment is folded and cut, visibly
