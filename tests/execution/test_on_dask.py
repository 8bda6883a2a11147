"""Neural metrics on a Dask LocalCluster of 2 worker processes (CPU): the one-process numbers,
the models read on the workers (once each, never on the client), a worker killed mid-run, and
Ctrl-C keeping the chunks already back."""

from __future__ import annotations

import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")
pytest.importorskip("distributed", reason="the dask extra: pip install 'understudy-mt[dask]'")

from understudy.computed.cache import ScoreCache
from understudy.computed.metric import Item
from understudy.execution.on_dask import DaskRunner, worker_loads
from understudy.neural import COMET, XCOMET, MetricX
from understudy.neural.base import NeuralMetric
from understudy.neural.bertscore import BERTScore
from understudy.neural.bleurt import BLEURT
from understudy.neural.comet_poly import CometPoly

import tests.support.neural_checkpoints as nc
from tests.support.dask_cluster import two_workers
from tests.support.neural_checkpoints import MT, REF, SRC

SYSTEMS = {"A": MT, "B": [t.upper() for t in MT], "C": REF[::-1]}


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with two_workers() as connected:
        yield connected


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("dask-models")
    return {
        "comet": nc.build_regression(root / "comet", 1),
        "xcomet": nc.build_xcomet(root / "xcomet", 2),
        "metricx": nc.build_metricx(root / "metricx-24-tiny", 1),
        "bleurt": nc.build_bleurt(root / "bleurt"),
        "comet-poly": nc.build_comet_poly(root / "cand2", "cand2"),
        "bertscore": nc.build_bertscore(root / "bertscore"),
    }


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    # Several chunks, so that both workers score some (the default sends 64 inputs a task).
    monkeypatch.setattr(DaskRunner, "chunk", 4)


def _spans(metric: NeuralMetric) -> list[Any]:
    return [
        [(s["text"], s["severity"], s["start"], s["end"]) for s in json.loads(d)]
        for per in metric.details.values()
        for d in per
    ]


@pytest.mark.parametrize(
    ("name", "bound"),
    [("comet", 2e-6), ("xcomet", 2e-6), ("metricx", 5e-5), ("bleurt", 2e-6), ("comet-poly", 2e-6)],
)
def test_two_workers_give_the_one_process_numbers(
    client: Any, models: dict[str, Path], name: str, bound: float
) -> None:
    def made() -> NeuralMetric:
        if name == "metricx":
            return MetricX(models[name], tokenizer=nc.MT5_TOKENIZER, cache=None, batch_size=4)
        if name in ("bleurt", "comet-poly"):  # COMET-poly's candidates: the other systems'
            return (BLEURT if name == "bleurt" else CometPoly)(models[name], cache=None)
        return (COMET if name == "comet" else XCOMET)(models[name], cache=None)

    alone = made()
    here = alone.system_scores(SYSTEMS, REF, SRC)
    spread = made()
    with spread.running_on(DaskRunner(client)) as there_on_the_cluster:
        there = spread.system_scores(SYSTEMS, REF, SRC)
    assert there_on_the_cluster
    assert there.config.signature_pairs() == here.config.signature_pairs()  # model, rev, dtype, dev
    for system in SYSTEMS:
        difference = abs(there.sentence_scores(system) - here.sentence_scores(system)).max()
        assert difference <= bound, (system, difference)
    if name == "xcomet":
        assert _spans(spread) == _spans(alone)
    # The workers read the model; the client never did.
    assert getattr(spread, "_model", None) is None
    assert sum(client.run(worker_loads).values()) >= 1


def test_bertscore_takes_its_idf_weights_to_the_workers(client: Any, models: dict[str, Path]) -> None:
    samples = nc.bertscore_fixture()["samples"]
    hyps, refs = samples["hyps"][:30], samples["refs"][:30]
    systems = {"A": hyps, "B": refs[::-1]}
    here = BERTScore(models["bertscore"], num_layers=1, idf=True, cache=None, device="cpu").system_scores(
        systems, refs, None
    )
    spread = BERTScore(models["bertscore"], num_layers=1, idf=True, cache=None, device="cpu")
    with spread.running_on(DaskRunner(client)) as on_the_cluster:
        there = spread.system_scores(systems, refs, None)
    assert on_the_cluster and spread._model is None  # the workers read the model, the client never did
    assert there.config.signature_pairs() == here.config.signature_pairs()
    for system in systems:
        assert abs(there.sentence_scores(system) - here.sentence_scores(system)).max() <= 2e-7


def test_a_worker_killed_mid_run_costs_only_its_chunk(
    client: Any, models: dict[str, Path], tmp_path: Path
) -> None:
    class KillingOne(DaskRunner):
        def __call__(self, metric: NeuralMetric, missing: list[Item]) -> Iterator[Any]:
            for k, back in enumerate(super().__call__(metric, missing)):
                if k == 0:  # a worker still holding chunks dies (its nanny starts another)
                    busy = [w for w, keys in self.client.processing().items() if keys]
                    if busy:
                        (pid,) = self.client.run(os.getpid, workers=busy[:1]).values()
                        os.kill(pid, signal.SIGKILL)
                        killed.append(pid)
                yield back

    killed: list[int] = []
    alone = COMET(models["comet"], cache=None).system_scores(SYSTEMS, REF, SRC)
    metric = COMET(models["comet"], cache=tmp_path / "c.sqlite")
    with metric.running_on(KillingOne(client)):
        scores = metric.system_scores(SYSTEMS, REF, SRC)
    for system in SYSTEMS:
        assert abs(scores.sentence_scores(system) - alone.sentence_scores(system)).max() <= 2e-6
    assert killed and ScoreCache(tmp_path / "c.sqlite").stats().entries == metric.computed


def test_ctrl_c_keeps_every_chunk_already_back(client: Any, models: dict[str, Path], tmp_path: Path) -> None:
    back = [0]

    def interrupt_after_the_first(count: int) -> None:
        back[0] += count
        raise KeyboardInterrupt

    cache = tmp_path / "c.sqlite"
    metric = COMET(models["comet"], cache=cache)
    with metric.running_on(DaskRunner(client)), pytest.raises(KeyboardInterrupt):
        metric.system_scores(SYSTEMS, REF, SRC, progress=interrupt_after_the_first)
    kept = ScoreCache(cache).stats().entries
    # The chunk back (any of them: the last holds the remainder), kept before the interruption.
    assert kept == back[0] and 1 <= kept <= DaskRunner.chunk
    again = COMET(models["comet"], cache=cache)
    with again.running_on(DaskRunner(client)):
        again.system_scores(SYSTEMS, REF, SRC)
    assert again.computed == metric.computed - kept


def _files(tmp_path: Path) -> dict[str, str]:
    texts = {"src": SRC, "ref": REF, "a": MT, "b": [t.upper() for t in MT]}
    for name, lines in texts.items():
        (tmp_path / name).write_text("\n".join(t.replace("\n", " ") for t in lines) + "\n", encoding="utf-8")
    return {name: str(tmp_path / name) for name in texts}


def test_the_commands_take_dask_with_neural_metrics(
    client: Any,
    models: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.support.cli import run_cli

    monkeypatch.setenv("UNDERSTUDY_CACHE", str(tmp_path / "cache"))
    f = _files(tmp_path)
    models_given = ["--comet-model", str(models["comet"]), "--xcomet-model", str(models["xcomet"])]
    argv = ["score", f["ref"], "-i", f["a"], f["b"], "--source", f["src"], "-m", "comet", "xcomet"]
    argv += [*models_given, "-f", "json", "-w", "6", "--no-cache"]
    status, alone, err = run_cli(capsys, *argv)
    assert status == 0, err
    # On this CPU machine, why it is no faster; no dashboard line, nor distributed's chatter.
    with pytest.warns(UserWarning, match="no GPU here.*cannot be faster than without --dask"):
        status, local, err = run_cli(capsys, *argv, "--dask", "local")
    assert status == 0, err
    assert "dashboard" not in err and "still alive" not in err, err
    for there, here in zip(json.loads(local), json.loads(alone), strict=True):
        for metric in ("COMET", "xCOMET"):
            assert there[metric]["signature"] == here[metric]["signature"]
            assert abs(there[metric]["score"] - here[metric]["score"]) <= 2e-6
    address = client.scheduler.address
    compare = ["compare", f["ref"], "-i", f["a"], f["b"], "--source", f["src"], "-m", "comet", *models_given]
    status, out, err = run_cli(capsys, *compare, "--no-cache", "--dask", address)
    assert status == 0 and "COMET" in out, err
    gate = [
        "gate",
        f["ref"],
        "--baseline",
        f["a"],
        "--candidate",
        f["b"],
        "--source",
        f["src"],
        "-m",
        "comet",
    ]
    status, out, err = run_cli(capsys, *gate, *models_given, "--no-cache", "--dask", address, "-f", "json")
    assert status in (0, 1) and json.loads(out)["results"][0]["metric"] == "COMET", err
