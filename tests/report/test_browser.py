"""The report as a person sees it: headless Chromium opens the file from disk.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
selenium; without them the tests are skipped, saying which is missing.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import chromium, requests
from tests.support.cli import run_cli as run
from tests.support.paths import SAMPLE

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")

REF = SAMPLE / "newstest2017.ref.en-de.de"
SYSTEMS = sorted(str(p) for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def test_the_page_opens_clean_and_holds_the_clis_numbers(
    browser: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from selenium.webdriver.common.by import By

    out = tmp_path / "report.html"
    argv = [str(REF), "-i", *SYSTEMS, "-m", "bleu", "chrf", "ter", "-n", "200"]
    assert run(capfd, "report", *argv, "-o", str(out))[0] == 0
    browser.get(out.as_uri())
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    assert requests(browser) == {out.as_uri()}  # nothing but the file itself
    for section in (
        "systems",
        "intervals",
        "pvalues",
        "interpretation",
        "per-system",
        "analyses",
        "ngrams",
        "diff",
    ):
        assert browser.find_element(By.ID, section).is_displayed()
    compare = json.loads(run(capfd, "compare", *argv, "-f", "json")[1])
    rows = browser.find_elements(By.CSS_SELECTOR, "#rankings tbody tr")
    # One table: a row per system in BLEU's ranking order, a cell per metric with its cluster.
    assert [r.get_attribute("data-system") for r in rows] == [s["name"] for s in compare[0]["ranking"]]
    for metric, record in zip(["BLEU", "chrF2", "TER"], compare, strict=True):
        clusters = {s: k + 1 for k, members in enumerate(record["clusters"]) for s in members}
        for s in record["ranking"]:
            row = next(r for r in rows if r.get_attribute("data-system") == s["name"])
            cell = row.find_element(By.CSS_SELECTOR, f'td[data-metric="{metric}"]')
            assert cell.text.startswith(f"{s['score']:.2f} ± {s['ci']:.2f}")
            assert int(cell.get_attribute("data-cluster")) == clusters[s["name"]]
    # Short names shown (what the paths share cut away), the full path in the tooltip.
    names = browser.find_elements(By.CSS_SELECTOR, "#rankings tbody td.text bdi")
    assert sorted(n.text for n in names) == ["PROMT-Rule-based.4735", "online-A.0", "uedin-nmt.4722"]
    assert sorted(n.get_attribute("title") for n in names) == SYSTEMS
    png = browser.get_screenshot_as_png()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_hostile_text_renders_as_text(
    browser: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from selenium.webdriver.common.by import By

    hostile = "</textarea><script>window.hacked = 1</script> \u202eRTL {{ 7 * 7 }}"
    lines = REF.read_text(encoding="utf-8").splitlines()
    lines[0], lines[1] = hostile, "Lange " * 2_000_000
    system = tmp_path / "sys.de"
    system.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "report.html"
    assert run(capfd, "report", str(REF), "-i", str(system), SYSTEMS[0], "-n", "20", "-o", str(out))[0] == 0
    browser.get(out.as_uri())
    assert browser.execute_script("return window.hacked === undefined") is True
    for details in browser.find_elements(By.CSS_SELECTOR, "details.system, details.system > details"):
        browser.execute_script("arguments[0].open = true", details)
    cells = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "table.segments td.text")]
    assert any(hostile.split(" \u202e")[0] in c and "{{ 7 * 7 }}" in c for c in cells)
    assert any(c.startswith("Lange Lange") for c in cells)
    # Folded: the 12 MB segment's cells, among the worst segments and in the diff, stay a few lines high.
    tallest = browser.execute_script(
        "return Math.max(...[...document.querySelectorAll('table.segments td.text, #diff-table td')]"
        ".map(td => td.getBoundingClientRect().height))"
    )
    assert tallest < 600


def test_the_diff_filters_work_without_network(
    browser: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from sacrebleu.metrics import BLEU as SacreBLEU
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    a, b = SYSTEMS[0], SYSTEMS[1]
    out = tmp_path / "report.html"
    assert run(capfd, "report", str(REF), "-i", a, b, "-n", "20", "--pair", a, b, "-o", str(out))[0] == 0
    requests(browser)  # what earlier pages asked for
    browser.get(out.as_uri())
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    refs = REF.read_text(encoding="utf-8").splitlines()
    bleu = SacreBLEU(effective_order=True)  # the report shows what `score -sl` prints
    scores = [
        [
            bleu.sentence_score(h, [r]).score
            for h, r in zip(Path(p).read_text(encoding="utf-8").splitlines(), refs, strict=True)
        ]
        for p in (a, b)
    ]
    # The page holds 1000 of the 3004 segments: every one whose difference is among the 500
    # largest by sacrebleu's sentence scores, and others.
    numbers = browser.execute_script(
        "return [...document.querySelectorAll('#diff-table tbody tr')].map(r => +r.cells[0].innerText)"
    )
    differences = sorted((abs(x - y) for x, y in zip(*scores, strict=True)), reverse=True)
    assert len(numbers) == 1000 and {
        i + 1 for i in range(len(refs)) if abs(scores[0][i] - scores[1][i]) > differences[500]
    } <= set(numbers)
    a_higher = sum(scores[0][n - 1] > scores[1][n - 1] for n in numbers)
    shown = browser.find_element(By.ID, "diff-shown")
    assert shown.text == f"{len(numbers)} of {len(numbers)} segments shown"

    Select(browser.find_element(By.ID, "diff-which")).select_by_value("a")
    assert shown.text == f"{a_higher} of {len(numbers)} segments shown"
    visible = browser.execute_script(
        "return document.querySelectorAll('#diff-table tbody tr:not([hidden])').length"
    )
    assert visible == a_higher

    Select(browser.find_element(By.ID, "diff-which")).select_by_value("all")
    Select(browser.find_element(By.ID, "diff-order")).select_by_value("difference")
    first = browser.find_element(By.CSS_SELECTOR, "#diff-table tbody tr:not([hidden])")
    largest = max(range(len(refs)), key=lambda i: abs(scores[0][i] - scores[1][i]))
    assert abs(float(first.get_attribute("data-delta"))) == abs(scores[0][largest] - scores[1][largest])

    needle = max(refs[numbers[0] - 1].split(), key=len)  # a rare word of a shown segment
    browser.find_element(By.ID, "diff-text").send_keys(needle)
    rows = browser.execute_script(
        "return [...document.querySelectorAll('#diff-table tbody tr:not([hidden])')].map(r => r.innerText)"
    )
    assert 0 < len(rows) < len(numbers) and all(needle.lower() in r.lower() for r in rows)
    assert shown.text == f"{len(rows)} of {len(numbers)} segments shown"
    assert requests(browser) == {out.as_uri()}


def test_the_diff_orders_and_filters_documents(
    browser: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    ids = tmp_path / "ids"  # the first 200 segments as 10 documents of 20
    ids.write_text("".join(f"doc{k // 20}\n" for k in range(200)), encoding="utf-8")
    files = {}
    for name, path in (("ref", REF), ("a", SYSTEMS[0]), ("b", SYSTEMS[1])):
        files[name] = tmp_path / name
        files[name].write_text(
            "".join(Path(path).read_text(encoding="utf-8").splitlines(True)[:200]), encoding="utf-8"
        )
    out = tmp_path / "report.html"
    argv = [str(files["ref"]), "-i", str(files["a"]), str(files["b"]), "-n", "20", "--docids", str(ids)]
    assert run(capfd, "report", *argv, "-o", str(out))[0] == 0
    browser.get(out.as_uri())
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    rows = "#diff-table tbody tr:not([hidden])"
    script = (
        f"return [...document.querySelectorAll('{rows}')]"
        ".map(r => [r.className, +r.dataset.doc, +r.dataset.delta])"
    )
    assert [r[0] for r in browser.execute_script(script)].count("doc") == 10
    Select(browser.find_element(By.ID, "diff-order")).select_by_value("document")
    shown = browser.execute_script(script)
    heads = [r for r in shown if r[0] == "doc"]
    # Documents by their difference, largest first, each followed by its 20 segments in order.
    assert [abs(h[2]) for h in heads] == sorted((abs(h[2]) for h in heads), reverse=True)
    assert all(
        shown[21 * k][0] == "doc" and {r[1] for r in shown[21 * k : 21 * k + 21]} == {heads[k][1]}
        for k in range(10)
    )
    Select(browser.find_element(By.ID, "diff-order")).select_by_value("difference")
    assert all(r[0] != "doc" for r in browser.execute_script(script))
    # Filtered, a document shows while any of its segments does.
    Select(browser.find_element(By.ID, "diff-order")).select_by_value("segment")
    browser.find_element(By.ID, "diff-text").send_keys("Trump")
    shown = browser.execute_script(script)
    segments = [r for r in shown if r[0] != "doc"]
    assert 0 < len(segments) < 200
    assert sorted(r[1] for r in shown if r[0] == "doc") == sorted({r[1] for r in segments})


def test_the_page_prints_in_a_few_pages(
    browser: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    assert run(capfd, "report", str(REF), "-i", *SYSTEMS, "-n", "20", "-o", str(out))[0] == 0
    browser.get(out.as_uri())
    pdf = base64.b64decode(browser.execute_cdp_cmd("Page.printToPDF", {})["data"])
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    # The 1000 diff rows would print on some 160 pages; printed, the diff keeps its first 50 rows.
    assert 5 < pages < 30


@pytest.fixture(scope="module")
def wmt17_report(wmt17_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], Any]:
    """The report of the 16 WMT17 systems with BLEU, chrF and TER, and compare's JSON of them."""
    from understudy.cli import main

    out = tmp_path_factory.mktemp("wmt17") / "report.html"
    systems = sorted(str(p) for p in wmt17_dir.glob("newstest2017.*.de") if ".ref." not in p.name)
    argv = [
        str(wmt17_dir / "newstest2017.ref.en-de.de"),
        "-i",
        *systems,
        "-m",
        "bleu",
        "chrf",
        "ter",
        "-n",
        "200",
    ]
    assert main(["report", *argv, "-o", str(out)]) == 0
    import contextlib
    import io

    raw = io.BytesIO()
    text = io.TextIOWrapper(raw, encoding="utf-8")
    with contextlib.redirect_stdout(text):
        assert main(["compare", *argv, "-f", "json"]) == 0
    text.flush()
    return out, systems, json.loads(raw.getvalue())


def test_the_rankings_table_sorts_by_any_metric(
    browser: Any, wmt17_report: tuple[Path, list[str], Any]
) -> None:
    from selenium.webdriver.common.by import By

    out, systems, compare = wmt17_report
    requests(browser)  # what earlier tests left in the log
    browser.get(out.as_uri())

    def order() -> list[str]:
        rows = browser.find_elements(By.CSS_SELECTOR, "#rankings tbody tr")
        return [r.get_attribute("data-system") for r in rows]

    by_metric = {
        m: [s["name"] for s in r["ranking"]] for m, r in zip(["BLEU", "chrF2", "TER"], compare, strict=True)
    }
    assert order() == by_metric["BLEU"]
    ter = browser.find_element(By.CSS_SELECTOR, '#rankings th[data-metric="TER"]')
    ter.click()  # best first: TER's lowest
    assert order() == by_metric["TER"] and ter.get_attribute("aria-sort") == "ascending"
    ter.click()  # again: reversed
    assert order() == by_metric["TER"][::-1]
    browser.find_element(By.CSS_SELECTOR, '#rankings th[data-metric="chrF2"]').click()
    assert order() == by_metric["chrF2"]
    # Sixteen short names, none a path; each full path in its tooltip.
    names = browser.find_elements(By.CSS_SELECTOR, "#rankings tbody td.text bdi")
    assert sorted(n.get_attribute("title") for n in names) == systems
    assert all("/" not in n.text and not n.text.startswith("newstest2017") for n in names)
    assert requests(browser) == {out.as_uri()}


def test_the_p_value_matrix_is_compares(browser: Any, wmt17_report: tuple[Path, list[str], Any]) -> None:
    from selenium.webdriver.common.by import By

    out, _, compare = wmt17_report
    browser.get(out.as_uri())
    for metric, record in zip(["BLEU", "chrF2", "TER"], compare, strict=True):
        table = browser.find_element(By.CSS_SELECTOR, f'table.pvalues[data-metric="{metric}"]')
        rows = table.find_elements(By.CSS_SELECTOR, "tbody tr")
        names = [r.get_attribute("data-system") for r in rows]
        assert names == [s["name"] for s in record["ranking"]]
        pairs = {frozenset((p["a"], p["b"])): p["p_value"] for p in record["pairs"]}
        for i, row in enumerate(rows):
            cells = row.find_elements(By.CSS_SELECTOR, "td")[1:]
            assert len(cells) == len(names) and cells[i].text == "–"
            for j, cell in enumerate(cells):
                if i != j:
                    assert cell.text == f"{pairs[frozenset((names[i], names[j]))]:.3f}"


def test_an_exact_copy_scores_the_best_value_everywhere(
    browser: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from selenium.webdriver.common.by import By

    copy = tmp_path / "copy.de"
    copy.write_text(REF.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "report.html"
    argv = [
        "report",
        str(REF),
        "-i",
        str(copy),
        SYSTEMS[0],
        "-m",
        "bleu",
        "chrf",
        "ter",
        "-n",
        "50",
        "-o",
        str(out),
    ]
    assert run(capfd, *argv)[0] == 0
    browser.get(out.as_uri())
    row = browser.find_element(By.CSS_SELECTOR, f'#rankings tr[data-system="{copy}"]')
    best = {"BLEU": "100.00", "chrF2": "100.00", "TER": "0.00"}
    for metric, value in best.items():
        assert row.find_element(By.CSS_SELECTOR, f'td[data-metric="{metric}"]').text.startswith(value + " ±")
    # Its worst segments (the first metric's, sentence BLEU as `score -sl`) score 100 too, and all its
    # segments are in the top bucket of sentence scores.
    section = browser.find_element(By.CSS_SELECTOR, f'details.system[data-system="{copy}"]')
    browser.execute_script(
        "arguments[0].open = true; arguments[0].querySelector('details').open = true", section
    )
    scores = [
        r.text for r in section.find_elements(By.CSS_SELECTOR, "table.segments tbody tr td:nth-child(2)")
    ]
    assert scores == ["100.0"] * 5
    buckets = browser.find_element(
        By.CSS_SELECTOR, 'table.buckets[data-analysis="segments by sentence BLEU"]'
    )
    counts = buckets.find_element(By.CSS_SELECTOR, f'tr[data-system="{copy}"]').find_elements(
        By.CSS_SELECTOR, "td"
    )
    assert [c.text for c in counts[1:]] == ["0"] * 9 + [
        str(len(REF.read_text(encoding="utf-8").splitlines()))
    ]
    diff = browser.find_elements(By.CSS_SELECTOR, "#diff-table tbody tr td:nth-child(2)")
    assert {c.text for c in diff} == {"100.0"}  # A, the copy, scores 100 on every segment


def test_the_16_system_page_is_small_and_opens_quickly(
    browser: Any, wmt17_report: tuple[Path, list[str], Any]
) -> None:
    out, _, _ = wmt17_report
    assert out.stat().st_size < 5_000_000
    browser.get(out.as_uri())
    opened = browser.execute_script(
        "const t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd - t.startTime"
    )
    # The benchmark measures the open time (task 15); here only that it is not pathological on a
    # shared machine: the target is 2 s.
    assert 0 < opened < 10_000


def test_pointing_at_a_system_picks_its_line_out_of_a_bucket_plot(
    browser: Any, wmt17_report: tuple[Path, list[str], Any]
) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    out, _, _ = wmt17_report
    browser.get(out.as_uri())
    table = browser.find_element(By.CSS_SELECTOR, "table.buckets[data-figure]")
    figure = table.get_attribute("data-figure")
    lines = browser.find_elements(By.CSS_SELECTOR, f'figure[data-figure="{figure}"] g[id^="{figure}-s"]')
    assert len(lines) == 16
    row = table.find_elements(By.CSS_SELECTOR, "tr[data-line]")[3]
    ActionChains(browser).move_to_element(row).perform()
    faded = [line.get_attribute("id") for line in lines if line.value_of_css_property("opacity") == "0.12"]
    assert sorted(faded) == sorted(f"{figure}-s{k}" for k in range(16) if k != 3)
    ActionChains(browser).move_to_element(browser.find_element(By.TAG_NAME, "h1")).perform()
    assert all(line.value_of_css_property("opacity") == "1" for line in lines)
