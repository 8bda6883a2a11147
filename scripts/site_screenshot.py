"""docs/ledger.md's pictures of ``understudy site``, opened in headless Chromium: a ledger of WMT17
runs (six systems scored once; a seventh, ``ours``, kept at three revisions, its output each time
another system's file standing in for a better checkpoint), then the site's test-set page: the
ranking with clusters, and ``ours``'s history.

The docs build takes them anew into the site it builds (scripts/docs_hooks.py's on_post_build),
where Chromium, chromium-driver, selenium and Pillow are installed, as in CI; the copies in docs/
(which the pages link to, and which a build without Chromium ships) are made with

python scripts/site_screenshot.py   # docs/site.png, docs/site-history.png

The commands run in a temporary folder with short relative file names, as a team's would.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from io import BytesIO
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WMT17 = REPO.parent / "shared" / "data" / "wmt17-en-de"
OTHERS = ["online-B.0", "KIT.4950", "LIUM-NMT.4900", "online-G.0", "SYSTRAN.4847", "xmu.4910"]
OURS = [("r1", "PROMT-Rule-based.4735"), ("r2", "online-A.0"), ("r3", "uedin-nmt.4722")]
UNDERSTUDY = [sys.executable, "-m", "understudy"]
CHROMIUM, DRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def _ledger(folder: Path) -> None:
    """The runs, kept in ``folder/ledger.sqlite``."""
    shutil.copy(WMT17 / "newstest2017.ref.en-de.de", folder / "ref.de")
    for name in OTHERS:
        shutil.copy(WMT17 / f"newstest2017.{name}.en-de.de", folder / f"{name.split('.')[0]}.de")
    keep = ["--log", "--ledger", "ledger.sqlite", "-m", "bleu", "chrf", "ter", "-b"]
    others = [f"{name.split('.')[0]}.de" for name in OTHERS]
    for k, (revision, output) in enumerate(OURS):
        shutil.copy(WMT17 / f"newstest2017.{output}.en-de.de", folder / "ours.de")
        systems = ["ours.de", *(others if k == 0 else [])]
        run = [*UNDERSTUDY, "score", "ref.de", "-i", *systems, *keep, "--tag", "nightly"]
        _run([*run, "--revision", revision], folder)
    _run([*UNDERSTUDY, "site", "--ledger", "ledger.sqlite", "-o", "site"], folder)


def _run(argv: list[str], folder: Path) -> None:
    """A command, quietly (a docs build prints nothing of its own), its error said if it fails."""
    done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")


def available() -> bool:
    """Whether the pictures can be taken here: Chromium, its driver, selenium, Pillow, the data."""
    import importlib.util

    programs = all(Path(p).exists() for p in (CHROMIUM, DRIVER))
    modules = all(importlib.util.find_spec(m) is not None for m in ("selenium", "PIL"))
    return programs and modules and WMT17.is_dir()


def take(out: Path) -> list[Path]:
    """Keep the runs, build the site, take the pictures into the folder ``out``; their paths."""
    from PIL import Image
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1100,820"):
        options.add_argument(argument)
    shots = {}
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _ledger(folder)
        (page,) = (folder / "site" / "testsets").glob("*.html")
        driver = webdriver.Chrome(service=Service(DRIVER), options=options)
        try:
            driver.get(page.as_uri())
            shots["site.png"] = driver.get_screenshot_as_png()
            driver.execute_script(
                "const d = document.querySelector('details.system[data-system=\"ours.de\"]');"
                "d.open = true; document.getElementById('history').scrollIntoView()"
            )
            shots["site-history.png"] = driver.get_screenshot_as_png()
        finally:
            driver.quit()
    for file, png in shots.items():  # 64 colours are plenty for text and lines
        Image.open(BytesIO(png)).convert("RGB").quantize(64).save(out / file, optimize=True)
    return [out / file for file in shots]


def main() -> int:
    """The pictures into docs/."""
    take(REPO / "docs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
