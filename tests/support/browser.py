"""Headless Chromium for the tests that open pages as a person does (the report, the site).

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and selenium;
without them the tests are skipped, saying which is missing.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Generator
from typing import Any

import pytest

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")


def chromium() -> Generator[Any, None, None]:
    """A headless Chromium driver that logs the console and the network, quit when done (the body
    of a module's ``browser`` fixture)."""
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


def requests(driver: Any) -> set[str]:
    """The URLs the browser asked for since the last call."""
    events = (json.loads(entry["message"])["message"] for entry in driver.get_log("performance"))
    return {e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"}


def console_errors(driver: Any) -> list[Any]:
    """The console's errors since the last call."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
