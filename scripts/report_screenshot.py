"""README's report screenshots, opened in headless Chromium: the report of the 16 WMT17 systems
(BLEU, chrF, TER and synthetic COMET-style scores from scripts/synthetic_comet.py) and the WMT21
TED zh-en report with its MQM human scores, both from ../shared/data beside the clone.

python scripts/report_screenshot.py   # docs/report*.png (needs chromium, chromium-driver, selenium, Pillow)

The commands run from the clone's top folder with relative paths, so that the command each page
shows (to reproduce it) holds no temporary path.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path("..") / "shared" / "data"
WMT17 = SHARED / "wmt17-en-de"
TED = SHARED / "wmt21-ted-zh-en-mqm"


def _reports(folder: Path) -> dict[str, Path]:
    """Write both reports into ``folder``; their paths by name."""
    systems = sorted(str(p) for p in (REPO / WMT17).glob("newstest2017.*.de") if ".ref." not in p.name)
    systems = [str(WMT17 / Path(p).name) for p in systems]
    reference = str(WMT17 / "newstest2017.ref.en-de.de")
    comet = REPO / "comet.out"
    try:
        with open(comet, "w", encoding="utf-8") as out:
            maker = [sys.executable, "scripts/synthetic_comet.py", "--ref", reference, *systems]
            subprocess.run(maker, cwd=REPO, check=True, stdout=out)
        metrics = ["-m", "bleu", "chrf", "ter"]
        wmt17 = [
            "understudy",
            "report",
            reference,
            "-i",
            *systems,
            *metrics,
            "--scores",
            "COMET-22=comet.out",
        ]
        subprocess.run([*wmt17, "-o", str(folder / "wmt17.html")], cwd=REPO, check=True)
    finally:
        comet.unlink(missing_ok=True)
    ted_systems = sorted(
        str(TED / p.name) for p in (REPO / TED).glob("*.txt") if not p.name.startswith("ref-")
    )
    ted = ["understudy", "report", str(TED / "ref-B.txt"), "-i", *ted_systems, *metrics]
    ted += ["--human", str(TED / "mqm_system_scores.tsv"), "-o", str(folder / "ted.html")]
    subprocess.run(ted, cwd=REPO, check=True)
    return {"wmt17": folder / "wmt17.html", "ted": folder / "ted.html"}


SHOTS = {
    "report.png": ("wmt17", "systems"),
    "report-intervals.png": ("wmt17", "intervals"),
    "report-diff.png": ("wmt17", "diff"),
    "report-ted.png": ("ted", "systems"),
    "report-ted-human.png": ("ted", "human"),
}
"""Each picture: the page and the section at the top of the window."""


def main() -> int:
    """Write the reports, then the screenshots into docs/."""
    from PIL import Image
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,1000"):
        options.add_argument(argument)
    with tempfile.TemporaryDirectory() as folder:
        pages = _reports(Path(folder))
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        shots = {}
        try:
            for name, (page, section) in SHOTS.items():
                driver.get(pages[page].as_uri())
                driver.execute_script(f"document.getElementById('{section}').scrollIntoView()")
                shots[name] = driver.get_screenshot_as_png()
        finally:
            driver.quit()
    # Small files for the repository: 64 colours are plenty for text, tables and plots.
    for name, png in shots.items():
        image = Image.open(BytesIO(png)).convert("RGB").quantize(64)
        image.save(REPO / "docs" / name, optimize=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
