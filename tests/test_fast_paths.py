"""Every fast path against the slow, obviously right one and against sacrebleu:
batched sentence scores, all pairs, many systems at once, any thread count."""

from __future__ import annotations

import multiprocessing
import os

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from understudy import BLEU, ConfigError, _core, sentence_bleu
from understudy.threads import THREADS_ENV, ThreadsCappedWarning, resolve_threads

from tests.support.paths import SAMPLE, read_raw

REF = read_raw(SAMPLE / "newstest2017.ref.en-de.de")
UEDIN = read_raw(SAMPLE / "newstest2017.uedin-nmt.4722.en-de.de")
PROMT = read_raw(SAMPLE / "newstest2017.PROMT-Rule-based.4735.en-de.de")

words = st.sampled_from(["the", "cat", "a", "mat", "The", ".", ",", "3", "-", "é", "Σ", "1,000", "&amp;"])
sentences = st.lists(words, max_size=14).map(" ".join)


def test_sentence_scores_equal_sentence_bleu_and_sacrebleu() -> None:
    hyps, refs = PROMT, REF
    scores = BLEU(effective_order=True, threads=2).sentence_scores(hyps, [refs])
    ours = [sentence_bleu(h, [r]).score for h, r in zip(hyps[:300], refs[:300], strict=True)]
    assert scores[:300].tolist() == ours
    theirs = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    assert scores.tolist() == theirs


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_pairwise_cells_equal_sacrebleu_sentence_scores(smooth: str) -> None:
    hyps, refs = [*UEDIN[:40], "", "."], [*REF[:30], ""]
    bleu = BLEU(effective_order=True, smooth_method=smooth, threads=2)
    matrix = bleu.pairwise(hyps, refs)
    assert matrix.shape == (len(hyps), len(refs))
    oracle = SacreBLEU(effective_order=True, smooth_method=smooth)
    expected = [[oracle.sentence_score(h, [r]).score for r in refs] for h in hyps]
    assert matrix.tolist() == expected


@settings(max_examples=60, deadline=None)
@given(st.lists(sentences, min_size=1, max_size=6), st.lists(sentences, min_size=1, max_size=6))
def test_pairwise_equals_one_sentence_at_a_time(hyps: list[str], refs: list[str]) -> None:
    bleu = BLEU(effective_order=True, lowercase=True, max_ngram_order=3)
    matrix = bleu.pairwise(hyps, refs)
    assert matrix.tolist() == [[bleu.sentence_score(h, [r]).score for r in refs] for h in hyps]


def test_pairwise_of_nothing_is_an_empty_matrix() -> None:
    assert BLEU().pairwise([], ["a"]).shape == (0, 1)
    assert BLEU().pairwise(["a"], []).shape == (1, 0)


def test_pairwise_reports_progress_and_blocks_do_not_change_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    import understudy.metric

    hyps, refs = UEDIN[:50], REF[:20]
    whole = BLEU().pairwise(hyps, refs)
    monkeypatch.setattr(understudy.metric, "PAIRWISE_CELLS_PER_CALL", 7 * len(refs))
    seen: list[tuple[int, int]] = []
    blocked = BLEU().pairwise(hyps, refs, progress=lambda done, total: seen.append((done, total)))
    assert blocked.tolist() == whole.tolist()
    assert seen[0] == (7, 50) and seen[-1] == (50, 50) and len(seen) == 8


def test_many_systems_at_once_equal_one_at_a_time_and_sacrebleu() -> None:
    systems = [UEDIN, PROMT, REF]
    bleu = BLEU(references=[REF, PROMT], threads=2)
    together = bleu.corpus_scores(systems)
    alone = [bleu.corpus_score(s) for s in systems]
    oracle = SacreBLEU(references=[REF, PROMT])
    assert [r.score for r in together] == [r.score for r in alone]
    assert [r.score for r in together] == [oracle.corpus_score(s, None).score for s in systems]
    stats = bleu.segment_stats_many(systems)
    assert all(
        np.array_equal(s.rows, bleu.segment_stats(h).rows) for s, h in zip(stats, systems, strict=True)
    )


@pytest.mark.parametrize("threads", [1, 2, 3, 5])
def test_results_do_not_depend_on_thread_count(threads: int) -> None:
    hyps = UEDIN * 3  # enough segments for several parallel tasks
    refs = REF * 3
    reference = BLEU(threads=1).segment_stats(hyps, [refs]).rows
    bleu = BLEU(threads=threads)
    assert np.array_equal(bleu.segment_stats(hyps, [refs]).rows, reference)
    single = BLEU(effective_order=True, threads=1).pairwise(UEDIN[:300], REF[:200])
    assert np.array_equal(
        BLEU(effective_order=True, threads=threads).pairwise(UEDIN[:300], REF[:200]), single
    )


def test_thread_count_from_argument_environment_or_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    cores = len(os.sched_getaffinity(0))
    monkeypatch.setenv(THREADS_ENV, "1")
    assert resolve_threads(None) == 1 and BLEU().threads == 1
    assert resolve_threads(cores) == cores
    # More threads than cores only add overhead: capped, and said.
    with pytest.warns(ThreadsCappedWarning, match=f"threads={cores + 1} is more than the {cores} cores"):
        assert resolve_threads(cores + 1) == cores
    monkeypatch.setenv(THREADS_ENV, str(cores + 5))
    with pytest.warns(ThreadsCappedWarning, match=f"UNDERSTUDY_THREADS={cores + 5}"):
        assert BLEU().threads == cores
    monkeypatch.setenv(THREADS_ENV, "0")
    assert resolve_threads(None) == cores
    monkeypatch.setenv(THREADS_ENV, "many")
    with pytest.raises(ConfigError, match="UNDERSTUDY_THREADS='many' is not a whole number"):
        BLEU()
    with pytest.raises(ConfigError, match="threads must be 0"):
        BLEU(threads=-1)


def _score_in_child(queue: multiprocessing.Queue[tuple[float, int]]) -> None:
    score = BLEU(threads=4).corpus_score(UEDIN * 2, [REF * 2]).score
    queue.put((score, _core.pool_threads(4)))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_children_run_serially_and_do_not_deadlock() -> None:
    parent = BLEU(threads=4).corpus_score(UEDIN * 2, [REF * 2]).score  # the parent's pool now exists
    assert _core.pool_threads(4) == 4
    context = multiprocessing.get_context("fork")
    queue: multiprocessing.Queue[tuple[float, int]] = context.Queue()
    child = context.Process(target=_score_in_child, args=(queue,))
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0, "the forked child hung or failed"
    assert queue.get(timeout=5) == (parent, 1)
