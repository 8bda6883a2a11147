"""A text family added by one module and one registry line: this module is the family (its
configuration, arithmetic, result, statistics and metric object, ending with its ``FAMILY``),
:func:`~understudy.registry.register_family` is the line, and ``score``, ``compare``,
``report``, ``gate``, ``mbr`` and ``site`` take it with no other edit.

The toy, Overlap, is the share of words two sides have in common, over the longer side (in
percent); it counts with GLEU's statistics at order 1 (``core_family``), so it needs no Rust
of its own. Every expected number is that arithmetic done here with :class:`collections.Counter`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from numpy.typing import NDArray
from understudy.config import TextConfig, check_bool, option
from understudy.metric import Metric
from understudy.registry import Family, register_family, unregister_family
from understudy.result import Result
from understudy.signature import Signature
from understudy.stats import Stats

from tests.support.cli import run_cli, write_texts

# -- the family's module ------------------------------------------------------------------------


@dataclass(frozen=True)
class OverlapConfig(TextConfig):
    """The toy's configuration: words as given, optionally lowercased."""

    metric: ClassVar[str] = "overlap"
    title: ClassVar[str] = "Overlap"
    core_family: ClassVar[str] = "gleu"
    cli_group: ClassVar[str | None] = "Overlap (-m overlap; a test's toy family)"

    lowercase: bool = option(
        False, flags=("--overlap-lowercase",), help="lowercase first", key="case", text=("lc", "mixed")
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        check_bool(self, "lowercase")

    @property
    def row_width(self) -> int:
        return 2

    def core_config(self) -> dict[str, Any]:
        return {"tokenizer": "none", "lowercase": self.lowercase, "min_order": 1, "max_order": 1}


def score_overlap_rows(rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.float64]:
    rows = np.atleast_2d(np.asarray(rows)).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(rows[:, 1] == 0, 0.0, 100.0 * rows[:, 0] / rows[:, 1])


@dataclass(frozen=True)
class OverlapResult(Result):
    score: float
    signature: Signature

    def numbers(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True, eq=False)
class OverlapStats(Stats[OverlapConfig, OverlapResult]):
    metric: ClassVar[str] = "overlap"

    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        return score_overlap_rows(rows, float32)

    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[OverlapResult]:
        scores = score_overlap_rows(rows)
        return [OverlapResult(float(s), sig) for s, sig in zip(scores, signatures, strict=True)]

    @classmethod
    def impossible(cls, total: NDArray[np.int64]) -> str | None:
        matches, longer = (int(v) for v in total)
        return None if 0 <= matches <= longer else f"matches ({matches}) exceed the longer side ({longer})"


class Overlap(Metric[OverlapStats, OverlapResult]):
    stats_type = OverlapStats
    config_type = OverlapConfig
    config: OverlapConfig

    def __init__(self, lowercase: bool = False, references: Any = None, threads: int | None = None) -> None:
        self._setup(OverlapConfig(lowercase), references, threads)


FAMILY = Family(config=OverlapConfig, stats=OverlapStats, metric=Overlap)

# -- the tests -----------------------------------------------------------------------------------

# Twelve segments: the gate tests ten at least.
REF = ["the cat sat", "a dog ran far", "birds fly south", "rain today"] * 3
SYSTEMS = {
    "close": ["the cat sat down", "a dog ran", "birds fly south", "rain today"] * 3,
    "far": ["cat", "the dog", "fly north", "snow tomorrow"] * 3,
}


def counts(hyp: str, ref: str) -> tuple[int, int]:
    h, r = hyp.split(), ref.split()
    return sum((Counter(h) & Counter(r)).values()), max(len(h), len(r))


def expected(hyps: Sequence[str], refs: Sequence[str] = REF) -> float:
    pairs = [counts(h, r) for h, r in zip(hyps, refs, strict=True)]
    matched, longer = sum(m for m, _ in pairs), sum(n for _, n in pairs)
    return 100.0 * matched / longer


@pytest.fixture(autouse=True)
def overlap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    register_family(__name__)
    yield
    unregister_family("overlap")


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    return write_texts(tmp_path, {"ref": REF, **SYSTEMS})


def test_the_arithmetic_here_is_what_the_toy_computes() -> None:
    assert counts("the cat sat down", "the cat sat") == (3, 4)
    assert Overlap().corpus_score(SYSTEMS["close"], [REF]).score == pytest.approx(expected(SYSTEMS["close"]))
    assert Overlap(lowercase=True).sentence_score("The Cat", ["the cat"]).score == 100.0
    assert Overlap().sentence_score("The Cat", ["the cat"]).score == 0.0


def test_score_prints_the_toy_beside_bleu(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["score", files["ref"], "-i", files["close"], files["far"], "-m", "bleu", "overlap"]
    status, out, err = run_cli(capsys, *argv, "-w", "12", "-f", "json")
    assert status == 0, err
    results = json.loads(out)
    toy = [r["Overlap"] for r in results]
    assert [r["score"] for r in toy] == pytest.approx([expected(SYSTEMS[s]) for s in SYSTEMS], abs=1e-9)
    assert toy[0]["signature"].startswith("metric:overlap|nrefs:1|case:mixed|")


def test_the_toys_option_changes_its_signature(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["score", files["ref"], "-i", files["close"], "-m", "overlap", "--overlap-lowercase", "-f", "json"]
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    assert "|case:lc|" in json.loads(out)["signature"]


def test_compare_ranks_by_the_toy(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["compare", files["ref"], "-i", files["far"], files["close"], "-m", "overlap", "-f", "json"]
    status, out, err = run_cli(capsys, *argv, "-n", "50")
    assert status == 0, err
    ranking = json.loads(out)["ranking"]
    assert [row["name"] for row in ranking] == [files["close"], files["far"]]
    assert ranking[0]["score"] == pytest.approx(expected(SYSTEMS["close"]), abs=1e-9)


def test_report_ranks_by_the_toy(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "r.html"
    argv = ["report", files["ref"], "-i", files["close"], files["far"], "-m", "overlap", "-o", str(page)]
    status, _, err = run_cli(capsys, *argv, "-n", "50")
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert "metric:overlap|" in html and "|case:mixed|" in html
    assert f"{expected(SYSTEMS['close']):.1f}" in html


def test_gate_compares_by_the_toy(files: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["gate", files["ref"], "--baseline", files["close"], "--candidate", files["far"], "-m", "overlap"]
    status, out, err = run_cli(capsys, *argv, "-f", "json")
    assert status in (0, 1), err
    (result,) = json.loads(out)["results"]
    assert result["metric"] == "Overlap"
    assert result["baseline"] == pytest.approx(expected(SYSTEMS["close"]), abs=1e-9)
    assert result["candidate"] == pytest.approx(expected(SYSTEMS["far"]), abs=1e-9)


def test_mbr_chooses_by_the_toy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lists = [["a b c", "a b", "x y"], ["p q", "p q r s", "q r"]]
    cands = tmp_path / "cands.txt"
    cands.write_text("".join(f"{c}\n" for hyps in lists for c in hyps), encoding="utf-8")
    status, out, err = run_cli(capsys, "mbr", "--candidates", str(cands), "-n", "3", "-m", "overlap")
    assert status == 0, err

    # Each candidate's mean overlap with every candidate as its pseudo-reference (itself too).
    def utility(h: str, hyps: list[str]) -> float:
        return sum(100.0 * m / n for m, n in (counts(h, r) for r in hyps))

    best = [max(hyps, key=lambda h: utility(h, hyps)) for hyps in lists]
    assert out.splitlines() == best


def test_the_site_shows_the_toy_as_kept(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ledger, site = str(tmp_path / "l.sqlite"), tmp_path / "site"
    argv = ["score", files["ref"], "-i", files["close"], files["far"], "-m", "overlap", "--log"]
    status, _, err = run_cli(capsys, *argv, "--ledger", ledger)
    assert status == 0, err
    status, _, err = run_cli(capsys, "site", "--ledger", ledger, "-o", str(site))
    assert status == 0, err
    pages = "".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    assert "Overlap" in pages
    assert f"{expected(SYSTEMS['close']):.2f}" in pages


def test_the_help_lists_the_toy(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "score", "--help")
    assert status == 0
    assert "Overlap (-m overlap" in out and "--overlap-lowercase" in out


def test_the_library_builds_the_toy_as_the_command_line_does() -> None:
    from understudy.execution.asked import metrics_asked
    from understudy.metrics import FAMILIES, family_titles

    made = metrics_asked({"metrics": ["overlap", "bleu"], "overlap_lowercase": True}, SYSTEMS, [REF])
    assert [m.name for m in made] == ["BLEU", "Overlap"]  # the registry's order, as sacrebleu's
    assert isinstance(made[1], Overlap) and made[1].config == OverlapConfig(lowercase=True)
    assert "overlap" in FAMILIES and family_titles().endswith(" and Overlap")


def test_a_taken_family_name_is_refused() -> None:
    with pytest.raises(ValueError, match="'overlap' exists"):
        register_family(__name__)


def test_unregistering_forgets_the_family() -> None:
    from understudy.metrics import FAMILIES

    unregister_family("overlap")
    assert "overlap" not in FAMILIES
    register_family(__name__)  # the fixture's unregister finds it again
