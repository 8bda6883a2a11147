"""The benchmarks' tables, rendered in one place: by bench.py as it runs, and by the documentation
site (scripts/docs_hooks.py) from the JSON files bench.py --save writes into benchmarks/results/.

>>> print(render("t", [{"tool": "a", "seconds": 0.5}, {"tool": "b", "seconds": 1.5, "note": "n"}], True))
### t
<BLANKLINE>
| tool | median | vs understudy | peak memory | note |
|---|---|---|---|---|
| a | 500.0 ms | 1x |  |  |
| b | 1500.0 ms | 3.0x slower |  | n |
<BLANKLINE>
"""

from __future__ import annotations

from typing import Any

HEADER = ["tool", "median", "vs understudy", "peak memory", "note"]


def cells(rows: list[dict[str, Any]]) -> list[list[str]]:
    """Each row's cells; the ratio is against the first row, a NaN time is a task the tool cannot do."""
    base = rows[0]["seconds"]
    body = []
    for row in rows:
        seconds, note, peak = row["seconds"], row.get("note", ""), row.get("peak_mb")
        if seconds != seconds:
            body.append([row["tool"], "n/a", "", "", note])
            continue
        if row is rows[0]:
            ratio = "1x"
        elif seconds >= base:
            ratio = f"{seconds / base:.1f}x slower"
        else:
            ratio = f"{base / seconds:.1f}x faster"
        memory = f"{peak:.0f} MB" if peak is not None else ""
        body.append([row["tool"], f"{seconds * 1000:.1f} ms", ratio, memory, note])
    return body


def render(title: str, rows: list[dict[str, Any]], markdown: bool) -> str:
    """A table of timings under its title: Markdown, or aligned plain text for a terminal."""
    body = cells(rows)
    if markdown:
        lines = [f"### {title}", ""]
        lines.append("| " + " | ".join(HEADER) + " |")
        lines.append("|" + "|".join(["---"] * len(HEADER)) + "|")
        lines += ["| " + " | ".join(row) + " |" for row in body]
    else:
        lines = [title, "-" * len(title)]
        widths = [max(len(r[i]) for r in [HEADER, *body]) for i in range(len(HEADER))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in [HEADER, *body]]
    return "\n".join(lines) + "\n"


README_ROWS = {
    "corpus": "corpus BLEU, 16 WMT17 systems",
    "sentence": "sentence BLEU, 3,004 segments",
    "pairwise": "all pairs, 500 x 500 sentence BLEU",
    "stream": "streaming 1,000,000 segments (CLI)",
}
"""The headline tasks README.md's speed table shows, from benchmarks/results/bleu.json."""


def readme_rows(record: dict[str, Any]) -> list[str]:
    """README.md's speed table, rendered from a ``bench.py --save`` record holding the headline tasks:
    understudy's time (and peak memory) and sacrebleu's ratio (and peak memory)."""
    by_task = {table["task"]: table["rows"] for table in record["tables"]}
    lines = ["| task | understudy | sacrebleu 2.6.0 |", "|---|---|---|"]
    for task, label in README_ROWS.items():
        ours = by_task[task][0]
        theirs = next(row for row in by_task[task] if row["tool"].startswith("sacrebleu"))
        ratio = theirs["seconds"] / ours["seconds"]
        if ours.get("peak_mb") is not None:
            cell = f"{ours['seconds']:.1f} s, {ours['peak_mb']:.0f} MB"
            other = f"{ratio:.1f}x slower, {theirs['peak_mb'] / 1000:.1f} GB"
        else:
            cell, other = f"{ours['seconds'] * 1000:.1f} ms", f"{ratio:.1f}x slower"
        lines.append(f"| {label} | {cell} | {other} |")
    return lines


if __name__ == "__main__":  # README.md's speed table from the saved results
    import json
    from pathlib import Path

    saved = Path(__file__).resolve().parent / "results" / "bleu.json"
    print("\n".join(readme_rows(json.loads(saved.read_text(encoding="utf-8")))))
