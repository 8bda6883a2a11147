"""The site as a person uses it: headless Chromium opens the index from disk, follows a link to a
test set, sorts a column, filters by tag and by name, and follows a link to a record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import chromium, console_errors, requests
from tests.support.cli import run_cli as run
from tests.support.paths import ONLINE_A, PROMT, REF, UEDIN

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")
SYSTEMS = [str(UEDIN), str(ONLINE_A), str(PROMT)]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def _order(browser: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    rows = browser.find_elements(By.CSS_SELECTOR, "#results tbody tr")
    return [r.get_attribute("data-system") for r in rows if r.is_displayed()]


def test_index_ranking_sorting_filters_and_a_record(
    browser: Any, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    ledger, site = str(tmp_path / "l.sqlite"), tmp_path / "site"
    argv = [str(REF), "-i", *SYSTEMS[:2], "-m", "bleu", "ter"]
    assert run(capfd, "score", *argv, "--log", "--ledger", ledger, "--tag", "first")[0] == 0
    assert (
        run(capfd, "score", str(REF), "-i", SYSTEMS[2], "-m", "bleu", "ter", "--log", "--ledger", ledger)[0]
        == 0
    )
    compare = json.loads(
        run(capfd, "compare", str(REF), "-i", *SYSTEMS, "-m", "bleu", "ter", "-f", "json")[1]
    )
    assert run(capfd, "site", "--ledger", ledger, "-o", str(site))[0] == 0
    requests(browser)  # what earlier tests left in the log
    browser.get((site / "index.html").as_uri())
    assert console_errors(browser) == []
    browser.find_element(By.CSS_SELECTOR, "#testsets tbody a").click()
    assert console_errors(browser) == []
    # The ledger keeps each system under its file's name; compare prints the paths typed.
    bleu, ter = ([Path(s["name"]).name for s in record["ranking"]] for record in compare)
    assert _order(browser) == bleu
    head = browser.find_element(By.CSS_SELECTOR, '#results th[data-metric="TER"]')
    head.find_element(By.TAG_NAME, "button").click()  # best first: TER's lowest
    assert _order(browser) == ter and head.get_attribute("aria-sort") == "ascending"
    head.find_element(By.TAG_NAME, "button").click()
    assert _order(browser) == ter[::-1]

    Select(browser.find_element(By.ID, "filter-tag")).select_by_value("first")
    assert sorted(_order(browser)) == sorted(Path(s).name for s in SYSTEMS[:2])
    assert browser.find_element(By.ID, "shown").text == "2 of 3 systems shown"
    browser.find_element(By.ID, "filter-system").send_keys("online")
    assert _order(browser) == [ONLINE_A.name]
    Select(browser.find_element(By.ID, "filter-tag")).select_by_value("")
    browser.find_element(By.ID, "filter-system").clear()
    browser.execute_script("document.getElementById('filter-system').dispatchEvent(new Event('input'))")
    assert len(_order(browser)) == 3

    row = browser.find_element(By.CSS_SELECTOR, f'#results tr[data-system="{PROMT.name}"]')
    row.find_element(By.CSS_SELECTOR, 'td a[href^="../records/"]').click()
    assert console_errors(browser) == []
    signature = browser.find_element(By.ID, "signature").text
    assert signature.startswith("nrefs:1|case:mixed|eff:no|tok:13a")
    assert browser.find_element(By.ID, "command").text.startswith("understudy score ")
    browser.find_element(By.ID, "testset-link").click()
    assert _order(browser) == bleu
    pages = {p.as_uri() for p in site.rglob("*.html")}
    assert requests(browser) <= pages  # nothing but the site's own files


def test_hostile_names_stay_text_in_the_browser(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from understudy import BLEU
    from understudy.ledger import Ledger
    from understudy.site import Settings, build_site

    hostile = "<img src=x onerror=window.hacked=1><script>window.hacked=2</script>"
    refs = [["the cat sat on the mat", "a dog barked"]]
    with Ledger(tmp_path / "l.sqlite") as ledger:
        ledger.append(BLEU().segment_stats(refs[0], refs), hostile, "toy:en-de", tags=[hostile])
        ledger.append(BLEU().segment_stats(["the cat", "a dog"], refs), "B", "toy:en-de")
        build_site(ledger, tmp_path / "site", Settings(n=50))
    (page,) = (tmp_path / "site" / "testsets").glob("*.html")
    browser.get(page.as_uri())
    assert browser.execute_script("return window.hacked === undefined") is True
    names = [e.get_attribute("title") for e in browser.find_elements(By.CSS_SELECTOR, "#results tbody bdi")]
    assert hostile in names
    browser.get((tmp_path / "site" / "records" / "1.html").as_uri())
    assert browser.execute_script("return window.hacked === undefined") is True
    assert browser.find_element(By.ID, "tags").text == hostile
