"""understudy.execution.dask on a LocalCluster of 2 worker processes: single-machine numbers,
any partitioning."""

from __future__ import annotations

import contextlib
import gc
import itertools
import random
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the dask extra is not installed")

import dask
import dask.bag as db
import dask.dataframe as dd
import pandas as pd
import pytest
from distributed import Client, LocalCluster
from understudy import BLEU, BLEUConfig, CHRFConfig
from understudy.config import MetricConfig
from understudy.errors import (
    EmptyInputError,
    LengthMismatchError,
    MissingExtraError,
    UnderstudyError,
)
from understudy.execution import dask as ud
from understudy.execution.cluster import Chunks
from understudy.metrics import metric_for
from understudy.significance import paired_test

from tests.support.cli import run_cli
from tests.support.families import examples
from tests.support.paths import ONLINE_A, SAMPLE

CONFIGS: list[MetricConfig] = examples(first=2)


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, Client(cluster) as c:
        yield c


@pytest.fixture(scope="module")
def corpus(
    wmt17_ref: list[str], wmt17_systems: dict[str, list[str]]
) -> tuple[list[str], list[list[str | None]]]:
    """400 segments, one to three references (None where a segment has fewer)."""
    n = 400
    second = [r if k % 2 else None for k, r in enumerate(wmt17_systems["online-B"][:n])]
    third = [r if k % 5 == 0 else None for k, r in enumerate(wmt17_systems["KIT"][:n])]
    return wmt17_systems["uedin-nmt"][:n], [list(wmt17_ref[:n]), second, third]


def _records(hyps: list[str], refs: list[list[str | None]]) -> list[tuple[str, list[str | None]]]:
    return [(h, [stream[i] for stream in refs if stream[i] is not None]) for i, h in enumerate(hyps)]


def _partitioned(records: list[Any], rng: random.Random) -> Any:
    """A bag cut at random places, with empty partitions and partitions of one segment."""
    cuts = sorted(rng.sample(range(1, len(records)), rng.randint(1, 12)))
    bounds = [0, *cuts, len(records)]
    parts = [records[a:b] for a, b in itertools.pairwise(bounds)]
    parts.insert(rng.randint(0, len(parts)), [])
    parts.insert(rng.randint(0, len(parts)), records[:1])
    parts.append([])
    return db.from_delayed([dask.delayed(list)(p) for p in parts]), [r for p in parts for r in p]


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_bags_give_the_single_machine_score_for_any_partitioning(
    client: Client, corpus, config: MetricConfig
) -> None:
    hyps, refs = corpus
    records = _records(hyps, refs)
    metric = metric_for(config)
    rng = random.Random(str(config))
    for _ in range(4):
        bag, flat = _partitioned(records, rng)
        want = metric.corpus_score([h for h, _ in flat], _transpose(flat))
        got = ud.corpus_score(metric, bag)
        assert got.score == want.score and got.signature == want.signature
    assert ud.corpus_score(metric, db.from_sequence(records, npartitions=7)) == metric.corpus_score(
        hyps, refs
    )


def _transpose(records: list[tuple[str, list[str | None]]]) -> list[list[str | None]]:
    width = max(len(r) for _, r in records)
    return [[r[k] if k < len(r) else None for _, r in records] for k in range(width)]


def test_dataframes_sentence_scores_and_statistics(client: Client, corpus) -> None:
    hyps, refs = corpus
    frame = pd.DataFrame({"hyp": hyps, "ref": refs[0], "ref2": refs[1], "ref3": refs[2]})
    ddf = dd.from_pandas(frame, npartitions=5)
    for config in CONFIGS:
        metric = metric_for(config)
        single = metric.segment_stats(hyps, refs)
        assert ud.corpus_score(metric, ddf, refs=["ref", "ref2", "ref3"]) == single.score()
        series = ud.sentence_scores(metric, ddf, refs=["ref", "ref2", "ref3"]).compute()
        assert list(series.index) == list(frame.index)
        np.testing.assert_array_equal(series.to_numpy(), single.sentence_scores())
        gathered = ud.segment_stats(metric, ddf, refs=["ref", "ref2", "ref3"])
        np.testing.assert_array_equal(gathered.rows, single.rows)
    bag_scores = ud.sentence_scores(
        metric_for(CONFIGS[2]), db.from_sequence(_records(hyps, refs), npartitions=3)
    )
    np.testing.assert_array_equal(bag_scores.compute(), metric_for(CONFIGS[2]).sentence_scores(hyps, refs))


def test_significance_from_gathered_statistics(client: Client, corpus, wmt17_systems) -> None:
    hyps, refs = corpus
    other = wmt17_systems["online-A"][:400]
    bleu = metric_for(BLEUConfig())
    gathered = [
        ud.segment_stats(bleu, db.from_sequence(_records(h, refs), npartitions=4)) for h in (hyps, other)
    ]
    local = bleu.segment_stats_many([hyps, other], refs)
    assert paired_test(gathered, ["a", "b"], "bs", 200) == paired_test(local, ["a", "b"], "bs", 200)


def test_sharded_files(client: Client, corpus, tmp_path: Path) -> None:
    hyps, refs = corpus
    first = [r or "" for r in refs[0]]
    cuts = [0, 1, 150, 150, 399, 400]  # a shard of one line and an empty shard
    for k, (a, b) in enumerate(itertools.pairwise(cuts)):
        (tmp_path / f"hyp.{k}").write_text("".join(f"{h}\n" for h in hyps[a:b]), encoding="utf-8")
        (tmp_path / f"ref.{k}").write_text("".join(f"{r}\n" for r in first[a:b]), encoding="utf-8")
    for config in CONFIGS:
        metric = metric_for(config)
        got = ud.corpus_score_files(metric, str(tmp_path / "hyp.*"), [str(tmp_path / "ref.*")])
        assert got == metric.corpus_score(hyps, [first])
    (tmp_path / "ref.3").write_text("one line too few\n", encoding="utf-8")
    with pytest.raises(LengthMismatchError, match=r"hyp\.3 has 249 lines but .*ref\.3 has 1"):
        ud.corpus_score_files(metric_for(CONFIGS[0]), str(tmp_path / "hyp.*"), [str(tmp_path / "ref.*")])


def test_pairwise_in_blocks(client: Client, corpus) -> None:
    hyps, _ = corpus
    chrf = metric_for(CHRFConfig())
    matrix = ud.pairwise(chrf, hyps[:70], hyps[:50], block=16)
    assert matrix.shape == (70, 50) and matrix.numblocks == (5, 4)
    np.testing.assert_array_equal(matrix.compute(), chrf.pairwise(hyps[:70], hyps[:50]))


def test_mistakes_are_typed(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    bleu = metric_for(BLEUConfig())
    with pytest.raises(EmptyInputError, match="every partition is empty"):
        ud.corpus_score(bleu, db.from_sequence([], npartitions=1))
    with pytest.raises(Exception, match="a record is \\(hypothesis, references\\)"):
        ud.corpus_score(bleu, db.from_sequence(["just a string"], npartitions=1))
    monkeypatch.setitem(sys.modules, "dask", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'understudy-mt\[dask\]'"):
        ud.corpus_score(bleu, [])


def test_the_command_line_on_a_cluster_prints_what_it_prints_alone(
    client: Client, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from understudy import streaming

    from tests.support.cli import run_cli as run
    from tests.support.paths import SAMPLE

    monkeypatch.setattr(streaming, "CHUNK_LINES", 257)  # many chunks in flight, in order
    ref = SAMPLE / "newstest2017.ref.en-de.de"
    systems = sorted(str(p) for p in SAMPLE.glob("newstest2017.*.de") if ".ref." not in p.name)
    address = str(client.scheduler_info()["address"])
    for extra in (
        ["-m", "bleu", "chrf", "ter", "-f", "text"],
        ["-sl", "-m", "chrf"],
        ["--paired-bs", "-pbsn", "50"],
    ):
        argv = [str(ref), "-i", *(systems[:1] if "-sl" in extra else systems), *extra]
        alone = run(capfd, *argv)
        status, out, err = run(capfd, *argv, "--dask", address)
        assert (status, out) == alone[:2], err
        assert "dashboard" not in err, err  # the library prints nothing of its own
    bad = tmp_path / "bad.de"
    lines = ref.read_text(encoding="utf-8").splitlines()
    bad.write_text("\n".join(lines[:600]) + "\n", encoding="utf-8")
    status, _, err = run(capfd, str(ref), "-i", str(bad), "--dask", address)
    assert (status == 1 and "has 3004 lines" in err) or "600" in err


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("", "expected 'local' or a scheduler's address"),
        ("foo", "expected 'local' or a scheduler's address"),
        ("tcp://x:99999", "the port must be 1 to 65535"),
        ("http://x:1", "the scheme must be one of"),
        ("tcp://a b:1", "expected 'local' or a scheduler's address"),
    ],
)
def test_malformed_dask_addresses_are_one_line(
    address: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    # Before: ValueError or TypeError tracebacks, and '' ran locally without a word.
    status, out, err = run_cli(capsys, "score", ref, "-i", str(ONLINE_A), "--dask", address)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert f"understudy: error: --dask {address!r}: {message}" in err


def test_a_server_that_is_not_dask_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]

    def answer() -> None:
        with contextlib.suppress(OSError):
            while True:
                peer, _ = server.accept()
                peer.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello" * 100)
                peer.close()

    threading.Thread(target=answer, daemon=True).start()
    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    before = dask.config.get("scheduler", None)
    try:
        with dask.config.set(scheduler="sync"):
            status, _, err = run_cli(
                capsys, "score", ref, "-i", str(ONLINE_A), "--dask", f"tcp://127.0.0.1:{port}"
            )
    finally:
        server.close()
    gc.collect()  # a failed client that made itself the default puts its setting back when collected
    # Before: "Unable to allocate 3.07 EiB", a MemoryError traceback.
    assert status == 1 and f"--dask tcp://127.0.0.1:{port}: not a Dask scheduler" in err
    assert err.count("understudy: error:") == 1 and "Traceback" not in err
    # The failed client is not left as the process's scheduler (distributed leaves it so).
    assert dask.config.get("scheduler", None) == before


def test_a_server_that_never_answers_is_one_bounded_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: a server that reads and never answers (python -m http.server waiting for a request
    # line) held the command until it was killed, then distributed's Client.__del__ printed a
    # traceback and waited 40 s more.
    pytest.importorskip("distributed")
    import understudy.execution.cluster as cluster

    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 2)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port, held = server.getsockname()[1], []
    threading.Thread(target=lambda: held.append(server.accept()), daemon=True).start()
    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    try:
        status, out, err = run_cli(
            capsys, "score", ref, "-i", str(ONLINE_A), "--dask", f"tcp://127.0.0.1:{port}"
        )
        gc.collect()  # no failed client is left to print when collected
        late = capsys.readouterr()
    finally:
        server.close()
        for peer, _ in held:
            peer.close()
    assert (status, out) == (1, "")
    assert err == f"understudy: error: --dask tcp://127.0.0.1:{port}: no Dask scheduler answered within 2 s\n"
    assert late.err == "" and late.out == ""


def test_a_chunk_whose_workers_keep_dying_is_one_line() -> None:
    distributed = pytest.importorskip("distributed")

    class Dying:
        def result(self) -> None:
            raise distributed.KilledWorker("remote_chunk-123", None, 3)

    chunks = Chunks([BLEU()], lambda _: None)
    chunks._pending.append((Dying(), 2001))
    with pytest.raises(UnderstudyError, match=r"a chunk failed after 4 worker deaths .* from line 2001"):
        chunks.finish()


@pytest.mark.parametrize("address", ["tcp://[::1", "::1:8786", "tcp://host:99999", "tcp://host:port"])
def test_a_malformed_address_is_refused_before_any_connection(
    address: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before: tcp://[::1 passed the check and distributed waited out its timeout (40 s and more).
    pytest.importorskip("distributed")
    ref = str(SAMPLE / "newstest2017.ref.en-de.de")
    status, _, err = run_cli(capsys, "score", ref, "-i", str(ONLINE_A), "--dask", address)
    assert status != 0 and err.startswith(f"understudy: error: --dask {address!r}: ") and err.count("\n") == 1
