"""``-m comet`` on the command line: ``score`` and ``compare`` on a tiny checkpoint, the ledger
and the gate across checkpoints, and the one-line errors."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy.neural import COMET

import tests.support.neural_checkpoints as nc
from tests.support.cli import run_cli

ROWS = [{k: v.replace("\t", " ").rstrip() for k, v in s.items()} for s in nc.SAMPLES]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("cli")
    texts = {
        "src": [r["src"] for r in ROWS],
        "ref": [r["ref"] for r in ROWS],
        "a": [r["mt"] for r in ROWS],
        "b": [r["ref"] for r in ROWS][::-1],
        "c": [r["mt"].upper() for r in ROWS],
    }
    out = {}
    for name, lines in texts.items():
        out[name] = root / f"{name}.txt"
        out[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    out["model"] = nc.build_regression(root / "model", 1)
    out["metricx"] = nc.build_metricx(root / "metricx-24-tiny", 1)
    out["kiwi"] = nc.build_unified(root / "kiwi", 11)
    # The same folder name, other weights: told apart by the revision (the checkpoint's hash).
    out["other"] = nc.build_regression(root / "v2" / "model", 5)
    return out


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))


def _comet(files: dict[str, Path], *argv: str) -> list[str]:
    return [*argv, "--source", str(files["src"]), "--comet-model", str(files["model"])]


def test_score_prints_comet_beside_bleu(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    argv = _comet(
        files, "score", str(files["ref"]), "-i", str(files["a"]), str(files["b"]), "-m", "bleu", "comet"
    )
    with pytest.warns(UserWarning, match=r"COMET: 2 input\(s\) longer than the model's limit"):
        status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    results = json.loads(out)
    comet, bleu = [r["COMET"] for r in results], [r["BLEU"] for r in results]
    assert [r["system"] for r in results] == [str(files["a"]), str(files["b"])]
    assert all(r["name"] == "BLEU" for r in bleu)
    # The command line's numbers are the Python API's on the lines as read (right-stripped).
    metric = COMET(files["model"])
    src, ref = [r["src"] for r in ROWS], [r["ref"] for r in ROWS]
    for result, path in zip(comet, (files["a"], files["b"]), strict=True):
        hyps = path.read_text(encoding="utf-8").splitlines()
        # Printed to three decimals at -w 1, as every score on 0..1 is.
        assert result["score"] == round(metric.corpus_score(hyps, ref, sources=src).score, 3)
        assert "|model:model|rev:sha256-" in result["signature"]


def test_compare_ranks_by_comet(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    systems = [str(files[k]) for k in "abc"]
    status, out, err = run_cli(
        capsys, *_comet(files, "compare", str(files["ref"]), "-i", *systems, "-m", "comet")
    )
    assert status == 0, err
    assert "COMET (μ ± 95% CI)" in out and "BLEU" not in out
    assert "COMET signature: metric:scores|" in out


def test_gate_refuses_two_checkpoints(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger = str(tmp_path / "l.sqlite")
    for tag, model in (("A", files["model"]), ("B", files["other"])):
        argv = [
            "score",
            str(files["ref"]),
            "-i",
            str(files["a"]),
            "-m",
            "comet",
            "--source",
            str(files["src"]),
        ]
        status, _, err = run_cli(
            capsys, *argv, "--comet-model", str(model), "--log", "--ledger", ledger, "--tag", tag
        )
        assert status == 0, err
    status, _, err = run_cli(
        capsys, "gate", "--baseline", "tag:A", "--candidate", "tag:B", "--ledger", ledger
    )
    assert status == 2
    assert "differ in the signature's rev: sha256-" in err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "needs the source segments: --source FILE"),
        (["--source", "SRC_SHORT"], "has 3 lines but the references have 10"),
        (["--source", "SRC", "-t", "wmt17", "-l", "en-de"], "give reference files or -t NAME, not both"),
        (["--source", "SRC", "--comet-model", "/nonexistent/folder"], "no such folder"),
        (["--source", "SRC", "--precision", "fp8"], "invalid choice: 'fp8'"),
        (["--source", "SRC", "--batch-size", "0"], "expected a whole number from 1"),
    ],
)
def test_errors_are_one_line(
    files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    short = tmp_path / "short.txt"
    short.write_text("a\nb\nc\n", encoding="utf-8")
    names = {"SRC": str(files["src"]), "SRC_SHORT": str(short)}
    argv = ["score", str(files["ref"]), "-i", str(files["a"]), "-m", "comet"]
    argv += ["--comet-model", str(files["model"])] if "--comet-model" not in extra else []
    status, _, err = run_cli(capsys, *argv, *[names.get(x, x) for x in extra])
    assert status != 0
    assert message in err
    assert len(err.strip().splitlines()) == 1, err


def test_the_cache_command_counts_and_prunes(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = _comet(files, "score", str(files["ref"]), "-i", str(files["a"]), "-m", "comet")
    with pytest.warns(UserWarning):
        assert run_cli(capsys, *argv)[0] == 0
    status, out, _ = run_cli(capsys, "cache")
    assert status == 0 and out.startswith("10 neural segment scores, ")
    status, out, _ = run_cli(capsys, "cache", "--keep", "4")
    assert status == 0 and out.startswith("4 neural segment scores, ") and "(6 dropped)" in out
    # --no-cache neither reads nor writes it.
    with pytest.warns(UserWarning):
        assert run_cli(capsys, *argv, "--no-cache")[0] == 0
    assert run_cli(capsys, "cache")[1].startswith("4 neural segment scores, ")


def test_metricx_beside_comet_lower_is_better(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from understudy.neural import MetricX

    mx = ["--metricx-model", str(files["metricx"]), "--metricx-tokenizer", str(nc.MT5_TOKENIZER)]
    argv = _comet(
        files, "score", str(files["ref"]), "-i", str(files["a"]), str(files["c"]), "-m", "comet", "metricx"
    )
    with pytest.warns(UserWarning):
        status, out, err = run_cli(capsys, *argv, *mx, "--metricx-qe", "-f", "json", "-w", "4")
    assert status == 0, err
    results = json.loads(out)
    src = [r["src"] for r in ROWS]
    metric = MetricX(files["metricx"], tokenizer=nc.MT5_TOKENIZER, qe=True, cache=None, batch_size=16)
    for result, path in zip(results, (files["a"], files["c"]), strict=True):
        hyps = path.read_text(encoding="utf-8").splitlines()
        # -w 4 counts decimals on a 0..100 scale: on 0..25, 4 + 2 - floor(log10 25) = 5.
        assert result["MetricX-24-QE"]["score"] == round(
            metric.corpus_score(hyps, None, sources=src).score, 5
        )
        assert "|ref:no|dev:cpu|dir:lower|range:0..25|" in result["MetricX-24-QE"]["signature"]
    # compare's ranking puts the lower MetricX first.
    with pytest.warns(UserWarning):
        status, out, err = run_cli(
            capsys,
            *_comet(
                files, "compare", str(files["ref"]), "-i", str(files["a"]), str(files["c"]), "-m", "metricx"
            ),
            *mx,
            "-f",
            "json",
        )
    assert status == 0, err
    scores = [row["score"] for row in json.loads(out)["ranking"]]
    assert len(scores) == 2 and scores == sorted(scores)


def test_cometkiwi_reads_no_reference(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    from understudy.neural import CometKiwi

    argv = _comet(files, "score", str(files["ref"]), "-i", str(files["a"]), "-m", "cometkiwi")
    with pytest.warns(UserWarning):
        status, out, err = run_cli(capsys, *argv, "--cometkiwi-model", str(files["kiwi"]), "-w", "4")
    assert status == 0, err
    result = json.loads(out)
    hyps = files["a"].read_text(encoding="utf-8").splitlines()
    want = (
        CometKiwi(files["kiwi"], cache=None).corpus_score(hyps, None, sources=[r["src"] for r in ROWS]).score
    )
    assert result["score"] == round(want, 6)
    assert "|name:CometKiwi|model:kiwi|" in result["signature"] and "|ref:no|" in result["signature"]


def test_segment_scores_with_sl(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    argv = _comet(
        files, "score", str(files["ref"]), "-i", str(files["a"]), "-m", "comet", "-sl", "-b", "-w", "4"
    )
    with pytest.warns(UserWarning):
        status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    hyps = files["a"].read_text(encoding="utf-8").splitlines()
    want = COMET(files["model"], cache=None).sentence_scores(
        hyps, [r["ref"] for r in ROWS], sources=[r["src"] for r in ROWS]
    )
    assert out.split() == [f"{w:.6f}" for w in want]
    two = _comet(
        files, "score", str(files["ref"]), "-i", str(files["a"]), str(files["b"]), "-m", "comet", "-sl"
    )
    status, _, err = run_cli(capsys, *two)
    assert status != 0 and "takes one system" in err


def test_a_test_set_gives_the_source(
    files: dict[str, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # With -t the source comes with the test set: the score is the Python API's on its segments.
    from tests.support.testset_server import sgml
    from tests.support.twin_sets import TwinSet

    rows = [{k: " ".join(v.split()) for k, v in r.items()} for r in ROWS]
    docs = [({"docid": "d1", "genre": "news", "origlang": "en"}, len(rows))]
    sources, refs = [r["src"] for r in rows], [r["ref"] for r in rows]
    served = {"test/src.en.sgm": sgml(sources, docs), "test/ref.de.sgm": sgml(refs, docs, "refset")}
    TwinSet(tmp_path, monkeypatch, "wmt96", "wmt-sgml", served, {"en-de": list(served)})
    system = tmp_path / "a.txt"
    system.write_text("\n".join(r["mt"] for r in rows) + "\n", encoding="utf-8")
    argv = ["score", "-t", "wmt96", "-l", "en-de", "-i", str(system), "-m", "comet"]
    with pytest.warns(UserWarning, match=r"COMET: 2 input\(s\) longer"):
        status, out, err = run_cli(capfd, *argv, "--comet-model", str(files["model"]), "-w", "6")
    assert status == 0, err
    result = json.loads(out)
    want = COMET(files["model"], cache=None).corpus_score([r["mt"] for r in rows], refs, sources=sources)
    assert result["score"] == round(want.score, 8)  # -w 6: two more places on a 0..1 scale
    status, _, err = run_cli(capfd, *argv, "--comet-model", str(files["model"]), "--origlang", "en")
    assert status == 1 and "--origlang and --subset cannot filter it" in err


def test_a_damaged_cache_is_named_with_its_fix_and_cache_keep_0_replaces_it(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from understudy.computed.cache import default_path

    argv = _comet(files, "score", str(files["ref"]), "-i", str(files["a"]), "-m", "comet")
    with pytest.warns(UserWarning):
        assert run_cli(capsys, *argv)[0] == 0
    path = default_path()
    gc.collect()  # the run's connection closed, as at the end of its process
    for log in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        log.unlink(missing_ok=True)
    path.write_bytes(b"not a database, whatever it was" * 100)  # a disk's or a copy's damage
    for words in (argv, ["cache"], ["cache", "--keep", "4"]):
        status, _, err = run_cli(capsys, *words)
        # Before: "cannot be opened (file is not a database)", and --keep 0 failed the same way.
        assert status != 0 and err.count("\n") == 1, err
        assert f"{path}: the score cache is damaged (file is not a database)" in err
        assert "'understudy cache --keep 0' replaces it" in err
    status, out, _ = run_cli(capsys, "cache", "--keep", "0")
    assert status == 0 and out.startswith("0 neural segment scores, ")
    with pytest.warns(UserWarning):
        assert run_cli(capsys, *argv)[0] == 0
    assert run_cli(capsys, "cache")[1].startswith("10 neural segment scores, ")


def test_gate_takes_a_computed_metric_on_files(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from understudy.neural import COMET

    # Before: "-m comet: invalid choice", though the gate took COMET's kept records.
    argv = _comet(
        files, "gate", str(files["ref"]), "--baseline", str(files["a"]), "--candidate", str(files["c"])
    )
    with pytest.warns(UserWarning):
        status, out, err = run_cli(capsys, *argv, "-m", "bleu", "comet", "-f", "json")
    assert status in (0, 1), err
    results = json.loads(out)["results"]
    assert [r["metric"] for r in results] == ["BLEU", "COMET"]
    metric = COMET(files["model"], cache=None)
    refs, src = [r["ref"] for r in ROWS], [r["src"] for r in ROWS]
    for side in ("a", "c"):
        hyps = files[side].read_text(encoding="utf-8").splitlines()
        expected = metric.corpus_score(hyps, refs, sources=src).score
        assert abs(results[1]["baseline" if side == "a" else "candidate"] - expected) <= 1e-6
