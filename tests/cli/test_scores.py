"""``--scores NAME=FILE`` on score, compare and correlate: every reader, matching systems, errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.stats
from understudy.errors import InputFileError
from understudy.inputs.score_files import detect_format, read_named_scores, read_system_scores
from understudy.metrics.scores import GivenScores

from tests.support.cli import run_cli, run_process, write_scores
from tests.support.paths import ONLINE_A, PROMT, REF, UEDIN

SYSTEMS = ["sysA.de", "sysB.de", "sysC.de"]


@pytest.fixture
def scores() -> dict[str, list[float]]:
    """Four-decimal scores (as comet-score prints), so that every format holds the same numbers."""
    rng = np.random.default_rng(8)
    return {s: [round(float(v), 4) for v in rng.random(30) * 0.5 + k * 0.2] for k, s in enumerate(SYSTEMS)}


def _write_formats(tmp: Path, scores: dict[str, list[float]]) -> dict[str, list[Path]]:
    """The same scores in every format understudy reads."""
    out: dict[str, list[Path]] = {}
    lines = [f"{s}\tSegment {i}\tscore: {v:.4f}" for s, vs in scores.items() for i, v in enumerate(vs)]
    lines += [f"{s}\tscore: {sum(vs) / len(vs):.4f}" for s, vs in scores.items()]
    (tmp / "comet.out").write_text("\n".join(lines) + "\n")
    out["comet"] = [tmp / "comet.out"]
    records = {s: [{"src": "x", "mt": "y", "ref": "z", "COMET": v} for v in vs] for s, vs in scores.items()}
    (tmp / "comet.json").write_text(json.dumps(records, indent=4))
    out["comet-json"] = [tmp / "comet.json"]
    table = ["system\tsegment\tscore"] + [
        f"{s}\t{i + 1}\t{v}" for s, vs in scores.items() for i, v in enumerate(vs)
    ]
    (tmp / "long.tsv").write_text("\n".join(table) + "\n")
    out["tsv"] = [tmp / "long.tsv"]
    csv = [f"{s},{i + 1},{v}" for s, vs in scores.items() for i, v in enumerate(vs)]
    (tmp / "long.csv").write_text("\n".join(csv) + "\n")
    out["csv"] = [tmp / "long.csv"]
    mme = [f"{s.split('.')[0]}\t{v}" for s, vs in scores.items() for v in vs]
    (tmp / "seg.score").write_text("\n".join(mme) + "\n")
    out["mt-metrics-eval"] = [tmp / "seg.score"]
    out["plain"], out["metricx"] = [], []
    for s, vs in scores.items():
        (tmp / f"{s}.txt").write_text("".join(f"{v}\n" for v in vs))
        out["plain"].append(tmp / f"{s}.txt")
        (tmp / f"{s}.jsonl").write_text(
            "".join(json.dumps({"id": i, "prediction": v}) + "\n" for i, v in enumerate(vs))
        )
        out["metricx"].append(tmp / f"{s}.jsonl")
    return out


@pytest.fixture
def texts(tmp_path: Path) -> tuple[Path, list[Path]]:
    ref = tmp_path / "ref.de"
    ref.write_text("".join(f"der Satz {i} ist hier\n" for i in range(30)))
    paths = []
    for k, s in enumerate(SYSTEMS):
        (tmp_path / s).write_text("".join(f"der Satz {i} {'ist' if k else 'war'} hier\n" for i in range(30)))
        paths.append(tmp_path / s)
    return ref, paths


@pytest.mark.parametrize("fmt", ["comet", "comet-json", "tsv", "csv", "mt-metrics-eval", "plain", "metricx"])
def test_every_format_gives_the_same_ranking_and_signature(
    fmt: str,
    scores: dict[str, list[float]],
    texts: tuple[Path, list[Path]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = _write_formats(tmp_path, scores)[fmt]
    ref, paths = texts
    argv = ["compare", str(ref), "-i", *map(str, paths), "--scores", *(f"COMET-22={f}" for f in files)]
    status, out, err = run_cli(capsys, *argv, "-f", "json", "-n", "200")
    assert status == 0, err
    record = json.loads(out)
    means = {s.name: math.fsum(vs) / len(vs) for s, vs in zip(paths, scores.values(), strict=True)}
    assert {Path(r["name"]).name: r["score"] for r in record["ranking"]} == pytest.approx(means, rel=1e-15)
    assert [Path(r["name"]).name for r in record["ranking"]] == ["sysC.de", "sysB.de", "sysA.de"]
    # The signature pins the configuration, never the data: every format, file and system signs alike.
    assert record["signature"] == (
        "metric:scores|bs:200|seed:12345|pvalue:at-least|name:COMET-22|dir:higher|range:..|prec:2^-64|"
        "version:understudy-0.1.0"
    )


def test_score_paired_bs_puts_given_scores_beside_bleu(
    scores: dict[str, list[float]],
    texts: tuple[Path, list[Path]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    comet = _write_formats(tmp_path, scores)["comet"][0]
    ref, paths = texts
    argv = ["score", str(ref), "-i", *map(str, paths), "-m", "bleu", "--scores", f"COMET-22={comet}"]
    status, out, err = run_cli(capsys, *argv, "--paired-bs", "-f", "json", "--paired-bs-n", "100")
    assert status == 0, err
    bleu, given = json.loads(out)
    assert bleu["signature"].startswith("nrefs:1|bs:100|") and given["signature"].startswith(
        "metric:scores|bs:100|"
    )
    assert given["baseline"]["score"] == pytest.approx(np.mean(scores["sysA.de"]), rel=1e-15)
    status, out, err = run_cli(capsys, *argv, "-f", "text", "-w", "1")
    assert status == 0, err
    row = next(line for line in out.splitlines() if line.startswith(str(paths[1])))
    assert row.split()[-1] == f"{np.mean(scores['sysB.de']):.3f}"  # 0..1: two more decimals


def test_scores_alone_name_the_systems_by_the_files(
    scores: dict[str, list[float]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = _write_formats(tmp_path, scores)
    status, out, err = run_cli(
        capsys,
        "compare",
        "--scores",
        *(f"MX={f}" for f in files["plain"]),
        "--scores-lower-is-better",
        "MX",
        "-f",
        "json",
        "-n",
        "100",
    )
    assert status == 0, err
    assert [r["name"] for r in json.loads(out)["ranking"]] == ["sysA.de", "sysB.de", "sysC.de"]
    status, out, err = run_cli(capsys, "score", "--scores", f"COMET={files['tsv'][0]}", "-f", "text")
    assert status == 0 and out.split("\n")[2].split()[-1] == f"{np.mean(scores['sysA.de']):.3f}"


def test_block_t_test_on_given_scores_is_scipys_ttest_rel(
    scores: dict[str, list[float]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tsv = _write_formats(tmp_path, scores)["tsv"][0]
    status, out, err = run_cli(
        capsys,
        "compare",
        "--scores",
        f"judge={tsv}",
        "--scores-higher-is-better",
        "judge",
        "--blocks",
        "30",
        "-f",
        "json",
    )
    assert status == 0, err
    for c in json.loads(out)["comparisons"]:
        want = scipy.stats.ttest_rel(scores[c["better"]], scores[c["worse"]])
        assert c["t"] == pytest.approx(want.statistic, rel=1e-9)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("0.5\n\n0.7\n", r"x:2: empty line; expected a score"),
        ("0.5\nnan\n", r"x:2: 'nan' is not a finite number"),
        ("0.5\nabc\n", r"x:2: 'abc' is not a number"),
        ("a\t1\t0.5\na\t3\t0.5\n", r"'a' has no score for segment 2"),
        ("a\t1\t0.5\na\t1\t0.6\n", r"x:2: segment 1 of 'a' has a score already"),
        ("a\t1\t0.5\nb\t1\t0.5\nb\t2\t0.5\n", r"'a' has 1 segment scores but 'b' has 2"),
        ("a\t0\t0.5\n", r"x:1: segment '0' is not a segment number"),
        (
            "f\tSegment 0\tscore: 0.5000\nf\tSegment 1\tscore: 0.7000\nf\tscore: 0.9000\n",
            "x:3: 'f''s mean 0.9",
        ),
        ("f\tSegment 0\tscore: 0.5000\nwhat\n", r"x:2: expected FILE<TAB>Segment i<TAB>score"),
        ('{"prediction": 1.0}\n{"id": 2}\n', r"x:2: expected a JSON object with a prediction"),
        ('{"a": [{"COMET": 0.5}, {"src": "s"}]}', r"'a', segment 1: expected an object with a COMET score"),
        ("a\t0.5\nb\t0.5\na\t0.5\n", r"'a' has 2 segment scores but 'b' has 1"),
        ("", "no scores"),
    ],
)
def test_readers_name_the_file_line_and_what_was_expected(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x"
    path.write_text(content)
    with pytest.raises(InputFileError, match=message):
        fmt = detect_format(content, "x") if content else None
        if fmt in ("plain", "metricx"):
            read_system_scores(path)
        else:
            read_named_scores(path)


def test_command_line_errors_are_one_line(
    scores: dict[str, list[float]],
    texts: tuple[Path, list[Path]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = _write_formats(tmp_path, scores)
    ref, paths = texts
    short = tmp_path / "short.txt"
    short.write_text("0.5\n" * 29)
    cases = [
        (
            ["compare", str(ref), "-i", *map(str, paths), "--scores", f"judge={files['tsv'][0]}"],
            "judge has no preset: say its direction with --scores-lower-is-better judge",
        ),
        (
            [
                "compare",
                str(ref),
                "-i",
                *map(str, paths[:2]),
                "--scores",
                f"COMET={files['plain'][0]}",
                f"COMET={short}",
            ],
            "short.txt: 29 COMET scores for ",
        ),
        (
            ["compare", str(ref), "-i", *map(str, paths), "--scores", f"COMET={files['plain'][0]}"],
            "1 score file(s) of one system each for 3 systems",
        ),
        (["compare", "--scores", f"COMET={files['tsv'][0]}", "-m", "bleu"], "give their files with -i"),
        (["compare", str(ref), "-i", *map(str, paths), "--scores", "COMET"], "--scores takes NAME=FILE"),
        (
            ["score", str(ref), "-i", str(paths[0]), "--scores", f"COMET={files['plain'][0]}", "-sl"],
            "--scores cannot be combined with -sl",
        ),
        (
            ["compare", str(ref), "-i", *map(str, paths), "--scores", f"COMET={tmp_path / 'none.txt'}"],
            "none.txt: cannot read",
        ),
    ]
    for argv, message in cases:
        status, _, err = run_cli(capsys, *argv)
        assert status != 0 and message in err and err.count("\n") == 1, (argv, err)


def test_correlate_takes_given_scores_at_segment_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(5)
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"the line {i}\n" for i in range(20)))
    names = ["a", "b", "c"]
    human, given = [], []
    for k, name in enumerate(names):
        (tmp_path / f"{name}.txt").write_text(
            "".join(f"the line {i if (i + k) % 3 else 0}\n" for i in range(20))
        )
        for seg in range(1, 21):
            h = float(rng.normal())
            human.append(f"{name}\t{seg}\t{h}")
            given.append((name, seg, h + float(rng.normal()) * 0.5))
    (tmp_path / "human.tsv").write_text("\n".join(human) + "\n")
    (tmp_path / "judge.tsv").write_text("".join(f"{n}\t{s}\t{v!r}\n" for n, s, v in given))
    argv = [
        "correlate",
        str(ref),
        "-i",
        *(str(tmp_path / f"{n}.txt") for n in names),
        "--human",
        str(tmp_path / "human.tsv"),
        "--level",
        "segment",
        "--scores",
        f"judge={tmp_path / 'judge.tsv'}",
        "--scores-higher-is-better",
        "judge",
        "-f",
        "json",
        "-n",
        "50",
    ]
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    record = json.loads(out)
    pearson = next(
        r for r in record["correlations"] if r["metric"] == "judge" and r["statistic"] == "pearson"
    )
    want = scipy.stats.pearsonr([v for _, _, v in given], [float(h.split("\t")[2]) for h in human])
    assert pearson["value"] == pytest.approx(want.statistic, rel=1e-12)
    assert record["metric_signatures"]["judge"].startswith("metric:scores|name:judge|dir:higher|")


def test_the_report_ranks_given_scores_in_their_own_range_and_direction(
    scores: dict[str, list[float]],
    texts: tuple[Path, list[Path]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    from tests.report.test_report import _Rankings

    comet = _write_formats(tmp_path, scores)["comet"][0]
    metricx = tmp_path / "metricx.tsv"
    metricx.write_text(
        "".join(f"{s}\t{i + 1}\t{25 * v}\n" for s, vs in scores.items() for i, v in enumerate(vs))
    )
    ref, paths = texts
    out = tmp_path / "report.html"
    argv = ["report", str(ref), "-i", *map(str, paths), "-m", "bleu", "--scores", f"COMET-22={comet}"]
    status, _, err = run_cli(capsys, *argv, f"MetricX-24={metricx}", "-n", "100", "-o", str(out))
    assert status == 0, err
    page = out.read_text(encoding="utf-8")
    parsed = _Rankings()
    parsed.feed(page)
    comet_rows = [r for r in parsed.rows if r[0] == "COMET-22"]
    means = {p.name: float(np.mean(v)) for p, v in zip(paths, scores.values(), strict=True)}
    # 0..1: four decimals where BLEU prints two; clusters by its own ranking (highest first).
    assert sorted((Path(r[2]).name, r[3]) for r in comet_rows) == sorted(
        (n, f"{m:.4f}") for n, m in means.items()
    )
    assert next(Path(r[2]).name for r in comet_rows if r[1] == 1) == "sysC.de"
    # MetricX: lower is better, so the best cluster is the system with the lowest mean.
    assert [Path(r[2]).name for r in parsed.rows if r[0] == "MetricX-24" and r[1] == 1] == ["sysA.de"]
    assert (
        'data-metric="MetricX-24" data-order="asc"' in page
        and 'data-metric="COMET-22" data-order="desc"' in page
    )
    # Per system a histogram of each metric, and the worst segments by each metric's direction.
    assert page.count('<figure class="histogram"><svg') == 3 * len(paths)
    assert page.count("worst segments by MetricX-24 (the highest scores)") == len(paths)
    assert page.count("worst segments by COMET-22 (the lowest scores)") == len(paths)
    # Buckets of sentence scores on the metric's own range.
    assert "segments by sentence COMET-22" in page and "<th>[0.9,1]</th>" in page
    assert "<th>[22.5,25]</th>" in page
    assert "name:COMET-22|dir:higher|range:..|prec:2^-64|version:" in page


def test_metric_scores_is_the_older_form_of_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"w{i} x y z\n" for i in range(6)))
    names = ["a", "b", "c"]
    for k, name in enumerate(names):
        (tmp_path / f"{name}.txt").write_text(
            "".join(f"w{i} x {'q' if i < 2 * k else 'y'} z\n" for i in range(6))
        )
    (tmp_path / "human.tsv").write_text("a\t-1.0\nb\t-2.5\nc\t-0.5\n")
    rng = np.random.default_rng(1)
    (tmp_path / "judge.tsv").write_text(
        "".join(f"{n}\t{s}\t{rng.random()!r}\n" for n in names for s in range(1, 7))
    )
    (tmp_path / "sys.tsv").write_text("a\t0.2\nb\t0.1\nc\t0.3\n")
    common = ["correlate", str(ref), "-i", *(str(tmp_path / f"{n}.txt") for n in names)]
    common += ["--human", str(tmp_path / "human.tsv"), "-f", "json", "-n", "50"]
    status, old, err = run_cli(
        capsys, *common, "--metric-scores", str(tmp_path / "judge.tsv"), str(tmp_path / "sys.tsv")
    )
    assert status == 0, err
    status, new, err = run_cli(
        capsys,
        *common,
        "-m",
        "bleu",
        "--scores",
        f"judge={tmp_path / 'judge.tsv'}",
        "--scores-higher-is-better",
        "judge",
    )
    assert status == 0, err
    old_record, new_record = json.loads(old), json.loads(new)
    # A file of every segment goes through the statistics (a signature); one of system scores as before.
    assert old_record["metric_signatures"]["judge"] == new_record["metric_signatures"]["judge"]
    values = {(r["metric"], r["statistic"]): r["value"] for r in old_record["correlations"]}
    assert values == {(r["metric"], r["statistic"]): r["value"] for r in new_record["correlations"]} | {
        ("sys", s): values[("sys", s)] for s in ("pearson", "spearman", "kendall-b")
    }


def test_given_scores_read_a_file_in_python(scores: dict[str, list[float]], tmp_path: Path) -> None:

    files = _write_formats(tmp_path, scores)
    comet = GivenScores.read(files["comet"][0], "COMET-22", systems=["sysB", "sysA.de"])
    assert comet.systems == ["sysB", "sysA.de"] and comet.config.source == "comet.out"
    assert comet.corpus_score("sysB").score == pytest.approx(math.fsum(scores["sysB.de"]) / 30, rel=1e-15)
    assert GivenScores.read(files["mt-metrics-eval"][0], lower_is_better=True).config.name == "seg"
    with pytest.raises(InputFileError, match="holds one system's scores"):
        GivenScores.read(files["plain"][0], "COMET")
    with pytest.raises(InputFileError, match="has no scores for system 'sysD'"):
        GivenScores.read(files["tsv"][0], "COMET", systems=["sysD"])


def test_a_given_name_that_clashes_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scores = write_scores(tmp_path / "s.txt", [0.5] * 3004)
    code, _, err = run_cli(
        capsys, "score", str(REF), "-i", str(ONLINE_A), "-m", "bleu", "--scores", f"BLEU={scores}"
    )
    assert code == 1 and "--scores BLEU clashes with -m bleu" in err
    argv = ["score", str(REF), "-i", str(ONLINE_A), "--scores", f"COMET={scores}", f"comet={scores}"]
    code, _, err = run_cli(capsys, *argv)
    assert code == 1 and "--scores comet clashes with --scores COMET" in err
    # Where no text is scored (correlate without -m), BLEU is a name like any other.
    argv = ["correlate", str(REF), "-i", str(ONLINE_A), str(UEDIN), str(PROMT), "--human", str(scores)]
    code, _, err = run_cli(capsys, *argv, "--scores", f"BLEU={scores}", f"BLEU={scores}", f"BLEU={scores}")
    assert "clashes with" not in err


def test_a_score_entry_two_systems_claim_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = []
    for run, source in (("run1", ONLINE_A), ("run2", PROMT)):
        (tmp_path / run).mkdir()
        runs.append(tmp_path / run / "out.de")
        runs[-1].write_bytes(source.read_bytes())
    table = tmp_path / "comet.tsv"
    table.write_text("".join(f"out.de\t{k + 1}\t0.5\n" for k in range(3004)), encoding="utf-8")
    argv = ["score", str(REF), "-i", *map(str, runs), "--scores", f"COMET-22={table}"]
    code, out, err = run_cli(capsys, *argv)
    assert code == 1 and out == "" and "would serve both" in err and str(runs[0]) in err
    # Keys that name the folders match their own systems only, in either order.
    rows = [
        f"{run}/out.de\t{k + 1}\t{value}\n"
        for run, value in (("run2", 0.25), ("run1", 0.75))
        for k in range(3004)
    ]
    table.write_text("".join(rows), encoding="utf-8")
    code, out, err = run_cli(capsys, *argv, "-f", "json")
    assert code == 0, err
    assert [(r["system"], r["COMET-22"]["score"]) for r in json.loads(out)] == [
        (str(runs[0]), 0.75),
        (str(runs[1]), 0.25),
    ]


def test_a_given_metric_prints_as_many_decimals_as_its_scale_needs(tmp_path: Path) -> None:
    a = write_scores(tmp_path / "a.txt", [0.512, 0.3, 0.7])
    b = write_scores(tmp_path / "b.txt", [0.498, 0.31, 0.69])
    argv = [
        "score",
        "--scores",
        f"judge={a}",
        f"judge={b}",
        "--scores-higher-is-better",
        "judge",
        "-f",
        "json",
    ]
    done = run_process(*argv)
    assert [r["score"] for r in json.loads(done.stdout)] == [round(1.512 / 3, 3), round(1.498 / 3, 3)]
    ranged = run_process(*argv, "--scores-range", "judge=0..100")
    records = json.loads(ranged.stdout)
    assert [r["score"] for r in records] == [0.5, 0.5] and records[0]["range"] == "0..100"
    wrong = run_process(*argv, "--scores-range", "judge=1-5")
    assert wrong.returncode == 1 and "takes LOW..HIGH" in wrong.stderr


def test_the_width_help_says_how_many_places_each_scale_prints() -> None:
    # -w counts a 0-100 score's places; the help names what the others get, as decimals() gives it.
    import re

    from understudy.files.tables import SCORE_WIDTH_HELP
    from understudy.metrics.bleu import BLEUConfig

    assert BLEUConfig().decimals(1) == 1 and "(default: 1)" in SCORE_WIDTH_HELP
    for label, more in (("COMET-22", 2), ("xCOMET", 2), ("CometKiwi", 2), ("MetricX-24", 1)):
        assert GivenScores({"A": [0.5, 0.7]}, label).config.decimals(1) == 1 + more, label
        said = re.search(rf"(\d) more on [^()]*\([^)]*\b{label.split('-')[0]}\b", SCORE_WIDTH_HELP)
        assert said is not None and int(said.group(1)) == more, label
