"""README's report screenshots: the report of the bundled WMT17 sample, with synthetic COMET-style
scores beside BLEU, chrF and TER (scripts/synthetic_comet.py), opened in headless Chromium.

python scripts/report_screenshot.py   # docs/report.png, report-comet.png, report-diff.png
                                      # (needs chromium, chromium-driver, selenium, Pillow)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "data" / "wmt17-en-de"


def main() -> int:
    """Write the report of the sample's three systems, then its screenshot."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    systems = sorted(
        str(p.relative_to(REPO)) for p in DATA.glob("newstest2017.*.de") if ".ref." not in p.name
    )
    with tempfile.TemporaryDirectory() as folder:
        page = Path(folder) / "report.html"
        comet = Path(folder) / "comet.out"
        reference = str(DATA.relative_to(REPO) / "newstest2017.ref.en-de.de")
        with open(comet, "w", encoding="utf-8") as out:
            maker = [sys.executable, "scripts/synthetic_comet.py", "--ref", reference, *systems]
            subprocess.run(maker, cwd=REPO, check=True, stdout=out)
        command = [
            "understudy",
            "report",
            str(DATA.relative_to(REPO) / "newstest2017.ref.en-de.de"),
            "-i",
            *systems,
        ]
        metrics = ["-m", "bleu", "chrf", "ter", "--scores", f"COMET-22={comet}"]
        subprocess.run([*command, *metrics, "-o", str(page)], cwd=REPO, check=True)
        options = Options()
        options.binary_location = "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1000"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        shots = {}
        try:
            driver.get(page.as_uri())
            shots["report.png"] = driver.get_screenshot_as_png()
            driver.execute_script("document.querySelector('table[data-metric=\"COMET-22\"]').scrollIntoView()")
            shots["report-comet.png"] = driver.get_screenshot_as_png()
            driver.execute_script("document.getElementById('diff').scrollIntoView()")
            shots["report-diff.png"] = driver.get_screenshot_as_png()
        finally:
            driver.quit()
    # Small files for the repository: 64 colours are plenty for text, tables and bars.
    from io import BytesIO

    from PIL import Image

    for name, png in shots.items():
        image = Image.open(BytesIO(png)).convert("RGB").quantize(64)
        image.save(REPO / "docs" / name, optimize=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
