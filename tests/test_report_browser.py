"""The report as a person sees it: headless Chromium opens the file from disk.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and
selenium; without them the tests are skipped, saying which is missing.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import SAMPLE
from .conftest import run_cli as run

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")

REF = SAMPLE / "newstest2017.ref.en-de.de"
SYSTEMS = sorted(str(p) for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip(
        "selenium.webdriver", reason="selenium is not installed (the test extra has it)"
    )
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _requests(driver: Any) -> set[str]:
    events = (json.loads(entry["message"])["message"] for entry in driver.get_log("performance"))
    return {e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"}


def test_the_page_opens_clean_and_holds_the_clis_numbers(
    browser: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from selenium.webdriver.common.by import By

    out = tmp_path / "report.html"
    argv = [str(REF), "-i", *SYSTEMS, "-m", "bleu", "chrf", "ter", "-n", "200"]
    assert run(capfd, "report", *argv, "-o", str(out))[0] == 0
    browser.get(out.as_uri())
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    assert _requests(browser) == {out.as_uri()}  # nothing but the file itself
    for section in ("systems", "interpretation", "per-system", "analyses", "ngrams", "diff"):
        assert browser.find_element(By.ID, section).is_displayed()
    compare = json.loads(run(capfd, "compare", *argv, "-f", "json")[1])
    tables = browser.find_elements(By.CSS_SELECTOR, "table.ranking")
    for table, record in zip(tables, compare, strict=True):
        clusters = {s: k + 1 for k, members in enumerate(record["clusters"]) for s in members}
        shown = [row.text for row in table.find_elements(By.CSS_SELECTOR, "tr[data-system]")]
        want = [
            f"{clusters[s['name']]} {s['name']} {s['score']:.2f} {s['mean']:.2f} ± {s['ci']:.2f}"
            for s in record["ranking"]
        ]
        assert shown == want
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
    for details in browser.find_elements(By.CSS_SELECTOR, "section.system > details"):
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
    _requests(browser)  # what earlier pages asked for
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
    assert _requests(browser) == {out.as_uri()}


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
