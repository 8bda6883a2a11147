"""AutoRank against WMT25's preliminary ranking: the 31 tables of its generated_report.tex
(tests/fixtures/wmt25_autorank_report.json, by scripts/wmt25_report_fixture.py) reproduced from
the organisers' released per-paragraph scores beside the clone (../shared/data/wmt25-general-mt)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from understudy.autorank.files import read_scores
from understudy.autorank.method import autorank, scaled, system_score
from understudy.autorank.ranking import Asked, rank
from understudy.autorank.wmt25 import PRESET, printed
from understudy.errors import InputError, InputFileError

from tests.support.cli import run_cli
from tests.support.paths import FIXTURES

REPORT = json.loads((FIXTURES / "wmt25_autorank_report.json").read_text(encoding="utf-8"))["tables"]


@pytest.fixture
def scores(wmt25_scores: Any) -> Any:
    return wmt25_scores


def test_every_table_of_the_report_is_reproduced(scores: Any) -> None:
    rows = rank(scores, PRESET)
    pairs = list(dict.fromkeys(r.language_pair for r in rows))
    assert [PRESET.title(p) for p in pairs] == [t["title"] for t in REPORT]  # the report's order
    compared = 0
    for pair, table in zip(pairs, REPORT, strict=True):
        mine = [r for r in rows if r.language_pair == pair]
        assert list(mine[0].scores) == table["metrics"], pair
        assert [r.printed_name for r in mine] == [w["system"] for w in table["rows"]], pair
        for row, want in zip(mine, table["rows"], strict=True):
            assert printed(row.autorank, "AutoRank") == want["autorank"], (pair, row.system)
            got = [printed(row.scores[m], m) for m in table["metrics"]]
            assert got == want["scores"], (pair, row.system)
            compared += 1
    assert compared == 1066


def test_null_paragraphs_are_left_out_as_the_organisers_leave_them(scores: Any) -> None:
    cmda = scores["en-ar_EG"]["Llama-3.1-8B"]["GEMBA-ESA-CMDA"]
    assert None in cmda
    given = [v for v in cmda if v is not None]
    assert system_score(cmda) == pytest.approx(sum(given) / len(given))
    as_zero = sum(given) / len(cmda)
    assert printed(system_score(cmda), "GEMBA-ESA-CMDA") != printed(as_zero, "GEMBA-ESA-CMDA")


def test_the_method_by_hand() -> None:
    # median 3, Q100 - Q25 = 5 - 2: z = (x - 3) / 3
    assert scaled([1.0, 2.0, 3.0, 4.0, 5.0]).tolist() == pytest.approx([-2 / 3, -1 / 3, 0, 1 / 3, 2 / 3])
    table = {"a": {"m": 5.0, "n": 0.2}, "b": {"m": 4.0, "n": 0.3}, "c": {"m": 1.0, "n": 0.1}}
    z = {s: (scaled([5.0, 4.0, 1.0])[k] + scaled([0.2, 0.3, 0.1])[k]) / 2 for k, s in enumerate("abc")}
    best, worst = max(z.values()), min(z.values())
    want = {s: 1 + 2 * (best - v) / (best - worst) for s, v in z.items()}
    assert autorank(table, ["m", "n"]) == pytest.approx(want)
    assert np.percentile([5.0, 4.0, 1.0], 25) == 2.5  # NumPy's linear percentile
    assert autorank({"a": {"m": 1.0}, "b": {"m": 1.0}}, ["m"]) == {"a": 1.0, "b": 1.0}


def _write(folder: Path, name: str, lines: list[Any], zipped: bool) -> None:
    text = "".join(json.dumps(line) + "\n" for line in lines)
    if zipped:
        with gzip.open(folder / f"{name}.jsonl.gz", "wt", encoding="utf-8") as fh:
            fh.write(text)
    else:
        (folder / f"{name}.jsonl").write_text(text, encoding="utf-8")


def test_raw_and_gzipped_files_and_what_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = {
        "language_pair": "xx-yy",
        "document_id": "d",
        "metric_scores": {"m": [1.0, None, 3.0], "n": [0.5, 0.5]},
    }
    _write(tmp_path, "raw", [doc], zipped=False)
    _write(tmp_path, "zipped", [{**doc, "metric_scores": {"m": [0.0], "n": [0.1]}}], zipped=True)
    status, out, err = run_cli(capsys, "autorank", str(tmp_path), "--preset", "none", "-f", "json")
    assert status == 0, err
    rows = json.loads(out)
    assert [(r["system"], r["autorank"]) for r in rows] == [("raw", 1.0), ("zipped", 2.0)]
    assert rows[0]["scores"] == {"m": 2.0, "n": 0.5}
    status, out, _ = run_cli(capsys, "autorank", str(tmp_path), "--preset", "none", "-m", "n")
    assert status == 0 and out.splitlines()[0] == "xx-yy (xx-yy): 2 systems; AutoRank 1 is the best"
    assert out.splitlines()[4].split() == ["raw", "1.0", "0.5"]  # the higher n
    _write(tmp_path, "raw", [doc], zipped=True)
    with pytest.raises(InputFileError, match="raw is there twice"):
        read_scores(tmp_path)
    (tmp_path / "raw.jsonl.gz").unlink()
    (tmp_path / "bad.jsonl").write_text('{"language_pair": "xx-yy", "metric_scores": {"m": ["x"]}}\n')
    with pytest.raises(InputFileError, match=r"bad.jsonl, line 1: m has 'x', not a finite number or null"):
        read_scores(tmp_path)
    (tmp_path / "bad.jsonl").write_text('{"language_pair": "xx-yy", "metric_scores": {"n": [1]}}\n')
    with pytest.raises(InputError, match="xx-yy: bad has no m scores"):
        rank(read_scores(tmp_path), None, Asked(metrics=["m"]))
    status, _, err = run_cli(capsys, "autorank", str(tmp_path), "--pair", "zz-zz")
    assert status != 0 and "no scores for zz-zz in the folder" in err  # its lines not even parsed
    assert list(read_scores(tmp_path, ["xx-yy"])) == ["xx-yy"] and read_scores(tmp_path, ["zz-zz"]) == {}


def test_a_test_set_says_which_pairs_have_references(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    metrics = ("CometKiwi-XL", "GEMBA-ESA-CMDA", "GEMBA-ESA-GPT4.1", "MetricX-24-Hybrid-XL", "XCOMET-XL")
    folder = tmp_path / "scores"
    folder.mkdir()
    for k, name in enumerate(("a", "b", "c")):
        doc = {"language_pair": "en-de_DE", "metric_scores": {m: [float(k), float(k * k)] for m in metrics}}
        _write(folder, name, [doc], zipped=False)
    refs = {"refA": {"ref": "Hallo.\\n\\nWelt."}}
    testset = tmp_path / "wmt25-genmt.jsonl"
    record = {"doc_id": "en-de_DE_#_news_#_1", "src_lang": "en", "tgt_lang": "de_DE", "domain": "news"}
    testset.write_text(
        json.dumps({**record, "src_text": "Hi.\\n\\nWorld.", "refs": refs}) + "\n", encoding="utf-8"
    )
    status, out, err = run_cli(capsys, "autorank", str(folder))
    assert status == 0, err
    assert "CometKiwi-XL" not in out.splitlines()[2]  # en-de_DE: no references, as the report's table says
    assert out.splitlines()[-1].endswith("as the wmt25 preset's table says (the report's columns)")
    status, out, err = run_cli(capsys, "autorank", str(folder), "-t", str(testset))
    assert status == 0, err
    assert out.splitlines()[2].split()[2] == "CometKiwi-XL" and out.splitlines()[-1].endswith(
        "as the test set says"
    )
