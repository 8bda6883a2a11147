"""Make tests/fixtures/wmt25_autorank_report.json: the 31 tables of WMT25's preliminary ranking
(``preliminary_ranking/latex_source/generated_report.tex`` of wmt-conference/wmt25-general-mt at
ebae873), as printed: each table's title, its metric columns, and its rows in order (the system's
name as printed, its AutoRank and each metric's system score, as the strings the table shows).

    git clone https://github.com/wmt-conference/wmt25-general-mt /tmp/wmt25   # (or fetch it)
    python scripts/wmt25_report_fixture.py /tmp/wmt25/preliminary_ranking/latex_source/generated_report.tex
"""

from __future__ import annotations

import argparse
import json
import os
import re
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "wmt25_autorank_report.json"
CELL = re.compile(r"\\cellcolor\{[^}]*\}")


def tables(text: str) -> list[dict[str, object]]:
    """Each table: its title, metric columns and rows."""
    out = []
    for block in text.split(r"\begin{table*}")[1:]:
        title = re.search(r"\\textbf\{([^}]*)\}", block)
        header = next(line for line in block.splitlines() if line.startswith("System Name"))
        names = [c.strip() for c in header.rstrip("\\ ").split("&")]
        first = names.index(r"AutoRank $\downarrow$")
        metrics = [re.sub(r"\s*\$\\(up|down)arrow\$", "", c) for c in names[first + 1 :]]
        rows = []
        body = block.split(r"\midrule")[2].split(r"\bottomrule")[0]
        for line in body.splitlines():
            line = line.strip()
            if not line or line.startswith(r"\rowcolor"):
                continue
            cells = [CELL.sub("", c).strip() for c in line.rstrip("\\ ").split("&")]
            name = cells[0].replace(r"\official ", "").replace(r"\_", "_")
            rows.append({"system": name, "autorank": cells[first], "scores": cells[first + 1 :]})
        assert title is not None
        out.append({"title": title.group(1), "metrics": metrics, "rows": rows})
    return out


def main() -> None:
    """Read the report, write the fixture."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path, help="generated_report.tex")
    args = parser.parse_args()
    found = tables(args.report.read_text(encoding="utf-8"))
    record = {"source": "wmt-conference/wmt25-general-mt ebae873 generated_report.tex", "tables": found}
    partial = OUT.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(partial, OUT)
    print(f"{OUT}: {len(found)} tables, {sum(len(t['rows']) for t in found)} rows")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
