"""`understudy report`: one self-contained page with the command line's numbers, user text as text."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from understudy import BLEU, CHRF

from tests.support.cli import run_cli as run
from tests.support.paths import ONLINE_A, SAMPLE, UEDIN, read_raw

CLI = [sys.executable, "-m", "understudy.cli"]

pytestmark = pytest.mark.usefixtures("quiet_sacrebleu")

REF = SAMPLE / "newstest2017.ref.en-de.de"
SYSTEMS = sorted(p for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)


class _Rankings(HTMLParser):
    """The rankings table's cells: (metric, cluster, system, score text), in the table's row order."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, int, str, str]] = []
        self.in_table = False
        self.system = ""
        self.cell: tuple[str, int] | None = None
        self.text = ""
        self.external: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.policy = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("src", "href"):
            if values.get(key) and not (key == "href" and (values[key] or "").startswith("#")):
                self.external.append(f"{tag} {key}={values[key]}")
        if tag in ("link", "iframe", "img", "object"):
            self.external.append(tag)
        if tag == "script":
            self.scripts.append(values)
        if tag == "meta" and values.get("http-equiv") == "Content-Security-Policy":
            self.policy = values.get("content") or ""
        if tag == "table" and values.get("id") == "rankings":
            self.in_table = True
        if tag == "tr" and self.in_table:
            self.system = values.get("data-system") or ""
        if tag == "td" and self.in_table and values.get("data-cluster"):
            self.cell = (values.get("data-metric") or "", int(values["data-cluster"] or 0))
            self.text = ""

    def handle_data(self, data: str) -> None:
        self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.cell is not None:
            self.rows.append((self.cell[0], self.cell[1], self.system, self.text.split()[0]))
            self.cell = None
        if tag == "table":
            self.in_table = False


def test_the_report_shows_the_command_lines_rankings(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.html"
    inputs = [str(p) for p in SYSTEMS]
    status, _, err = run(
        capfd, "report", str(REF), "-i", *inputs, "-m", "bleu", "chrf", "ter", "-n", "200", "-o", str(out)
    )
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    parsed = _Rankings()
    parsed.feed(page)
    assert parsed.external == []  # nothing is fetched: no script, stylesheet, image or link
    # One inline script, the only one the page's policy allows (by its hash); no request at all.
    assert parsed.scripts == [{}]
    script = page.split("<script>", 1)[1].split("</script>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    assert (
        parsed.policy
        == f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{digest}'"
    )
    assert not re.search(r"url\((?!#)|@import", page)  # the SVGs' url(#clip) stay inside the page
    # The page names the command as it was called (here through main(argv), not sys.argv).
    assert html.escape(f"understudy report {REF} -i {inputs[0]}") in page
    status, compare, _ = run(
        capfd, "compare", str(REF), "-i", *inputs, "-m", "bleu", "chrf", "ter", "-n", "200", "-f", "json"
    )
    metrics = list(dict.fromkeys(r[0] for r in parsed.rows))
    assert metrics == ["BLEU", "chrF2", "TER"]
    records = json.loads(compare)
    # One table: a row per system in the first metric's ranking order, a column per metric.
    assert [r[2] for r in parsed.rows if r[0] == "BLEU"] == [s["name"] for s in records[0]["ranking"]]
    for metric, record in zip(metrics, records, strict=True):
        clusters = {s: k + 1 for k, members in enumerate(record["clusters"]) for s in members}
        want = [(metric, clusters[s["name"]], s["name"], f"{s['score']:.2f}") for s in record["ranking"]]
        assert sorted(r for r in parsed.rows if r[0] == metric) == sorted(want)
    for section in (
        'id="systems"',
        'id="interpretation"',
        'id="per-system"',
        "The gist is clear",
        "brevity penalty",
        'id="analyses"',
        'id="ngrams"',
        'id="diff"',
    ):
        assert section in page
    assert page.count('<figure class="histogram"><svg') == len(SYSTEMS)


def test_user_text_is_text(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    evil = tmp_path / "{{7*7}}<img src=x onerror=alert(1)>.de"
    lines = REF.read_text(encoding="utf-8").splitlines()
    lines[0] = "</textarea><script>alert(1)</script> \u202eRTL {{ x }}"
    lines[1] = "Lange " * 2_000_000  # 12 MB in one segment
    lines[2] = "x" * 5_000_000  # 5 MB in one token
    evil.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ref = tmp_path / "ref.de"
    shutil.copy(REF, ref)
    out = tmp_path / "report.html"
    status, _, err = run(
        capfd, "report", str(ref), "-i", str(evil), str(SYSTEMS[0]), "-n", "50", "-o", str(out)
    )
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    assert page.count("<script") == 1 and "<img" not in page and "onerror=alert(1)&gt;" in page
    assert "&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page and "{{ x }}" in page
    assert "49" not in re.findall(r"data-system=\"([^\"]*)\"", page)[0]  # the template did not evaluate names
    # The 12 MB segment and the 5 MB token are folded and cut, visibly, among the worst
    # segments and in the diff.
    assert len(page) < 4_000_000 and page.count("more characters") >= 4


class _Table(HTMLParser):
    """The text of each body row of the table whose id or class is ``name``."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.depth = 0
        self.rows: list[list[str]] = []
        self.row: list[str] | None = None
        self.text: str | None = None
        self.in_body = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "table" and self.name in (values.get("id"), *(values.get("class") or "").split()):
            self.depth += 1
        if self.depth and tag == "tbody":
            self.in_body = True
        if self.depth and self.in_body and tag == "tr":
            self.row = []
        if self.row is not None and tag == "td":
            self.text = ""

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.row is not None and self.text is not None:
            self.row.append(" ".join(self.text.split()))
            self.text = None
        if tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None
        if tag == "table" and self.depth:
            self.depth, self.in_body = 0, False


def _rows(page: str, name: str) -> list[list[str]]:
    table = _Table(name)
    table.feed(page)
    return table.rows


def test_the_diff_shows_sacrebleus_tokens_and_sentence_scores(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    out = tmp_path / "report.html"
    a, b = str(SYSTEMS[2]), str(SYSTEMS[0])
    status, _, err = run(
        capfd, "report", str(REF), "-i", *map(str, SYSTEMS), "--pair", a, b, "-n", "20", "-o", str(out)
    )
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    # Short names (what the paths share cut away), the full paths in tooltips.
    assert f'Segment by segment: <bdi title="{a}">uedin-nmt.4722</bdi> (A) and' in page
    assert f'<bdi title="{b}">PROMT-Rule-based.4735</bdi> (B)</h2>' in page
    rows = _rows(page, "diff-table")
    refs = REF.read_text(encoding="utf-8").splitlines()
    hyps_a, hyps_b = (Path(p).read_text(encoding="utf-8").splitlines() for p in (a, b))
    assert len(rows) == 1000 < len(refs)  # a chosen 1000 of the 3004 segments
    assert f"1000 of {len(refs)} segments" in page and f"{len(refs) - 1000} are left out" in page
    bleu, tokenize = SacreBLEU(effective_order=True), Tokenizer13a()  # as `score -sl`
    for row in rows[::37]:
        number, score_a, score_b, text_a, text_b, reference = row
        i = int(number) - 1
        assert " ".join(reference.split()) == " ".join(refs[i].split())
        assert score_a == f"{bleu.sentence_score(hyps_a[i], [refs[i]]).score:.1f}"
        assert score_b == f"{bleu.sentence_score(hyps_b[i], [refs[i]]).score:.1f}"
        assert (text_a, text_b) == (tokenize(hyps_a[i].rstrip()), tokenize(hyps_b[i].rstrip()))
    better_a = _rows(page, "ngrams")[:3]  # the first table: n-grams A matches more often
    assert all(int(n_a) > int(n_b) for _, n_a, n_b, _ in better_a)

    status, _, err = run(capfd, "report", str(REF), "-i", a, b, "--pair", a, "x.de", "-o", str(out))
    assert status == 1 and "--pair names x.de, which is not one of -i" in err


def test_human_scores_give_correlates_numbers(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    ted = (
        Path(os.environ.get("UNDERSTUDY_SHARED", REF.parents[3] / "shared")) / "data" / "wmt21-ted-zh-en-mqm"
    )
    if not (ted / "mqm_system_scores.tsv").exists():
        pytest.skip(f"WMT21 TED data not found at {ted}")
    inputs = [
        str(ted / f"{name}.txt") for name in ("Facebook-AI", "NiuTrans", "Online-W", "SMU", "MiSS", "IIE-MT")
    ]
    argv = [str(ted / "ref-B.txt"), "-i", *inputs, "--human", str(ted / "mqm_system_scores.tsv"), "-n", "100"]
    out = tmp_path / "report.html"
    status, _, err = run(capfd, "report", *argv, "-m", "bleu", "chrf", "-o", str(out))
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    shown = {(m, s): v for m, s, v in _rows(page, "correlations")}
    status, text, err = run(capfd, "correlate", *argv, "-m", "bleu", "chrf", "-f", "json")
    assert status == 0, err
    record = json.loads(text)
    want = {
        (c["metric"], c["statistic"]): f"{c['value']:.3f} [{c['low']:.3f}, {c['high']:.3f}]"
        for c in record["correlations"]
    }
    assert shown == want and len(want) == 6
    assert '<figure class="regression"><svg' in page and "mqm_system_scores.tsv" in page

    status, _, err = run(capfd, "report", *argv[:-2], "--names", "a", "b", "-o", str(out))
    assert status == 1 and "--names gives 2 names for 6 systems" in err


def test_one_system_and_ter_alone(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    status, _, err = run(
        capfd, "report", str(REF), "-i", str(SYSTEMS[0]), "-m", "ter", "-n", "20", "-o", str(out)
    )
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    # No pair to compare: no n-gram or diff section; the rest is there, TER's buckets open-ended.
    assert 'id="diff"' not in page and 'id="ngrams"' not in page and 'id="analyses"' in page
    assert "segments by sentence TER" in page and "&gt;=90" in page
    assert [row[0] for row in _rows(page, "rankings")] == ["1"]


def test_worst_segments_follow_the_metrics_direction(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # TER first (the report's first metric): the worst segments have the most edits, by sacrebleu.
    from sacrebleu.metrics import TER as SacreTER

    out = tmp_path / "report.html"
    args = ["report", str(REF), "-i", str(SYSTEMS[0]), "-m", "ter", "-n", "20", "-o", str(out)]
    status, _, err = run(capfd, *args)
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    hyps, refs = read_raw(SYSTEMS[0]), read_raw(REF)
    ter = SacreTER()
    scores = [ter.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    worst = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:5]
    assert "5 worst segments (the highest scores)" in page
    assert _rows(page, "segments")[:5] == [
        [str(i + 1), f"{scores[i]:.1f}", " ".join(hyps[i].split()), " ".join(refs[i].split())] for i in worst
    ]
    assert scores[worst[0]] > 100  # more edits than reference words: the lowest TER would be 0


@pytest.mark.parametrize("n_systems", [1, 2])
def test_progress_counts_every_step_to_the_total(n_systems: int) -> None:
    from understudy.report import build

    seen: list[tuple[int, int]] = []
    systems = [["x y z", "a b"], ["x y", "a b c"]][:n_systems]
    names = ["a", "b"][:n_systems]
    build(
        [BLEU(), CHRF()],
        names,
        systems,
        [["x y z", "a b c"]],
        "cmd",
        n=10,
        progress=lambda *s: seen.append(s),
    )
    steps = 2 + 2 + (n_systems > 1)  # two metrics, the systems' views, the buckets, the diff
    assert seen == [(k, steps) for k in range(1, steps + 1)]


def test_sentence_scores_are_score_sls_so_an_exact_copy_scores_100(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from sacrebleu import sentence_bleu
    from understudy.report import build

    # Short references, as TED's "Thank you." and "(Applause)": without effective order an
    # exact copy of one has no 4-gram and scored 0.0 in the report (issue 27, item 1).
    refs = ["Thank you .", "( Applause )", "The cat sat on the mat today .", "A dog ."]
    copy = list(refs)
    other = ["Thanks .", "( Laughter )", "The cat sat on a mat .", "The dog ."]
    report = build([BLEU()], ["copy", "other"], [copy, other], [refs], "understudy report", n=10)
    copy_view = next(v for v in report.systems if v.name == "copy")
    # Every one of its segments, worst first, at sacrebleu's sentence BLEU of an exact copy (100, to
    # the last bits of its float arithmetic).
    assert [s.score for s in copy_view.worst] == [
        sentence_bleu(r, [r]).score for r in sorted(refs, key=refs.index)
    ]
    assert {round(s.score, 9) for s in copy_view.worst} == {100.0}
    buckets = next(a.buckets for a in report.analyses if a.buckets.title.startswith("segments by"))
    assert buckets.values["copy"][-1] == len(refs)  # all in the top bucket
    assert report.pair is not None
    a_is_copy = report.pair.a == "copy"
    for row in report.pair.rows:
        i = row.number - 1
        score_copy, score_other = (row.score_a, row.score_b) if a_is_copy else (row.score_b, row.score_a)
        assert score_copy == sentence_bleu(copy[i], [refs[i]]).score and round(score_copy, 9) == 100.0
        assert score_other == sentence_bleu(other[i], [refs[i]]).score  # sacrebleu's sentence BLEU


def test_segment_human_scores_stand_beside_the_metrics(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    ted = (
        Path(os.environ.get("UNDERSTUDY_SHARED", REF.parents[3] / "shared")) / "data" / "wmt21-ted-zh-en-mqm"
    )
    if not (ted / "mqm_segment_scores.tsv").exists():
        pytest.skip(f"WMT21 TED data not found at {ted}")
    a, b, c = (str(ted / f"{name}.txt") for name in ("IIE-MT", "Online-W", "SMU"))
    out = tmp_path / "report.html"
    argv = [str(ted / "ref-B.txt"), "-i", a, b, c, "--human", str(ted / "mqm_segment_scores.tsv")]
    status, _, err = run(capfd, "report", *argv, "--pair", a, b, "-n", "50", "-o", str(out))
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    human: dict[str, dict[int, float]] = {}
    for line in (ted / "mqm_segment_scores.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        system, segment, score = line.split("\t")
        human.setdefault(system, {})[int(segment)] = float(score)
    rows = _rows(page, "diff-table")
    assert len(rows) == 529
    for row in rows[::23]:
        number = int(row[0])
        assert row[3:5] == [f"{human['IIE-MT'][number]:.2f}", f"{human['Online-W'][number]:.2f}"]
    worst = [r for r in _rows(page, "segments")]
    assert all(r[2] == f"{human[s][int(r[0])]:.2f}" for r, s in zip(worst[:5], ["IIE-MT"] * 5, strict=True))


def _three_copies(tmp_path: Path, names: list[str], sources: list[Path]) -> list[str]:
    paths = []
    for name, source in zip(names, sources, strict=True):
        path = tmp_path / f"{name}.txt"
        path.write_bytes(source.read_bytes())
        paths.append(str(path))
    return paths


def test_report_human_with_two_systems_is_refused_first(tmp_path: Path) -> None:
    ref, hyp = str(SAMPLE / "newstest2017.ref.en-de.de"), str(SAMPLE / "newstest2017.online-A.0.en-de.de")
    human = tmp_path / "h.tsv"
    human.write_text("a\t1\nb\t2\n")
    argv = [
        "report",
        ref,
        "-i",
        hyp,
        hyp,
        "--names",
        "a",
        "b",
        "--human",
        str(human),
        "-o",
        str(tmp_path / "r.html"),
    ]
    proc = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=60)
    assert (
        proc.returncode == 1 and "give 3 or more, not 2" in proc.stderr and not (tmp_path / "r.html").exists()
    )


def test_identical_systems_give_one_line_or_an_undefined_line(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    ref, hyp = SAMPLE / "newstest2017.ref.en-de.de", SAMPLE / "newstest2017.online-A.0.en-de.de"
    paths = _three_copies(tmp_path, ["a", "b", "c"], [hyp] * 3)
    human = tmp_path / "h.tsv"
    human.write_text("a\t1\nb\t2\nc\t3\n")
    common = [*CLI, "correlate", str(ref), "-i", *paths, "--human", str(human), "-n", "10"]
    paper = subprocess.run([*common, "--paper"], capture_output=True, text=True, timeout=120)
    assert paper.returncode == 1 and paper.stderr.endswith(
        "understudy: error: no regression on metric scores that are all equal (identical systems?)\n"
    )
    plot = subprocess.run(
        [*common, "--plot", str(tmp_path / "p.svg")], capture_output=True, text=True, timeout=120
    )
    assert (
        plot.returncode == 0 and "r undefined (all its scores are equal)" in (tmp_path / "p.svg").read_text()
    )


def test_names_are_plain_text_isolated_and_distinctly_coloured(tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    ref = SAMPLE / "newstest2017.ref.en-de.de"
    sources = [p for p in sorted(SAMPLE.glob("newstest2017.*.de")) if ".ref." not in p.name]
    names = ["a$x$", "b$", "\u202ec$\\frac{1}{0}$"]
    paths = _three_copies(tmp_path, names, sources)
    human = tmp_path / "h.tsv"
    human.write_text("".join(f"{n}\t{k}\n" for k, n in enumerate(names)))
    output = tmp_path / "r.html"
    argv = ["report", str(ref), "-i", *paths, "--human", str(human), "-o", str(output), "-n", "10"]
    proc = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr  # before: matplotlib's mathtext parser failed on the "$"
    page = output.read_text()
    # Before: the right-to-left override in a name swapped the (A)/(B) labels of the diff heading.
    # Shown by its short name (".txt", which all share, cut away), the full path in the tooltip.
    assert re.search(r'<bdi title="[^"]*">\u202ec\$\\frac\{1\}\{0\}\$</bdi> \([AB]\)', page)
    from understudy.report.figures import colours

    many = colours([f"s{k}" for k in range(45)])
    assert len(set(many.values())) == 45 and len(set(colours(["a", "b"]).values())) == 2


def test_the_report_page_is_bounded_at_any_corpus_size(tmp_path: Path) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    pytest.importorskip("scipy")
    paths = []
    for name in (
        "newstest2017.ref.en-de.de",
        "newstest2017.online-A.0.en-de.de",
        "newstest2017.uedin-nmt.4722.en-de.de",
    ):
        path = tmp_path / name
        path.write_bytes((SAMPLE / name).read_bytes() * 10)
        paths.append(str(path))
    n = 10 * len((SAMPLE / "newstest2017.ref.en-de.de").read_bytes().splitlines())
    output = tmp_path / "r.html"
    proc = subprocess.run(
        [*CLI, "report", paths[0], "-i", *paths[1:], "-o", str(output), "-n", "10"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    page = output.read_text(encoding="utf-8")
    # Before: every segment went into the diff (0.8 KB each: 24 MB here, 95 MB at 120k segments).
    assert len(page.encode()) < 5_000_000
    assert page.count("<tr data-delta=") == 1000
    assert f"1000 of {n} segments: the 500 with the largest differences" in page
    assert f"{n - 1000} are left out" in page


def test_the_diff_segments_are_chosen_by_difference_worst_and_sample() -> None:
    from understudy.report import diff_segments

    a = np.arange(1000.0)
    b = np.full(1000, 499.5)
    shown, how = diff_segments(a, b, True, 80, 7)
    assert len(shown) == 80 and shown == sorted(set(shown)) and "920 are left out" in how
    # The 40 largest |a - b| are the segments farthest from 499.5: 0..19 and 980..999.
    assert set(range(20)) | set(range(980, 1000)) <= set(shown)
    assert shown == diff_segments(a, b, True, 80, 7)[0]  # seeded: the same every run
    lower = diff_segments(a, b, False, 80, 7)[0]  # TER: A's worst are its highest scores
    assert set(range(990, 1000)) <= set(lower)


def test_a_report_of_a_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    name = os.fsencode(tmp_path) + b"/caf\xe9.txt"
    with open(name, "wb") as fh:
        fh.write(ONLINE_A.read_bytes())
    out = tmp_path / "r.html"
    argv = [
        b"report",
        os.fsencode(REF),
        b"-i",
        name,
        os.fsencode(UEDIN),
        b"-o",
        os.fsencode(out),
        b"-n",
        b"20",
    ]
    done = subprocess.run(
        [sys.executable.encode(), b"-m", b"understudy", *argv], capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert "caf\\xe9" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("megabytes", [60, 100, 150, 170, 220, 240, 250, 280, 350])
def test_a_report_short_of_memory_says_so_in_one_line(tmp_path: Path, megabytes: int) -> None:
    # Below what loading NumPy and the core takes (60-150 MB: OpenBLAS's own message, or
    # hashlib's traceback, before) the command says so itself, before loading them.
    import resource

    def capped() -> None:
        limit = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    argv = ["report", str(REF), "-i", str(ONLINE_A), str(UEDIN), "-o", str(tmp_path / "r.html"), "-n", "50"]
    done = subprocess.run(
        [sys.executable, "-m", "understudy", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=capped,
    )
    if done.returncode == 0:
        return  # enough for this report on this machine: nothing to say
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert done.stderr.startswith("understudy: error: out of memory"), done.stderr
    assert "extra" not in done.stderr and "OpenBLAS" not in done.stderr
    if megabytes < 192:
        assert f"capped at {megabytes} MB (ulimit -v); understudy needs 192 MB to start" in done.stderr


@pytest.mark.parametrize("metrics", [1, 3])
def test_the_interval_plot_shows_every_name_whole(metrics: int) -> None:
    # Before: the left margin was guessed from the names' lengths, and long ones
    # (017.uedin-nmt.4722.en-de.de) were cut at the figure's left edge.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot
    from understudy.report.overview import forest_figure
    from understudy.significance import all_pairs

    refs = [["the cat sat on the mat", "a dog barked", "it rains"] * 8]
    names = ["017.uedin-nmt.4722.en-de.de", "online-A.0", "W" * 48]
    texts = [refs[0], ["the cat sat", "a dog", "it rains"] * 8, ["cat", "dog", "rain"] * 8]
    stats = [BLEU().segment_stats(t, refs) for t in texts]
    ranking = all_pairs(stats, names, "bs", 50)
    figure = forest_figure([ranking] * metrics, {n: n for n in names}, pyplot)
    renderer = figure.canvas.get_renderer()
    labels = figure.axes[0].get_yticklabels()
    assert sorted(label.get_text() for label in labels) == sorted(names)
    for label in labels:
        box = label.get_window_extent(renderer)
        assert box.x0 >= 0 and box.x1 <= figure.bbox.width, label.get_text()
    pyplot.close(figure)
