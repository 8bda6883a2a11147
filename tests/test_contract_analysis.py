"""The contract beyond ``score``, driven by generated inputs (issue 26): the human-score readers,
the accumulator's states, ``correlate`` and ``report``.

A reader either reads finite scores or raises an ``UnderstudyError`` naming the file; a state
either reads back to a score in the metric's range or is refused; a command either exits 0 or
prints one line and exits non-zero, whatever the files hold and however the systems are named.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from understudy import BLEU, CHRF, TER, Totals
from understudy.accumulator import Accumulator
from understudy.correlation import read_human
from understudy.errors import UnderstudyError

from tests.support.cli import run_cli

FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

NAMES = st.sampled_from(
    ["A", "B", "sys-1", "a b", "x$y$", "\u202eevil", "\u4e2d", "tab\there", "\x1b[31m", "1"]
)
NUMBERS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["", "x", "1e999", "-0", "nan", "3,5", " 2 "]),
)
SEGMENTS = st.one_of(st.integers(-2, 6).map(str), st.sampled_from(["", "1.5", "01", "x"]))


def _tsv_rows(width: int) -> st.SearchStrategy[str]:
    cell = st.one_of(NAMES, NUMBERS, SEGMENTS)
    return st.lists(st.lists(cell, min_size=width, max_size=width).map("\t".join), max_size=8).map("\n".join)


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=False), NAMES),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(NAMES, inner, max_size=4)),
    max_leaves=12,
)
HUMAN_FILES = st.one_of(
    _tsv_rows(2),
    _tsv_rows(3),
    st.integers(1, 4).flatmap(_tsv_rows),
    JSON_VALUES.map(json.dumps),
    st.dictionaries(NAMES, st.dictionaries(SEGMENTS, st.floats(-5, 5), max_size=3), max_size=4).map(
        json.dumps
    ),
    st.text(max_size=60),
)


@settings(max_examples=300, deadline=None, suppress_health_check=FIXTURES)
@given(text=HUMAN_FILES, header=st.booleans())
def test_a_human_file_reads_to_finite_scores_or_a_named_error(
    text: str, header: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    path = tmp_path_factory.mktemp("human") / "human.tsv"
    path.write_text(("system\tscore\n" if header else "") + text, encoding="utf-8", errors="surrogatepass")
    try:
        human = read_human(path)
    except UnderstudyError as err:
        assert str(path) in str(err) and "\n" not in str(err).strip()
        return
    assert human.system and all(math.isfinite(v) for v in human.system.values())
    for scores in human.segments.values():
        assert all(segment >= 1 and math.isfinite(v) for segment, v in scores.items())


METRICS: list[Any] = [BLEU(), BLEU(max_ngram_order=2), CHRF(), CHRF(char_order=2, word_order=0), TER()]


def _states() -> st.SearchStrategy[tuple[int, Any]]:
    """A metric (by index) and something offered as its state: a real state, a real state changed
    at one entry, a sum of real states, another metric's state, or junk."""

    def real(k: int) -> np.ndarray:
        state: np.ndarray = (
            METRICS[k].segment_stats(["the cat sat on the mat"], [["a cat sat on a mat"]]).totals().state
        )
        return state

    def changed(k: int, entry: int, value: Any) -> Any:
        state: list[Any] = real(k).tolist()
        state[entry % len(state)] = value
        return state

    index = st.integers(0, len(METRICS) - 1)
    values = st.one_of(st.integers(-(2**64), 2**64), st.floats(), st.sampled_from(["1", None, True, [1]]))
    return st.one_of(
        index.map(lambda k: (k, real(k))),
        st.tuples(index, st.integers(0, 40), values).map(lambda t: (t[0], changed(*t))),
        st.tuples(index, st.integers(1, 5)).map(lambda t: (t[0], real(t[0]) * t[1])),
        st.tuples(index, index).map(lambda t: (t[0], real(t[1]))),
        st.tuples(index, st.lists(st.integers(-3, 2**63), max_size=20)),
    )


@settings(max_examples=400, deadline=None)
@given(offered=_states())
def test_a_state_reads_back_to_a_score_in_range_or_is_refused(offered: tuple[int, Any]) -> None:
    k, state = offered
    metric = METRICS[k]
    try:
        acc = Accumulator.from_state(metric, state)
    except UnderstudyError:
        return
    low, high = metric.config.score_range
    if acc.n_segments:
        score = acc.compute().score
        assert math.isfinite(score) and low <= score and (high is None or score <= high), (state, score)
    merged = Accumulator.from_state(metric, acc.state)
    assert merged.totals.total.tolist() == acc.totals.total.tolist()
    assert len(Totals.from_state(metric.config, acc.state).total) == metric.config.row_width


SENTENCES = st.lists(
    st.sampled_from(["the cat", "a cat sat", "the mat .", "", "\u4e2d \u6587"]), min_size=3, max_size=3
)


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURES)
@given(
    names=st.lists(NAMES, min_size=2, max_size=4, unique=True),
    systems=st.lists(SENTENCES, min_size=4, max_size=4),
    human=HUMAN_FILES,
    level=st.sampled_from(["system", "segment"]),
    extra=st.sampled_from([[], ["--paper"], ["--compare"], ["-f", "json"], ["--statistics", "kendall-wmt"]]),
)
def test_correlate_keeps_the_contract(
    names: list[str],
    systems: list[list[str]],
    human: str,
    level: str,
    extra: list[str],
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder = tmp_path_factory.mktemp("correlate")
    ref = folder / "ref.txt"
    ref.write_text("the cat sat\na mat .\nthe cat\n", encoding="utf-8")
    paths = []
    for k in range(len(names)):
        path = folder / f"{k}.txt"
        path.write_text("\n".join(systems[k]) + "\n", encoding="utf-8")
        paths.append(str(path))
    scores = folder / "human.tsv"
    scores.write_text(human, encoding="utf-8", errors="surrogatepass")
    argv = ["correlate", str(ref), "-i", *paths, "--names", *names, "--human", str(scores)]
    status, out, err = run_cli(capsys, *argv, "--level", level, "-n", "20", *extra)
    _one_line_or_success(status, out, err)


@settings(max_examples=12, deadline=None, suppress_health_check=FIXTURES)
@given(
    names=st.lists(NAMES, min_size=1, max_size=3, unique=True),
    systems=st.lists(SENTENCES, min_size=3, max_size=3),
    with_human=st.booleans(),
)
def test_report_keeps_the_contract(
    names: list[str],
    systems: list[list[str]],
    with_human: bool,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("jinja2")
    pytest.importorskip("matplotlib")
    folder = tmp_path_factory.mktemp("report")
    ref = folder / "ref.txt"
    ref.write_text("the cat sat\na mat .\nthe cat\n", encoding="utf-8")
    paths = []
    for k, name in enumerate(names):
        # The names are the files' names: what the report shows and the plots draw.
        path = folder / f"{name.replace('/', '_')}.txt"
        path.write_text("\n".join(systems[k]) + "\n", encoding="utf-8")
        paths.append(str(path))
    argv = ["report", str(ref), "-i", *paths, "-o", str(folder / "r.html"), "-n", "20"]
    if with_human:
        human = folder / "human.tsv"
        human.write_text("".join(f"{n}\t{k}\n" for k, n in enumerate(names)), encoding="utf-8")
        argv += ["--human", str(human), "--names", *names]
    status, out, err = run_cli(capsys, *argv)
    _one_line_or_success(status, out, err)
    if status == 0:
        page = (folder / "r.html").read_text(encoding="utf-8")
        assert page.endswith("</html>\n") or page.endswith("</html>")
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # no temporary file left


def _one_line_or_success(status: int, out: str, err: str) -> None:
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if not line.startswith("understudy: warning: ")]
    if status != 0:
        assert len(errors) == 1 and errors[0].startswith("understudy: error: "), err
        assert out == ""
        return
    assert all(line.startswith("understudy: ") for line in errors), err
