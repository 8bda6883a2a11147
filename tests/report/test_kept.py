"""The report from the ledger: kept records reported without their text, and the history section."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from understudy import BLEU, CHRF, TER
from understudy.errors import IncomparableError, LedgerError
from understudy.ledger import Ledger

from tests.support.cli import keep_given, run_cli, run_process
from tests.support.paths import ONLINE_A, REF, SAMPLE, UEDIN

pytest.importorskip("jinja2")
pytest.importorskip("matplotlib")

REFS = [["the cat sat on the mat", "a dog barked at the moon", "it is raining today", "we went home"] * 5]
SYSTEMS = {
    "base": ["the cat sat", "a dog barked at the sun", "it rains today", "we went to home"] * 5,
    "new": ["the cat sat on a mat", "a dog barked at the moon", "it is raining", "we go home"] * 5,
    "copy": REFS[0],
}


def _kept(location: str, tag: str = "run") -> None:
    with Ledger(location) as ledger:
        for name, hyps in SYSTEMS.items():
            for metric in (BLEU(), CHRF(), TER()):
                ledger.append(metric.segment_stats(hyps, REFS), name, "toy", tags=[tag])


def test_kept_records_rank_exactly_as_the_text_does(new_ledger: Callable[..., str]) -> None:
    from understudy.report import build
    from understudy.report.kept import build_from_stats, kept_statistics

    _kept(new_ledger())
    with Ledger(new_ledger()) as ledger:
        per_metric, names = kept_statistics(ledger, ["tag:run"])
    assert names == list(SYSTEMS) and list(per_metric) == ["BLEU", "chrF2", "TER"]
    kept = build_from_stats(per_metric, names, "kept", n=200, seed=7)
    scored = build([BLEU(), CHRF(), TER()], names, list(SYSTEMS.values()), REFS, "scored", n=200, seed=7)
    assert kept.rankings == scored.rankings  # scores, intervals, p-values and clusters, all of them
    assert kept.overview == scored.overview
    assert kept.systems == () and kept.analyses == () and kept.pair is None and kept.without_text
    assert scored.systems and not scored.without_text


def test_records_name_one_comparable_record_per_system_and_metric(tmp_path: Path) -> None:
    from understudy.report.kept import kept_statistics

    path = str(tmp_path / "l.sqlite")
    _kept(path)
    with Ledger(path) as ledger:
        # Ids 1-9: base, new, copy, each BLEU, chrF, TER. The latest of a tag replaces an older one.
        per_metric, names = kept_statistics(ledger, ["1", "4"])
        assert names == ["base", "new"] and list(per_metric) == ["BLEU"]
        ledger.append(BLEU().segment_stats(SYSTEMS["base"], REFS), "base", "toy", tags=["run"])
        per_metric, _ = kept_statistics(ledger, ["tag:run"])
        assert per_metric["BLEU"][0].rows.tolist() == ledger.stats(10).rows.tolist()
        with pytest.raises(LedgerError, match="records 1 and 10 are both base's bleu"):
            kept_statistics(ledger, ["1", "10"])
        with pytest.raises(LedgerError, match="no chrf record of new among the records named"):
            kept_statistics(ledger, ["1", "2", "4"])
        other = ledger.append(BLEU(lowercase=True).segment_stats(SYSTEMS["new"], REFS), "lc", "toy")
        with pytest.raises(IncomparableError, match="signature's case: mixed against lc"):
            kept_statistics(ledger, ["1", str(other)])
        with pytest.raises(LedgerError, match="tag:none: no record of the ledger"):
            kept_statistics(ledger, ["tag:none"])
        with pytest.raises(LedgerError, match="base: a record is named by its id or as tag:NAME"):
            kept_statistics(ledger, ["base"])


def test_the_report_of_records_and_its_history_on_the_command_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    ledger = ["--ledger", str(tmp_path / "l.sqlite")]
    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    systems = [str(SAMPLE / f"newstest2017.{n}.en-de.de") for n in ("uedin-nmt.4722", "online-A.0")]
    code, _, err = run_cli(
        capfd, "score", ref, "-i", *systems, "-m", "bleu", "-b", "--log", "--tag", "r", *ledger
    )
    assert code == 0, err
    page = tmp_path / "kept.html"
    code, _, err = run_cli(
        capfd, "report", "--records", "tag:r", "-o", str(page), "--history", "tag:r", *ledger
    )
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert 'id="without-text"' in html and 'id="per-system"' not in html and 'id="diff"' not in html
    assert 'href="#per-system"' not in html and 'href="#history"' in html
    with Ledger(ledger[1]) as kept:
        scores = [kept.get(k).score for k in (1, 2)]
        history = kept.history(tag="r")
    ranked = re.findall(r'data-metric="BLEU" data-value="([0-9.]+)"', html)
    assert sorted(float(x) for x in ranked) == sorted(scores)
    rows = re.findall(
        r"<tr><td class=\"text\">tag:r</td><td>(\d+)</td>.*?<td>([0-9.]+)</td><td>([0-9.]+)</td>", html
    )
    assert rows == [(str(p.record.id), f"{p.record.score:.2f}", f"{p.ci:.2f}") for p in history]
    code, _, err = run_cli(capfd, "report", ref, "--records", "1", "-o", str(page), *ledger)
    assert code != 0 and "REF cannot be given with it" in err
    code, _, err = run_cli(capfd, "report", "-o", str(page), *ledger)
    assert code != 0 and "give the systems' files (-i), or kept records (--records)" in err
    code, _, err = run_cli(
        capfd, "report", "--records", "1", "2", "-o", str(page), "--history", "nobody", *ledger
    )
    assert code != 0 and "--history: no record of nobody" in err


def test_the_kept_records_report_has_a_column_per_given_metric(
    tmp_path: Path, new_ledger: Callable[[], str]
) -> None:
    pytest.importorskip("jinja2")
    ledger = new_ledger()
    keep_given(tmp_path, ledger, "A", [0.5] * 20, [3.0] * 20)
    out = tmp_path / "report.html"
    done = run_process("report", "--records", "tag:A", "-o", str(out), "-n", "50", "--ledger", ledger)
    assert done.returncode == 0, done.stderr
    page = out.read_text(encoding="utf-8")
    assert 'data-metric="COMET-22"' in page and 'data-metric="MetricX-24"' in page


def test_report_records_read_the_ledger_and_take_only_record_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = tmp_path / "l.sqlite"
    done = run_process("score", str(REF), "-i", str(UEDIN), str(ONLINE_A), "--log", "--ledger", str(ledger))
    assert done.returncode == 0, done.stderr
    before = ledger.read_bytes()
    for records in (str(2**63), "²", "1"):
        code, _, err = run_cli(
            capsys,
            "report",
            "--records",
            "1",
            records,
            "-o",
            str(tmp_path / "r.html"),
            "--ledger",
            str(ledger),
        )
        assert err.count("\n") <= 1 and "Traceback" not in err, err
    assert ledger.read_bytes() == before
    code, _, err = run_cli(
        capsys, "gate", "--baseline", "ledger:²", "--candidate", "ledger:1", "--ledger", str(ledger)
    )
    assert code == 2 and "ledger:ID takes a record's number" in err
