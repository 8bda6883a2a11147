"""A computed metric added by one module and one registry line: a toy declared here, registered,
and run through ``score``, ``compare``, ``report`` and ``gate`` with no other edit.

The toy scores a segment by its length in characters over its reference's, times ``--toy-scale``;
every expected number is that arithmetic done here, apart from understudy.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from understudy.computed.metric import ComputedMetric, Item, Progress
from understudy.config import option
from understudy.registry import register, unregister
from understudy.registry.declarations import Computed, ComputedConfig

from tests.support.cli import run_cli, write_texts

# Twelve segments: the gate tests ten at least.
REF = ["the cat sat", "a dog", "birds fly south", "rain today"] * 3
SYSTEMS = {
    "long": ["the cat sat on it", "a big dog", "birds fly south now", "rain all day today"] * 3,
    "short": ["cat sat", "dog", "birds fly", "rain"] * 3,
}


@dataclass(frozen=True)
class ToyConfig(ComputedConfig):
    """The toy's own option."""

    scale: float = option(1.0, flags=("--toy-scale",), type=float, metavar="X", help="times X")

    cli_group = "toy metrics"


class LengthRatio(ComputedMetric):
    """A segment's length over its reference's, scaled."""

    kind = "toy-length-ratio"

    def __init__(self, scale: float, cache: str | None) -> None:
        super().__init__(cache=cache)
        self.scale = scale

    @property
    def name(self) -> str:
        return "LengthRatio"

    def computed_by(self) -> dict[str, str]:
        return {"model": "toy", "revision": f"scale-{self.scale}", "dtype": "-", "reference": "yes"}

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        assert reference is not None
        return (hypothesis, reference)

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        return [self.scale * len(h) / len(r) for h, r in items]


def _build(config: ToyConfig, pair: str | None) -> ComputedMetric:
    return LengthRatio(config.scale, config.cache)


TOY = Computed(
    "toy", "LengthRatio", ToyConfig, _build, inputs=("hypothesis", "reference"), score_range=(0.0, None)
)


def expected(system: str, scale: float = 1.0) -> float:
    ratios = [scale * len(h) / len(r) for h, r in zip(SYSTEMS[system], REF, strict=True)]
    return sum(ratios) / len(ratios)


@pytest.fixture(autouse=True)
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    register(TOY)
    yield
    unregister("toy")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return write_texts(tmp_path, {"ref": REF, **SYSTEMS})


def test_score_prints_the_toy_beside_bleu(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", files["ref"], "-i", files["long"], files["short"], "-m", "bleu", "toy"]
    status, out, err = run_cli(capsys, *argv, "--toy-scale", "2", "-w", "12")
    assert status == 0, err
    results = json.loads(out)
    assert [r["system"] for r in results] == [files["long"], files["short"]]
    toy = [r["LengthRatio"] for r in results]
    assert [r["score"] for r in toy] == pytest.approx([expected("long", 2), expected("short", 2)], abs=1e-12)
    assert "|model:toy|rev:scale-2.0|" in toy[0]["signature"]


def test_compare_ranks_by_the_toy(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", files["ref"], "-i", files["short"], files["long"], "-m", "toy", "-f", "json"]
    status, out, err = run_cli(capsys, *argv, "-n", "50")
    assert status == 0, err
    ranking = json.loads(out)["ranking"]
    assert [row["name"] for row in ranking] == [files["long"], files["short"]]
    assert [row["score"] for row in ranking] == pytest.approx(
        [expected("long"), expected("short")], abs=1e-12
    )


def test_report_has_a_toy_section(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "r.html"
    argv = ["report", files["ref"], "-i", files["long"], files["short"], "-m", "toy", "-o", str(page)]
    status, _, err = run_cli(capsys, *argv, "-n", "50")
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert "LengthRatio" in html
    assert f"{expected('long'):.4f}"[:5] in html


def test_gate_compares_by_the_toy(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["gate", files["ref"], "--baseline", files["long"], "--candidate", files["short"], "-m", "toy"]
    status, out, err = run_cli(capsys, *argv, "-f", "json")
    assert status in (0, 1), err
    (result,) = json.loads(out)["results"]
    assert result["metric"] == "LengthRatio"
    assert result["baseline"] == pytest.approx(expected("long"), abs=1e-12)
    assert result["candidate"] == pytest.approx(expected("short"), abs=1e-12)


def test_the_help_and_the_presets_know_the_toy(capsys: pytest.CaptureFixture[str]) -> None:
    from understudy.metrics.scores import preset

    status, out, _ = run_cli(capsys, "score", "--help")
    assert status == 0
    assert "toy metrics (-m toy)" in out and "--toy-scale X" in out
    assert preset("length-ratio") == ("LengthRatio", False, (0.0, None))


def test_a_taken_name_is_refused() -> None:
    with pytest.raises(ValueError, match="'comet' exists"):
        register(Computed("comet", "X", ToyConfig, _build))


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--toy-scale", "2"], "--toy-scale is read by -m toy, which -m does not ask for: ignored"),
        (["--comet-model", "x"], "--comet-model is read by -m comet, which -m does not ask for: ignored"),
        (["--judge-url", "http://127.0.0.1:9/v1"], "--judge-url is read by -m gemba-mqm esa, none of which"),
        (["--source", "src.txt"], "--source is read by computed metrics"),
    ],
)
def test_an_option_of_a_metric_not_asked_for_is_said_to_do_nothing(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], extra: list[str], said: str
) -> None:
    # Before: each was ignored without a word.
    argv = ["score", files["ref"], "-i", files["long"], "-m", "bleu", "-f", "json", *extra]
    with pytest.warns(UserWarning, match=said):
        status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    assert json.loads(out)["name"] == "BLEU"  # the run is BLEU's alone


def test_an_option_many_metrics_read_is_said_once(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], recwarn: pytest.WarningsRecorder
) -> None:
    argv = ["score", files["ref"], "-i", files["long"], "-m", "bleu", "--no-cache", "-f", "json"]
    status, _, err = run_cli(capsys, *argv)
    assert status == 0, err
    said = [str(w.message) for w in recwarn if "ignored" in str(w.message)]
    assert len(said) == 1, said
    readers = said[0].split(" is read by -m ")[1].split(",")[0].split()
    assert {"comet", "metricx", "gemba-mqm", "esa", "toy"} <= set(readers)


def test_an_option_of_a_metric_asked_for_says_nothing(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], recwarn: pytest.WarningsRecorder
) -> None:
    # --no-cache is every computed metric's: -m toy reads it, so no other metric's copy is "ignored".
    argv = ["score", files["ref"], "-i", files["long"], "-m", "toy", "--toy-scale", "3", "--no-cache"]
    status, out, err = run_cli(capsys, *argv, "-w", "12", "-f", "json")
    assert status == 0, err
    result = json.loads(out)
    assert result["name"] == "LengthRatio"
    assert result["score"] == pytest.approx(expected("long", 3), abs=1e-12)
    assert not [w for w in recwarn if "ignored" in str(w.message)]


def test_mbr_chooses_by_the_toy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lists = [["a bb", "a", "a bb ccc"], ["xy", "xyz w", "x"]]
    cands = tmp_path / "cands.txt"
    cands.write_text("".join(f"{c}\n" for hyps in lists for c in hyps), encoding="utf-8")
    status, out, err = run_cli(capsys, "mbr", "--candidates", str(cands), "-n", "3", "-m", "toy")
    assert status == 0, err
    # Each candidate's mean ratio against every candidate as its pseudo-reference.
    best = [max(hyps, key=lambda h: sum(len(h) / len(r) for r in hyps)) for hyps in lists]
    assert out.splitlines() == best


def test_the_site_shows_the_toy_as_kept(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger, site = str(tmp_path / "l.sqlite"), tmp_path / "site"
    argv = ["score", files["ref"], "-i", files["long"], files["short"], "-m", "toy", "--log"]
    status, _, err = run_cli(capsys, *argv, "--ledger", ledger)
    assert status == 0, err
    status, _, err = run_cli(capsys, "site", "--ledger", ledger, "-o", str(site))
    assert status == 0, err
    pages = "".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    assert "LengthRatio" in pages
    assert f"{expected('long'):.2f}" in pages


def test_the_library_builds_the_toy_as_the_command_line_does() -> None:
    from understudy.evaluation import Evaluation
    from understudy.execution.asked import metrics_asked

    made = metrics_asked({"metrics": ["toy", "bleu"], "toy_scale": 3.0}, SYSTEMS, [REF])
    assert [m.name for m in made] == ["BLEU", "LengthRatio"]
    evaluation = Evaluation(SYSTEMS, [REF])
    scores = evaluation.corpus_scores(made[1])
    assert [scores[s].score for s in SYSTEMS] == pytest.approx([expected(s, 3.0) for s in SYSTEMS], abs=1e-12)
