"""``understudy site``: what the pages hold, read from the HTML written (the browser tests open
them): clusters as ``understudy compare`` makes them, signatures kept apart, bad input said,
the folder replaced whole."""

from __future__ import annotations

import html
import json
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from understudy import BLEU, CHRF
from understudy.errors import OutputError
from understudy.ledger import Ledger
from understudy.metrics.scores import GivenScores
from understudy.site import Settings, build_site
from understudy.site.build import MARK

from tests.support.cli import run_cli as run
from tests.support.paths import ONLINE_A, PROMT, REF, UEDIN
from tests.support.postgres_server import PASSWORD

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")
SYSTEMS = [str(UEDIN), str(ONLINE_A), str(PROMT)]


class _Cells(HTMLParser):
    """The results table's cells: per row's system, each metric cell's attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[dict[str, str | None]]] = {}
        self.heads: list[dict[str, str | None]] = []
        self._row: str | None = None
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table" and found.get("id") == "results":
            self._inside = True
        elif self._inside and tag == "th" and "data-metric" in found:
            self.heads.append(found)
        elif self._inside and tag == "tr" and found.get("data-system"):
            self._row = str(found["data-system"])
            self.rows[self._row] = []
        elif self._inside and tag == "td" and self._row is not None and "data-value" in found:
            self.rows[self._row].append(found)

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._inside = False


def _cells(page: Path) -> _Cells:
    parser = _Cells()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


def _testset_pages(site: Path) -> list[Path]:
    return sorted((site / "testsets").glob("*.html"))


def test_clusters_are_compares_on_the_same_texts(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    ledger, site = str(tmp_path / "l.sqlite"), tmp_path / "site"
    argv = [str(REF), "-i", *SYSTEMS, "-m", "bleu", "chrf"]
    assert run(capfd, "score", *argv, "--log", "--ledger", ledger)[0] == 0
    code, out, _ = run(capfd, "compare", *argv, "-f", "json", "-n", "300", "--seed", "7")
    assert code == 0
    compare = json.loads(out)
    code, _, err = run(capfd, "site", "--ledger", ledger, "-o", str(site), "-n", "300", "--seed", "7")
    assert code == 0 and err.strip().endswith(f"wrote 8 pages (1 test set, 6 records) to {site}")
    (page,) = _testset_pages(site)
    cells = _cells(page)
    assert [h["data-metric"] for h in cells.heads] == ["BLEU", "chrF2"]
    # Rows in BLEU's ranking, each cell its system's cluster under that metric, as compare's.
    assert list(cells.rows) == [os.path.basename(s["name"]) for s in compare[0]["ranking"]]
    for k, record in enumerate(compare):
        cluster_of = {
            os.path.basename(s): str(c + 1) for c, members in enumerate(record["clusters"]) for s in members
        }
        assert {s: row[k]["data-cluster"] for s, row in cells.rows.items()} == cluster_of
        assert {s: float(str(row[k]["data-value"])) for s, row in cells.rows.items()} == {
            os.path.basename(s["name"]): s["score"] for s in record["ranking"]
        }
    text = page.read_text(encoding="utf-8")
    assert "300 resamples, seed 7" in text


def _stats(hyps: list[str], metric: Any = None) -> Any:
    refs = [["the cat sat on the mat", "a dog barked", "it rains today"]]
    return (metric or BLEU()).segment_stats(hyps, refs)


GOOD = ["the cat sat on the mat", "a dog barked", "it rains today"]
FAIR = ["the cat sat on a mat", "a dog barked", "it rains"]


def test_two_signatures_never_share_a_column(tmp_path: Path) -> None:
    with Ledger(tmp_path / "l.sqlite") as ledger:
        ledger.append(_stats(GOOD), "A", "toy:en-de")
        ledger.append(_stats(FAIR), "B", "toy:en-de")
        ledger.append(_stats(FAIR, BLEU(tokenize="intl")), "B", "toy:en-de")
        ledger.append(_stats(FAIR, CHRF()), "B", "toy:en-de")
        build_site(ledger, tmp_path / "site", Settings(n=50))
    (page,) = _testset_pages(tmp_path / "site")
    cells = _cells(page)
    assert [h["data-metric"] for h in cells.heads] == ["BLEU", "BLEU", "chrF2"]
    # A has no record of the intl BLEU nor of chrF: its cells are empty, not another signature's.
    assert [c["data-value"] for c in cells.rows["A"]][1:] == ["", ""]
    assert float(str(cells.rows["A"][0]["data-value"])) == pytest.approx(100.0)
    text = page.read_text(encoding="utf-8")
    assert "tok:intl" in text and text.count("One system: no clusters.") == 2


def test_the_latest_record_is_shown_and_the_history_has_them_all(tmp_path: Path) -> None:
    with Ledger(tmp_path / "l.sqlite") as ledger:
        old = ledger.append(_stats(FAIR), "A", "toy:en-de", revision="r1")
        new = ledger.append(_stats(GOOD), "A", "toy:en-de", revision="r2")
        build_site(ledger, tmp_path / "site", Settings(n=50))
    (page,) = _testset_pages(tmp_path / "site")
    ((cell,),) = _cells(page).rows.values()
    assert float(str(cell["data-value"])) == pytest.approx(100.0)  # GOOD's, not FAIR's 60.77
    text = page.read_text(encoding="utf-8")
    points = re.findall(r'<a href="../records/(\d+).html"><circle', text)
    assert points == [str(old), str(new)] and "(r1)</title>" in text and "(r2)</title>" in text
    assert (tmp_path / "site" / "records" / f"{old}.html").exists()


def test_records_that_cannot_be_resampled_are_marked(tmp_path: Path) -> None:
    given = GivenScores({"A": [0.7], "B": [0.6]}, "Human", lower_is_better=False)
    with Ledger(tmp_path / "l.sqlite") as ledger:
        for name in ("A", "B"):
            ledger.append(given.segment_stats(name), name, "toy:en-de")
        ledger.append(_stats(GOOD), "A", "toy:en-de")
        ledger.append(BLEU().segment_stats(FAIR[:2], [GOOD[:2]]), "B", "toy:en-de")
        build_site(ledger, tmp_path / "site", Settings(n=50))
    (page,) = _testset_pages(tmp_path / "site")
    text = page.read_text(encoding="utf-8")
    assert "each record holds 1 segment (a corpus score alone), which cannot be resampled" in text
    assert "the records hold different numbers of segments (2, 3)" in text
    assert text.count('class="unclustered"') == 2 and " data-cluster=" not in text


def test_an_empty_ledger_says_so(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    Ledger(tmp_path / "l.sqlite").close()
    site = tmp_path / "site"
    code, _, err = run(capfd, "site", "--ledger", str(tmp_path / "l.sqlite"), "-o", str(site))
    assert code == 0 and "wrote 1 page (0 test sets, 0 records)" in err
    assert 'id="empty"' in (site / "index.html").read_text(encoding="utf-8")
    assert not list((site / "testsets").iterdir())


def test_names_with_markup_and_control_characters_are_text(tmp_path: Path) -> None:
    hostile = '<script>alert(1)</script>"\x1b[31m'
    with Ledger(tmp_path / "l.sqlite") as ledger:
        ledger.append(_stats(GOOD), hostile, f"{hostile}:en-de", tags=[hostile], note=hostile)
        record = ledger.append(_stats(FAIR), "B", f"{hostile}:en-de")
        build_site(ledger, tmp_path / "site", Settings(n=50))
    site = tmp_path / "site"
    pages = [site / "index.html", *_testset_pages(site), site / "records" / f"{record}.html"]
    pages.append(site / "records" / "1.html")
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "\x1b" not in text and "\\x1b[31m" in text  # the escape shown, not sent to the page
    (page,) = _testset_pages(site)
    assert re.fullmatch(r"script-alert-1-script-31m-en-de-[0-9a-f]{8}\.html", page.name)


def test_filters_select_records_by_tag_and_time(tmp_path: Path) -> None:
    with Ledger(tmp_path / "l.sqlite") as ledger:
        ledger.append(_stats(GOOD), "A", "one:en-de", tags=["release"])
        ledger.append(_stats(FAIR), "B", "two:de-en")
        built = build_site(ledger, tmp_path / "site", Settings(tags=("release",), n=50))
        assert (built.testsets, built.records) == (1, 1)
        index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
        assert 'data-testset="one:en-de"' in index and "two:de-en" not in index
        assert "the records tagged release" in index
        later = build_site(ledger, tmp_path / "site", Settings(since="2999-01-01", n=50))
        assert later.records == 0


def test_a_second_build_replaces_the_site_whole(tmp_path: Path) -> None:
    site = tmp_path / "site"
    with Ledger(tmp_path / "l.sqlite") as ledger:
        ledger.append(_stats(GOOD), "A", "one:en-de")
        build_site(ledger, site, Settings(n=50))
        first = os.stat(site).st_ino
        (site / "stale.html").write_text("from before")
        ledger.append(_stats(FAIR), "B", "two:de-en")
        build_site(ledger, site, Settings(n=50))
    # A new folder in the old one's place: nothing of the old left, nothing left beside it.
    assert os.stat(site).st_ino != first and not (site / "stale.html").exists()
    assert len(_testset_pages(site)) == 2 and (site / MARK).exists()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("l.sqlite")) == ["site"]


def test_a_link_to_the_site_is_followed_and_the_folder_it_names_replaced(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # site -o LINK, LINK -> the served folder (a web server's document root, say): the link stays
    # a link, the folder it names gets the new site, nothing stray is left beside either.
    served, links = tmp_path / "www" / "site", tmp_path / "links"
    served.parent.mkdir()
    links.mkdir()
    (links / "current").symlink_to(served)  # dangling before the first build
    with Ledger(tmp_path / "l.sqlite") as ledger:
        ledger.append(_stats(GOOD), "A", "one:en-de")
    for testsets in (1, 2):
        if testsets == 2:
            with Ledger(tmp_path / "l.sqlite") as ledger:
                ledger.append(_stats(FAIR), "B", "two:de-en")
        code, _, err = run(
            capfd, "site", "--ledger", str(tmp_path / "l.sqlite"), "-o", str(links / "current")
        )
        assert code == 0, err
        assert (links / "current").is_symlink() and os.readlink(links / "current") == str(served)
        assert len(_testset_pages(served)) == testsets and (served / MARK).exists()
        assert [p.name for p in links.iterdir()] == ["current"]
        assert [p.name for p in served.parent.iterdir()] == ["site"]


def test_a_folder_that_is_not_a_site_is_never_replaced(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("years of work")
    with Ledger(tmp_path / "l.sqlite") as ledger:
        ledger.append(_stats(GOOD), "A", "one:en-de")
        with pytest.raises(OutputError, match="holds files that are not a site understudy wrote"):
            build_site(ledger, mine, Settings(n=50))
    assert (mine / "thesis.tex").read_text() == "years of work"
    code, _, err = run(capfd, "site", "--ledger", str(tmp_path / "l.sqlite"), "-o", str(mine / "thesis.tex"))
    assert code == 1 and err.startswith("understudy: error: cannot write the site to") and "is a file" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("processes", [1, 2])
def test_an_interrupted_build_leaves_the_previous_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, processes: int
) -> None:
    from understudy.site import build

    site = tmp_path / "site"
    with Ledger(tmp_path / "l.sqlite") as ledger:
        for hyps, name in ((GOOD, "A"), (FAIR, "B")):
            for metric in (BLEU(), CHRF()):  # two columns to rank: with processes=2, in workers
                ledger.append(_stats(hyps, metric), name, "one:en-de")
        build_site(ledger, site, Settings(n=50, processes=processes))
        before = sorted(p.name for p in site.rglob("*"))

        def interrupted(*_: object) -> str:
            raise KeyboardInterrupt

        monkeypatch.setattr(build, "record_page", interrupted)
        ledger.append(_stats(FAIR), "B", "two:de-en")
        with pytest.raises(KeyboardInterrupt):
            build_site(ledger, site, Settings(n=50, processes=processes))
    assert sorted(p.name for p in site.rglob("*")) == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("l.sqlite")) == ["site"]


def test_a_postgresql_ledger_serves_the_same_site(tmp_path: Path, postgres: Any) -> None:
    sites = []
    with Ledger(tmp_path / "l.sqlite") as sqlite, Ledger(postgres.database()) as pg:
        sqlite.append(_stats(GOOD), "A", "one:en-de", tags=["x"], note="n")
        sqlite.append(_stats(FAIR), "B", "one:en-de", revision="r")
        sqlite.append(_stats(FAIR, CHRF()), "B", "one:en-de")
        assert pg.import_records(sqlite) == (3, 0)
        for k, ledger in enumerate((sqlite, pg)):
            build_site(ledger, tmp_path / f"site{k}", Settings(n=50))
            sites.append(tmp_path / f"site{k}")
    files = [sorted(str(p.relative_to(site)) for p in site.rglob("*")) for site in sites]
    assert files[0] == files[1] and len(files[0]) == 8
    index = (sites[1] / "index.html").read_text(encoding="utf-8")
    assert PASSWORD not in index and html.escape(PASSWORD) not in index
    assert "postgresql://127.0.0.1:" in index and "@" not in index.split("From the ledger")[1].split("<")[0]
    for name in files[0]:
        if name.endswith(".html") and name != "index.html":
            assert (sites[0] / name).read_bytes() == (sites[1] / name).read_bytes(), name


def test_worker_processes_make_the_same_site(tmp_path: Path) -> None:
    sites = [tmp_path / "here", tmp_path / "workers"]
    with Ledger(tmp_path / "l.sqlite") as ledger:
        for k, hyps in enumerate((GOOD, FAIR, ["the cat", "a dog barked", "it rains today"])):
            for metric in (BLEU(), CHRF()):
                ledger.append(_stats(hyps, metric), f"S{k}", "one:en-de")
                ledger.append(_stats(hyps, metric), f"S{k}", "two:en-de")
        built = [
            build_site(ledger, site, Settings(n=50, processes=p))
            for site, p in zip(sites, (1, 2), strict=True)
        ]
    assert built[0] == built[1]
    files = [sorted(p.relative_to(site) for p in site.rglob("*.html")) for site in sites]
    assert files[0] == files[1] and len(files[0]) == 15
    for name in files[0]:
        assert (sites[0] / name).read_bytes() == (sites[1] / name).read_bytes()
    assert "data-cluster" in (sites[1] / "testsets" / files[0][-1].name).read_text(encoding="utf-8")


def test_the_gates_verdicts_are_marked_in_the_history(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    ledger, site = str(tmp_path / "l.sqlite"), tmp_path / "site"
    base = ["--baseline", str(UEDIN), "--ledger", ledger, "--log", "-m", "bleu"]
    assert run(capfd, "gate", str(REF), *base, "--candidate", str(UEDIN))[0] == 0
    assert run(capfd, "gate", str(REF), *base, "--candidate", str(PROMT))[0] == 1
    assert run(capfd, "site", "--ledger", ledger, "-o", str(site), "-n", "50")[0] == 0
    (page,) = _testset_pages(site)
    text = page.read_text(encoding="utf-8")
    assert re.findall(r'class="gate-(\w+)"><title>[^<]*gate: (\w+)</title>', text) == [
        ("pass", "pass"),
        ("fail", "fail"),
    ]
    assert "red where it failed them" in text
    record = (site / "records" / "2.html").read_text(encoding="utf-8")
    assert "(a candidate the gate failed)" in record and "gate:fail" in record


def test_without_an_atomic_exchange_the_site_is_moved_aside_then_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from understudy.site import build

    monkeypatch.setattr(build, "_exchange", lambda a, b: False)  # a system without renameat2
    site = tmp_path / "site"
    with Ledger(tmp_path / "l.sqlite") as ledger:
        ledger.append(_stats(GOOD), "A", "one:en-de")
        build_site(ledger, site, Settings(n=50))
        ledger.append(_stats(FAIR), "B", "two:de-en")
        build_site(ledger, site, Settings(n=50))
    assert len(_testset_pages(site)) == 2
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("l.sqlite")) == ["site"]


@pytest.mark.parametrize(
    ("option", "value"), [("-n", "0"), ("--alpha", "1.5"), ("--processes", "0"), ("--seed", "-1")]
)
def test_a_wrong_setting_is_refused_even_without_clusters(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    Ledger(tmp_path / "l.sqlite").close()  # empty: no column would ever read the setting
    code, _, err = run(
        capfd, "site", "--ledger", str(tmp_path / "l.sqlite"), "-o", str(tmp_path / "s"), option, value
    )
    assert code != 0 and err.startswith("understudy: error:") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "s").exists()


def test_the_pages_name_the_ledger_round_scores_and_wrap_signatures_at_bars(tmp_path: Path) -> None:
    # Before: the index printed the ledger's full path, a record page its score to 15 digits,
    # and a long signature wrapped anywhere (inside a key).
    folder = tmp_path / "team-results"
    folder.mkdir()
    with Ledger(folder / "l.sqlite") as ledger:
        kept = ledger.append(_stats(FAIR), "A", "toy:en-de")
        score = ledger.get(kept).score
        build_site(ledger, tmp_path / "site", Settings(n=50))
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "l.sqlite" in index and str(folder) not in index
    record = (tmp_path / "site" / "records" / f"{kept}.html").read_text(encoding="utf-8")
    (page,) = _testset_pages(tmp_path / "site")
    table = re.search(rf'href="../records/{kept}.html">([^<]+)</a>', page.read_text(encoding="utf-8"))
    assert table is not None and table.group(1) == f"{score:.2f}" != str(score)  # sacrebleu: 60.77
    shown = re.search(r'<dd id="score"[^>]*>([^<]+)</dd>', record)
    assert shown is not None and shown.group(1) == table.group(1)
    signature = re.search(r'<code id="signature" class="signature">(.*?)</code>', record)
    assert signature is not None and "|" in signature.group(1)
    assert signature.group(1).count("|") == signature.group(1).count("|<wbr>")
    assert "code.signature { overflow-wrap: normal;" in record
