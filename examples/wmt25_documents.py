"""The bundled WMT17 sample laid out as WMT25 lays out its test set and systems (JSON lines, a
document a line, paragraphs separated by a blank line), to try ``score -t FILE.jsonl`` on.

The sample's 3,004 lines become 151 documents of 20 lines (the last of 4), each cut into
paragraphs of 4 lines. It writes, into the folder given:

- ``wmt25.jsonl``: the test set (en-de_DE), uedin-nmt's output standing in for the English source;
- ``uedin-nmt.jsonl`` and ``online-A.jsonl``: two systems' documents, one a line;
- ``online-A.merged.jsonl``: online-A with each document's first two paragraphs run together,
  as a system that breaks paragraphs its own way returns them.

Run: ``python examples/wmt25_documents.py OUTDIR``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "wmt17-en-de"
FILES = {
    "ref": "newstest2017.ref.en-de.de",
    "uedin-nmt": "newstest2017.uedin-nmt.4722.en-de.de",
    "online-A": "newstest2017.online-A.0.en-de.de",
}
DOCUMENT, PARAGRAPH = 20, 4


def documents(name: str) -> list[list[str]]:
    """A file of the sample as documents, each a list of paragraphs."""
    text = (SAMPLE / FILES[name]).read_text(encoding="utf-8").removeprefix("\ufeff")
    lines = text.split("\n")[:-1]
    docs = [lines[k : k + DOCUMENT] for k in range(0, len(lines), DOCUMENT)]
    return [[" ".join(doc[k : k + PARAGRAPH]) for k in range(0, len(doc), PARAGRAPH)] for doc in docs]


def doc_id(number: int) -> str:
    """WMT25's form of a document id: the pair, the domain and the document's own name."""
    return f"en-de_DE_#_news_#_newstest2017.{number}"


def write(path: Path, records: list[dict[str, object]]) -> None:
    """JSON lines: one record a line, UTF-8 as it is."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")


def main(folder: Path) -> None:
    """Write the test set and the three systems into ``folder``."""
    refs, source = documents("ref"), documents("uedin-nmt")
    test_set: list[dict[str, object]] = [
        {
            "doc_id": doc_id(k),
            "src_lang": "en",
            "tgt_lang": "de_DE",
            "domain": "news",
            "src_text": "\n\n".join(source[k]),
            "refs": {"refA": {"ref": "\n\n".join(refs[k])}},
        }
        for k in range(len(refs))
    ]
    write(folder / "wmt25.jsonl", test_set)
    for name in ("uedin-nmt", "online-A"):
        docs = documents(name)
        write(
            folder / f"{name}.jsonl",
            [{"doc_id": doc_id(k), "hypothesis": "\n\n".join(d)} for k, d in enumerate(docs)],
        )
    merged = [[" ".join(d[:2]), *d[2:]] for d in documents("online-A")]
    write(
        folder / "online-A.merged.jsonl",
        [{"doc_id": doc_id(k), "hypothesis": "\n\n".join(d)} for k, d in enumerate(merged)],
    )
    paragraphs = sum(len(d) for d in refs)
    print(f"wrote {len(refs)} documents, {paragraphs} paragraphs, and 3 systems into {folder}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
