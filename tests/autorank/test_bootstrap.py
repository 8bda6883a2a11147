"""AutoRank's certainty: resampled paragraphs, the same resample for every system and metric."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from understudy.autorank.bootstrap import certainty, resampled_ranks
from understudy.autorank.files import Paragraphs
from understudy.autorank.method import autorank
from understudy.autorank.wmt25 import PRESET
from understudy.errors import InputError

from tests.support.cli import run_cli
from tests.support.paths import WMT25_SCORES


@pytest.fixture
def czech(wmt25_scores: Any) -> Any:
    return wmt25_scores["en-cs_CZ"]


def test_each_resample_is_autorank_of_the_resampled_paragraphs(czech: Any) -> None:
    metrics = PRESET.metrics_for("en-cs_CZ")
    systems = list(czech)[:6]
    values = np.array([[[np.nan if v is None else v for v in czech[s][m]] for m in metrics] for s in systems])
    got = resampled_ranks(values, 3, seed=7)
    rng, count = np.random.default_rng(7), values.shape[2]
    for b in range(3):
        picked = rng.integers(0, count, count)  # the draws resampled_ranks makes, in its order
        table = {
            s: {m: float(np.nanmean(values[k, j, picked])) for j, m in enumerate(metrics)}
            for k, s in enumerate(systems)
        }
        want = autorank(table, metrics)
        assert got[:, b] == pytest.approx([want[s] for s in systems], abs=1e-12)


def test_deterministic_under_a_seed_and_the_intervals_hold_the_point(czech: Any) -> None:
    metrics = PRESET.metrics_for("en-cs_CZ")
    one, again = (certainty(czech, metrics, n=300, seed=3) for _ in range(2))
    assert one == again and certainty(czech, metrics, n=300, seed=4) != one
    assert [p.rank for p in one.systems] == list(range(1, len(czech) + 1))
    assert all(p.interval[0] <= p.autorank <= p.interval[1] for p in one.systems[1:])
    assert one.systems[0].interval == (1.0, 1.0)  # Shy is the best on every resample
    members = [name for cluster in one.clusters for name in cluster]
    assert members == [p.system for p in one.systems] and 1 < len(one.clusters) < len(czech)


def test_equal_systems_share_a_cluster_and_uneven_ones_are_refused() -> None:
    same: dict[str, Paragraphs] = {
        "a": {"m": [1.0, 2.0, 3.0, 2.5]},
        "b": {"m": [1.0, 2.0, 3.0, 2.5]},
        "c": {"m": [9.0, 8.0, 9.5, 8.5]},
    }
    found = certainty(same, ["m"], n=200, seed=1)
    assert found.clusters == (("c",), ("a", "b"))
    assert [p.rank_interval for p in found.systems] == [(1, 1), (2, 3), (2, 3)]
    with pytest.raises(InputError, match="different numbers of m paragraphs"):
        certainty({"a": {"m": [1.0]}, "b": {"m": [1.0, 2.0]}}, ["m"], n=10)


def test_the_command_line_states_the_method(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["autorank", str(WMT25_SCORES), "--pair", "en-bho_IN", "--bootstrap", "200", "--seed", "5"]
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    assert out.splitlines()[-1].startswith(
        "intervals: 200 bootstrap resamples of each pair's paragraphs (seed 5)"
    )
    assert out.splitlines()[2].split()[:6] == ["System", "AutoRank", "95%", "interval", "Rank", "rank"]
    status, out, _ = run_cli(capsys, *argv, "-f", "json")
    rows = json.loads(out)
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1)) and rows[0]["cluster"] == 1


def test_one_self_contained_page(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "autorank",
        str(WMT25_SCORES),
        "--pair",
        "en-bho_IN",
        "en-mas_KE",
        "--bootstrap",
        "100",
        "-f",
        "html",
    ]
    status, out, err = run_cli(capsys, *argv)
    assert status == 0, err
    assert out.startswith("<!DOCTYPE html>") and "default-src 'none'" in out  # asks for nothing
    assert out.count('<h2 id="') == 2 and '<h2 id="en-bho_IN">English-Bhojpuri (en-bho_IN)' in out
    assert '<td class="text">Gemini-2.5-Pro</td><td>1.0</td>' in out and "intervals: 100 bootstrap" in out
    assert "Made by understudy" in out and "from the given scores" in out
