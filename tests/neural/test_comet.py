"""COMET's regression metric against unbabel-comet 2.2.7 on tiny checkpoints.

The reference numbers are tests/fixtures/comet_tiny.json, made by scripts/comet_fixtures.py
in the reference code's own environment on the checkpoints tests/support/neural_checkpoints.py builds
(here, the same weights). The issue's bounds: 2e-6 a segment, 1e-6 a system; the reference
code itself varies by up to 4.8e-7 between batch sizes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("transformers", reason="the neural extra: pip install 'understudy-mt[neural]'")

from understudy.errors import InputError, LengthMismatchError, ModelError
from understudy.metrics.scores import ScoresConfig
from understudy.neural import COMET, CometKiwi
from understudy.neural.comet_model import CometParts
from understudy.neural.xlmr import sparsemax
from understudy.signature import Signature

import tests.support.neural_checkpoints as nc
from tests.support.neural_checkpoints import MT, REF, SRC

FIXTURE = nc.comet_fixture()


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("comet")
    built = {
        name: nc.build_regression(root / name, seed, **overrides)
        for name, (seed, overrides) in nc.REGRESSION_VARIANTS.items()
    }
    return built | {
        name: nc.build_unified(root / name, seed, **overrides)
        for name, (seed, overrides) in nc.UNIFIED_VARIANTS.items()
    }


def test_fixture_is_of_these_samples() -> None:
    assert FIXTURE["samples"] == nc.SAMPLES
    assert FIXTURE["versions"]["unbabel-comet"] == "2.2.7"
    assert set(FIXTURE["models"]) == set(nc.REGRESSION_VARIANTS) | set(nc.UNIFIED_VARIANTS)


def _equals_the_fixture(metric: COMET | CometKiwi, variant: str) -> list[float]:
    """The metric's segment and system scores are unbabel-comet's, at either of its batch sizes."""
    scores = metric.sentence_scores(MT, REF, sources=SRC)
    for reference_batch in ("1", "8"):
        want = FIXTURE["models"][variant][reference_batch]
        assert np.max(np.abs(np.array(scores) - want["scores"])) <= 2e-6
        assert abs(metric.corpus_score(MT, REF, sources=SRC).score - want["system_score"]) <= 1e-6
    return list(scores)


@pytest.mark.parametrize("batch_size", [1, 8])
@pytest.mark.parametrize("variant", list(nc.REGRESSION_VARIANTS))
def test_scores_equal_unbabel_comet(checkpoints: dict[str, Path], variant: str, batch_size: int) -> None:
    metric = COMET(checkpoints[variant], batch_size=batch_size, cache=None)
    _equals_the_fixture(metric, variant)
    # Two lines pass 510 tokens (a hypothesis, a source): cut as the reference code cuts them.
    assert metric.truncated == 2


def test_the_sparsemax_path_is_sparse(checkpoints: dict[str, Path]) -> None:
    # wmt22-comet-da's layer mix is a sparsemax: the tiny checkpoint's must drop a layer, or
    # the parity test would not tell sparsemax from softmax.
    torch = pytest.importorskip("torch")
    state = torch.load(checkpoints["wmt22-like"] / "checkpoints" / "model.ckpt", weights_only=True)[
        "state_dict"
    ]
    scalars = torch.cat([state[f"layerwise_attention.scalar_parameters.{i}"] for i in range(nc.LAYERS + 1)])
    weights = sparsemax(scalars)
    assert float(weights.sum()) == pytest.approx(1.0, abs=1e-6)
    assert int((weights == 0).sum()) >= 1


def test_sparsemax_equals_its_definition() -> None:
    # The Euclidean projection onto the simplex (Martins & Astudillo, 2016), by brute force.
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    for _ in range(50):
        z = rng.normal(size=5) * 2
        mine = sparsemax(torch.tensor(z, dtype=torch.float64)).numpy()
        best = None
        for support in range(1, 6):
            top = np.sort(z)[::-1][:support]
            tau = (top.sum() - 1) / support
            p = np.maximum(z - tau, 0)
            if abs(p.sum() - 1) < 1e-12 and (best is None or np.sum((p - z) ** 2) < np.sum((best - z) ** 2)):
                best = p
        assert best is not None
        np.testing.assert_allclose(mine, best, atol=1e-12)


@pytest.mark.parametrize(
    ("variant", "metric_class", "layers_run"),
    [("wmt22-like", COMET, 1), ("unified-with-ref", CometKiwi, 1), ("kiwi-like", CometKiwi, nc.LAYERS)],
)
def test_layers_the_mix_never_reads_are_not_run(
    checkpoints: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    variant: str,
    metric_class: Any,
    layers_run: int,
) -> None:
    # wmt22-like's sparsemax weighs layers 0 and 1 of 0-2 and unified-with-ref's layer 0 only:
    # the top layer is not run (one layer always is). kiwi-like's softmax weighs every layer.
    # The scores are those of the whole encoder, bit for bit.
    metric = metric_class(checkpoints[variant], batch_size=4, cache=None)
    kept = metric.sentence_scores(MT, REF, sources=SRC)
    assert metric._model is not None and len(metric._model.encoder.encoder.layer) == layers_run
    monkeypatch.setattr(CometParts, "keep_layers", lambda self, read: None)
    whole = metric_class(checkpoints[variant], batch_size=4, cache=None)
    assert list(whole.sentence_scores(MT, REF, sources=SRC)) == list(kept)
    assert whole._model is not None and len(whole._model.encoder.encoder.layer) == nc.LAYERS


def test_systems_share_their_texts(checkpoints: dict[str, Path]) -> None:
    # 3 systems over one source and reference: each distinct text is encoded once.
    metric = COMET(checkpoints["wmt22-like"], batch_size=4, cache=None)
    systems = {"A": MT, "B": MT[::-1], "C": REF}
    encoded: list[int] = []
    scores = metric.system_scores(systems, REF, SRC, progress=encoded.append)
    assert sum(encoded) == len(set(SRC) | set(REF) | set(MT))
    for name, hyps in systems.items():
        alone = metric.sentence_scores(hyps, REF, sources=SRC)
        assert np.max(np.abs(scores.sentence_scores(name) - alone)) <= 2e-6
    # A hypothesis equal to the reference, against the same source, scores as itself anywhere
    # (to float32's noise between batches of other shapes).
    itself = metric.sentence_scores([REF[0]], [REF[0]], sources=[SRC[0]])[0]
    assert abs(scores.sentence_scores("C")[0] - itself) <= 2e-6


def test_signature_pins_checkpoint_and_revision(checkpoints: dict[str, Path]) -> None:
    metric = COMET(checkpoints["wmt22-like"], cache=None)
    result = metric.corpus_score(MT[:3], REF[:3], sources=SRC[:3])
    text = str(result.signature)
    assert "model:wmt22-like|" in text and "|dtype:fp32|ref:yes|" in text
    assert metric.checkpoint.revision.startswith("sha256-")
    parsed = Signature.parse(text)
    assert parsed.config == result.signature.config
    # The checkpoint's file, then its encoder's config and tokenizer (a folder: their hash).
    assert metric.encoder.revision.startswith("sha256-")
    assert isinstance(parsed.config, ScoresConfig)
    assert parsed.config.revision == f"{metric.checkpoint.revision}+{metric.encoder.revision}"
    # Another checkpoint's scores are another configuration: never compared with these.
    other = COMET(checkpoints["sparsemax-patch"], cache=None).corpus_score(MT[:3], REF[:3], sources=SRC[:3])
    assert other.signature.config != result.signature.config


def test_bad_input_is_refused(checkpoints: dict[str, Path], tmp_path: Path) -> None:
    metric = COMET(checkpoints["wmt22-like"], cache=None)
    with pytest.raises(LengthMismatchError, match="3 references, 3 sources, 2 hypotheses of 'system'"):
        metric.sentence_scores(MT[:2], REF[:3], sources=SRC[:3])
    with pytest.raises(InputError, match="needs the source"):
        metric.sentence_scores(MT[:2], REF[:2], sources=None)
    with pytest.raises(ModelError, match=r"no checkpoints/model\.ckpt"):
        COMET(tmp_path, cache=None)
    with pytest.raises(ModelError, match="unknown precision"):
        COMET(checkpoints["wmt22-like"], precision="fp8", cache=None)
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        with pytest.raises(ModelError, match="no CUDA device"):
            COMET(checkpoints["wmt22-like"], device="cuda", cache=None).sentence_scores(
                MT[:1], REF[:1], sources=SRC[:1]
            )


def test_a_checkpoint_of_another_kind_is_named(checkpoints: dict[str, Path], tmp_path: Path) -> None:
    folder = nc.build_regression(tmp_path / "kiwi", 4, class_identifier="unified_metric")
    with pytest.raises(ModelError, match="class 'unified_metric'"):
        COMET(folder, cache=None).sentence_scores(MT[:1], REF[:1], sources=SRC[:1])


def test_a_rerun_computes_nothing(checkpoints: dict[str, Path], tmp_path: Path) -> None:
    cache = tmp_path / "scores.sqlite"
    metric = COMET(checkpoints["wmt22-like"], cache=cache)
    first = metric.system_scores({"A": MT}, REF, SRC)
    assert metric.computed == len(set(zip(SRC, MT, REF, strict=True)))
    again = COMET(checkpoints["wmt22-like"], cache=cache)
    assert (
        again.system_scores({"A": MT}, REF, SRC).sentence_scores("A").tolist()
        == first.sentence_scores("A").tolist()
    )
    assert again.computed == 0 and again._model is None  # the model was never read
    # A new system computes only its own segments (two of B's ten are A's).
    b = [*MT[:2], *(h + " neu" for h in MT[2:])]
    again.system_scores({"A": MT, "B": b}, REF, SRC)
    assert again.computed == 8
    # Another precision is another configuration: nothing is taken from fp32's scores.
    other = COMET(checkpoints["wmt22-like"], cache=cache, precision="bf16")
    other.system_scores({"A": MT[:2]}, REF[:2], SRC[:2])
    assert other.computed == 2


WORKER = """
import os, signal, sys
sys.path.insert(0, {tests!r})
import understudy.neural.comet as comet
comet.COMET.block = 2
def die(count, seen=[0]):
    seen[0] += count
    if {kill} and seen[0] >= 6:
        os.kill(os.getpid(), signal.SIGKILL)
metric = comet.COMET({model!r}, cache={cache!r}, batch_size=2)
mt = [h + " {k}" for h in {mt!r}]
metric.system_scores({{"s": mt}}, {ref!r}, {src!r}, progress=die)
"""


def test_processes_share_the_cache_and_a_kill_loses_nothing(
    checkpoints: dict[str, Path], tmp_path: Path
) -> None:
    import subprocess
    import sys

    from understudy.computed.cache import ScoreCache

    cache = tmp_path / "scores.sqlite"
    model = str(checkpoints["wmt22-like"])
    tests = str(Path(__file__).parent)
    code = [
        WORKER.format(
            tests=tests, kill=k == 0, model=model, cache=str(cache), k=k % 2, mt=MT, ref=REF, src=SRC
        )
        for k in range(4)
    ]
    # Two processes a system, at once: one of system 0's is killed mid-run, system 1's two write
    # the same segments. One thread each: four processes on two cores (and the suite's workers).
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    procs = [subprocess.Popen([sys.executable, "-c", c], stderr=subprocess.PIPE, env=env) for c in code]
    results = [(p.wait(timeout=600), p.stderr.read().decode() if p.stderr else "") for p in procs]
    assert results[0][0] == -9, results[0]
    assert [status for status, _ in results[1:]] == [0] * 3, [(s, err[-800:]) for s, err in results]
    # Every process's segments are kept once; a re-run computes nothing and equals a fresh run.
    metric = COMET(model, cache=cache)
    systems = {f"s{k}": [h + f" {k}" for h in MT] for k in range(2)}
    kept = metric.system_scores(systems, REF, SRC)
    assert metric.computed == 0
    assert ScoreCache(cache).stats().entries == 2 * len(MT)
    fresh = COMET(model, cache=None).system_scores(systems, REF, SRC)
    for name in systems:
        assert np.max(np.abs(kept.sentence_scores(name) - fresh.sentence_scores(name))) <= 2e-6


@pytest.mark.parametrize("batch_size", [1, 8])
@pytest.mark.parametrize("variant", list(nc.UNIFIED_VARIANTS))
def test_cometkiwi_equals_unbabel_comet(checkpoints: dict[str, Path], variant: str, batch_size: int) -> None:
    # CometKiwi's kind reads [mt, src] (the references given are not its); the other reads
    # references too: three sequences and their mean. Both cut joined inputs at 512 tokens.
    metric = CometKiwi(checkpoints[variant], batch_size=batch_size, cache=None)
    scores = _equals_the_fixture(metric, variant)
    reads_refs = variant == "unified-with-ref"
    signature = str(metric.corpus_score(MT, REF, sources=SRC).signature)
    assert f"|ref:{'yes' if reads_refs else 'no'}|" in signature and "|name:CometKiwi|" in signature
    # Without references, every checkpoint scores [mt, src] alone.
    alone = metric.sentence_scores(MT, None, sources=SRC)
    assert (alone == scores) is not reads_refs


def test_references_as_sacrebleus_streams_or_a_flat_list(checkpoints: dict[str, Path]) -> None:
    metric = COMET(checkpoints["wmt22-like"], cache=None)
    flat = metric.corpus_score(MT[:3], REF[:3], sources=SRC[:3])
    # As BLEU().corpus_score(hyps, [refs]): before, "expected a sequence of strings".
    streams = metric.corpus_score(MT[:3], [REF[:3]], sources=SRC[:3])
    assert streams.score == flat.score and streams.signature == flat.signature
    assert metric.sentence_scores(MT[:3], [REF[:3]], sources=SRC[:3]) == metric.sentence_scores(
        MT[:3], REF[:3], sources=SRC[:3]
    )
    with pytest.raises(InputError, match="2 reference streams: this metric reads one reference a segment"):
        metric.corpus_score(MT[:3], [REF[:3], REF[:3]], sources=SRC[:3])
