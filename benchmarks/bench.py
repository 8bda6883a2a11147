"""Side-by-side timings: understudy against sacrebleu 2.6.0, bleuscore, fast-bleu and fastchrf.

Every task is timed in this one run on this one machine; each figure is the median of
--repeat runs (of more, up to 200, while they add up to less than a second), and the
table reports how many times slower each peer is than understudy (the ratio), which is
what survives a noisy shared machine.

    pip install -e '.[bench]'
    python benchmarks/bench.py                 # every task, 5 repetitions
    python benchmarks/bench.py --quick         # 3 repetitions, the slow peers' long runs once
    python benchmarks/bench.py --tasks corpus sentence --markdown

Tasks (the issue's numbering):
  corpus    corpus BLEU of the 16 WMT17 systems against the reference
  sentence  sentence BLEU of the 3004 segments of one system
  pairwise  the all-pairs matrix of 500 x 500 segments
  stream    `score` on a 1,000,000-segment file pair (time and peak memory)
  paired-bs, paired-ar   paired tests of 16 systems against the first (issue 4)
  chrf, chrfpp, ter      corpus chrF, chrF++ and TER of the 16 systems (issue 10)
  ter-sentence           sentence TER of the 3004 segments of one system
  chrf-pairwise          the all-pairs chrF matrix of 500 x 500 segments (MBR)
  mbr-chrf, mbr-bleu     exact MBR of 300 WMT17 sources x 32 candidates (tests/support/mbr_candidates.py)
                         beside mbrs' utilities (sacrebleu's sentence_score per pair, then the mean)
                         and, for chrF, fastchrf's pairwise chrF of all sources in one call
  mbr-chrf-64, mbr-bleu-64   the same with 64 candidates a source (mbrs' utilities timed on the
                         first 30 sources, times 10)
  mbr-aggregate-chrf, mbr-aggregate-bleu   MBR with reference aggregation, 300 x 64, beside
                         fastchrf's aggregate_chrf
  ja-mecab               corpus BLEU with the ja-mecab tokenizer (MeCab runs in Python for both
                         tools): 4 systems x 3000 seeded pseudo-Japanese segments
  report, report-large   the HTML report of the 16 systems, and of 3 systems x 120,160 segments
                         (the test set 40 times), with the page's size and Chromium's open time
                         (not in the default set)
  long-line              peak memory of BLEU on one 100 MB hypothesis line and one 100 MB
                         reference line (not in the default set)
  dask                   corpus BLEU of 10,000,000 segments (WMT17 repeated) from 20 sharded files
                         on a 2-worker LocalCluster, against the single-process CLI (not in the
                         default set: it writes 5 GB of files; --tasks dask)
  wer, wer-sentence, wer-pairwise   corpus WER and CER of the 16 systems, sentence WER of 3004
                         segments and a 500 x 500 WER matrix, beside jiwer 4
  gleu, gleu-sentence    corpus GLEU of the 16 systems and sentence GLEU of 3004 segments,
                         beside NLTK's gleu_score (given the 13a tokens)
  nist                   corpus NIST of the 16 systems beside NLTK's corpus_nist (13a tokens given),
                         and beside mteval-v13a.pl itself with --mteval PATH (Perl; the script
                         is not shipped: see scripts/mteval_fixtures.py)
  ledger                 appending a 16-system run to a ledger, a tag's records and history
                         among 10,000, in SQLite and (when its server programs are installed)
                         PostgreSQL, and understudy gate from kept rows beside score --paired-bs
  meta                   WMT24's meta-evaluation on WMT21 TED zh-en (13 systems x 529 segments):
                         SPA, acc-eq by item/system/none, PERM-BOTH (1000 resamples) of Pearson by
                         none/system/item, of SPA and of acc-eq as WMT24 runs it, beside
                         mt-metrics-eval with --mtme PATH (not on PyPI: see scripts/mtme_fixtures.py)
  token-ids              sentence BLEU of 3004 segments given as token ids (an RL reward), beside
                         NLTK's sentence_bleu on the same ids, understudy.nltk, and sacrebleu on the
                         decoded text
  tm-bleu, tm-sacrebleu, tm-chrf, tm-ter, tm-wer   torchmetrics' BLEUScore, SacreBLEUScore,
                         CHRFScore, TranslationEditRate and WordErrorRate over one WMT17 system,
                         understudy.torchmetrics beside torchmetrics (extra torch; not in the
                         default set: torchmetrics' chrF takes about 70 s a run)
  given-bs, given-ar, given-pairs   paired bootstrap, randomization and all pairs with clusters
                         on given segment scores (synthetic, COMET-like), beside the same on BLEU
                         and comet-compare's algorithm (t-test and 300 x 40% bootstrap)
  startup                understudy --version, and BLEU of a 3-line file (bare and score -m bleu),
                         beside sacrebleu's command line: wall and CPU of whole processes
  wc -w over the same bytes is timed for corpus and stream, as the floor that
  merely touching the text costs.
"""

from __future__ import annotations

import argparse
import dataclasses
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tables import render

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DATA = REPO.parent / "shared" / "data" / "wmt17-en-de"
STREAM_SEGMENTS = 1_000_000


@dataclass
class Timing:
    tool: str
    seconds: float
    note: str = ""
    peak_mb: float | None = None


MIN_SECONDS = 1.0
"""Fast measurements repeat until they have run this long: a median of many short runs."""


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``fn``: at least ``repeat`` runs, more while under ``MIN_SECONDS``."""
    fn()  # warm up: imports, caches, thread pools
    times: list[float] = []
    while len(times) < repeat or (sum(times) < MIN_SECONDS and len(times) < 200):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def read(path: str) -> list[str]:
    from understudy.inputs.files import read_lines

    return read_lines(path)


def wc_words(paths: list[str], repeat: int) -> float:
    def run() -> None:
        subprocess.run(["wc", "-w", *paths], check=True, stdout=subprocess.DEVNULL)

    return median_time(run, repeat)


def optional(name: str) -> object | None:
    try:
        return __import__(name)
    except ImportError:
        return None


def task_corpus(data: Path, repeat: int) -> list[Timing]:
    from sacrebleu.metrics import BLEU as SacreBLEU
    from understudy import BLEU

    ref_path = str(data / "newstest2017.ref.en-de.de")
    sys_paths = sorted(p for p in glob.glob(str(data / "newstest2017.*.de")) if ".ref." not in p)
    ref = read(ref_path)
    systems = [read(p) for p in sys_paths]

    def ours() -> None:
        BLEU(references=[ref]).corpus_scores(systems)

    def ours_one_by_one() -> None:
        bleu = BLEU(references=[ref])
        for hyps in systems:
            bleu.corpus_score(hyps)

    def ours_from_files() -> None:
        BLEU(references=[read(ref_path)]).corpus_scores([read(p) for p in sys_paths])

    def sacre() -> None:
        bleu = SacreBLEU(references=[ref])
        for hyps in systems:
            bleu.corpus_score(hyps, None)

    rows = [
        Timing("understudy corpus_scores", median_time(ours, repeat)),
        Timing("understudy corpus_score, one system at a time", median_time(ours_one_by_one, repeat)),
        Timing("understudy, reading the 17 files included", median_time(ours_from_files, repeat)),
        Timing(
            "wc -w on the 17 files", wc_words([ref_path, *sys_paths], repeat), "floor: touching the bytes"
        ),
        Timing(
            "sacrebleu BLEU(references=...)", median_time(sacre, max(1, repeat // 2)), "cached references"
        ),
    ]
    bleuscore = optional("bleuscore")
    if bleuscore is not None:
        refs = [[r] for r in ref]

        def peer() -> None:
            for hyps in systems:
                bleuscore.compute(references=refs, predictions=hyps, max_order=4)  # type: ignore[attr-defined]

        rows.append(
            Timing("bleuscore.compute", median_time(peer, repeat), "own tokenizer, not sacrebleu's numbers")
        )
    rows.append(Timing("fast-bleu", float("nan"), "cannot: scores each hypothesis against one shared set"))
    return rows


def task_sentence(data: Path, repeat: int) -> list[Timing]:
    from sacrebleu.metrics import BLEU as SacreBLEU
    from understudy import BLEU

    ref = read(str(data / "newstest2017.ref.en-de.de"))
    hyps = read(str(data / "newstest2017.uedin-nmt.4722.en-de.de"))

    def ours() -> None:
        BLEU(effective_order=True).sentence_scores(hyps, [ref])

    def sacre() -> None:
        bleu = SacreBLEU(effective_order=True)
        for h, r in zip(hyps, ref, strict=True):
            bleu.sentence_score(h, [r])

    rows = [
        Timing("understudy sentence_scores", median_time(ours, repeat)),
        Timing("sacrebleu BLEU.sentence_score loop", median_time(sacre, repeat)),
    ]
    bleuscore = optional("bleuscore")
    if bleuscore is not None:

        def peer() -> None:
            for h, r in zip(hyps, ref, strict=True):
                bleuscore.compute(references=[[r]], predictions=[h], max_order=4, smooth=True)  # type: ignore[attr-defined]

        rows.append(Timing("bleuscore.compute per segment", median_time(peer, repeat)))
    fast_bleu = optional("fast_bleu")
    if fast_bleu is not None:
        split_h = [h.split() for h in hyps]
        split_r = [r.split() for r in ref]

        def fast() -> None:
            for h, r in zip(split_h, split_r, strict=True):
                fast_bleu.BLEU([r]).get_score([h])  # type: ignore[attr-defined]

        rows.append(
            Timing("fast-bleu, one BLEU per segment", median_time(fast, repeat), "input pre-split, untimed")
        )
    return rows


def task_pairwise(data: Path, repeat: int, slow_repeat: int) -> list[Timing]:
    from sacrebleu.metrics import BLEU as SacreBLEU
    from understudy import BLEU

    hyps = read(str(data / "newstest2017.uedin-nmt.4722.en-de.de"))[:500]
    refs = read(str(data / "newstest2017.online-B.0.en-de.de"))[:500]

    def ours() -> None:
        BLEU(effective_order=True).pairwise(hyps, refs)

    def sacre() -> None:
        bleu = SacreBLEU(effective_order=True)
        for h in hyps:
            for r in refs:
                bleu.sentence_score(h, [r])

    rows = [
        Timing("understudy pairwise", median_time(ours, repeat)),
        Timing("sacrebleu sentence_score, 250,000 calls", median_time(sacre, slow_repeat)),
    ]
    bleuscore = optional("bleuscore")
    if bleuscore is not None:

        def peer() -> None:
            for h in hyps:
                for r in refs:
                    bleuscore.compute(references=[[r]], predictions=[h], max_order=4, smooth=True)  # type: ignore[attr-defined]

        rows.append(Timing("bleuscore.compute, 250,000 calls", median_time(peer, slow_repeat)))
    fast_bleu = optional("fast_bleu")
    if fast_bleu is not None:
        split_h = [h.split() for h in hyps]
        split_r = [r.split() for r in refs]

        def fast() -> None:
            for r in split_r:
                fast_bleu.BLEU([r]).get_score(split_h)  # type: ignore[attr-defined]

        rows.append(
            Timing("fast-bleu, one BLEU per reference", median_time(fast, repeat), "input pre-split, untimed")
        )
    return rows


def task_paired(data: Path, repeat: int, slow_repeat: int, test: str) -> list[Timing]:
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.significance import PairedTest
    from understudy import BLEU
    from understudy.significance import paired_test

    ref = read(str(data / "newstest2017.ref.en-de.de"))
    sys_paths = sorted(p for p in glob.glob(str(data / "newstest2017.*.de")) if ".ref." not in p)
    systems = [read(p) for p in sys_paths]
    names = [Path(p).name for p in sys_paths]
    n = 1000 if test == "bs" else 10000

    def ours() -> None:
        stats = BLEU(references=[ref]).segment_stats_many(systems)
        paired_test(stats, names, test, n)  # type: ignore[arg-type]

    def sacre() -> None:
        metric = {"BLEU": SacreBLEU(references=[ref])}
        PairedTest(list(zip(names, systems, strict=True)), metric, None, test_type=test, n_samples=n)()

    return [
        Timing("understudy paired_test", median_time(ours, repeat), "scoring included"),
        Timing("sacrebleu PairedTest", median_time(sacre, slow_repeat), "one process (--paired-jobs 1)"),
    ]


def _systems(data: Path) -> tuple[list[str], list[list[str]]]:
    ref = read(str(data / "newstest2017.ref.en-de.de"))
    sys_paths = sorted(p for p in glob.glob(str(data / "newstest2017.*.de")) if ".ref." not in p)
    return ref, [read(p) for p in sys_paths]


def task_metric_corpus(data: Path, repeat: int, slow_repeat: int, metric: str) -> list[Timing]:
    import sacrebleu.metrics
    import understudy

    ref, systems = _systems(data)
    name, kwargs = {"chrf": ("CHRF", {}), "chrfpp": ("CHRF", {"word_order": 2}), "ter": ("TER", {})}[metric]

    def ours() -> None:
        getattr(understudy, name)(references=[ref], **kwargs).corpus_scores(systems)

    def ours_one_by_one() -> None:
        scorer = getattr(understudy, name)(references=[ref], **kwargs)
        for hyps in systems:
            scorer.corpus_score(hyps)

    def sacre() -> None:
        scorer = getattr(sacrebleu.metrics, name)(references=[ref], **kwargs)
        for hyps in systems:
            scorer.corpus_score(hyps, None)

    return [
        Timing(f"understudy {name}.corpus_scores", median_time(ours, repeat)),
        Timing("understudy corpus_score, one system at a time", median_time(ours_one_by_one, repeat)),
        Timing(f"sacrebleu {name}(references=...)", median_time(sacre, slow_repeat), "cached references"),
    ]


JAPANESE_WORDS = [
    "今日",
    "明日",
    "東京",
    "大阪",
    "会社",
    "学生",
    "先生",
    "天気",
    "電車",
    "時間",
    "問題",
    "研究",
    "結果",
    "政府",
    "経済",
    "技術",
    "翻訳",
    "言語",
    "は",
    "が",
    "を",
    "に",
    "で",
    "と",
    "の",
    "も",
    "へ",
    "から",
    "まで",
    "より",
    "行く",
    "来る",
    "見る",
    "食べる",
    "話す",
    "書く",
    "読む",
    "使う",
    "考える",
    "作る",
    "始める",
    "終わる",
    "です",
    "ます",
    "でした",
    "ました",
    "ない",
    "たい",
    "らしい",
    "そう",
    "ソフトウェア",
    "コンピュータ",
    "データ",
    "システム",
    "良い",
    "新しい",
    "大きい",
    "小さい",
    "難しい",
    "簡単",
    "重要",
    "必要",
]


def japanese_corpus(segments: int, systems: int) -> tuple[list[str], list[list[str]]]:
    """A seeded pseudo-Japanese reference and systems that drop and swap its words."""
    import random

    rng = random.Random(2002)
    ref = ["".join(rng.choices(JAPANESE_WORDS, k=rng.randint(8, 30))) + "。" for _ in range(segments)]
    outputs = []
    for _ in range(systems):
        hyps = []
        for line in ref:
            words = rng.choices(JAPANESE_WORDS, k=len(line) // 3)
            hyps.append(line[: len(line) // 2] + "".join(words) + "。")
        outputs.append(hyps)
    return ref, outputs


def task_ja_mecab(repeat: int, slow_repeat: int) -> list[Timing]:
    from sacrebleu.metrics import BLEU as SacreBLEU
    from understudy import BLEU

    ref, systems = japanese_corpus(3000, 4)

    def ours() -> None:
        BLEU(tokenize="ja-mecab", references=[ref]).corpus_scores(systems)

    def sacre() -> None:
        scorer = SacreBLEU(tokenize="ja-mecab", references=[ref])
        for hyps in systems:
            scorer.corpus_score(hyps, None)

    return [
        Timing("understudy BLEU(tokenize='ja-mecab').corpus_scores", median_time(ours, repeat)),
        Timing("sacrebleu BLEU(tokenize='ja-mecab')", median_time(sacre, slow_repeat), "cached references"),
    ]


def task_ter_sentence(data: Path, repeat: int, slow_repeat: int) -> list[Timing]:
    from sacrebleu.metrics import TER as SacreTER
    from understudy import TER

    ref, systems = _systems(data)
    hyps = systems[0]

    def ours() -> None:
        TER().sentence_scores(hyps, [ref])

    def sacre() -> None:
        ter = SacreTER()
        for h, r in zip(hyps, ref, strict=True):
            ter.sentence_score(h, [r])

    return [
        Timing("understudy TER.sentence_scores", median_time(ours, repeat)),
        Timing("sacrebleu sentence_score, 3004 calls", median_time(sacre, slow_repeat)),
    ]


def task_chrf_pairwise(data: Path, repeat: int, slow_repeat: int) -> list[Timing]:
    from sacrebleu.metrics import CHRF as SacreCHRF
    from understudy import CHRF

    hyps = read(str(data / "newstest2017.uedin-nmt.4722.en-de.de"))[:500]
    refs = read(str(data / "newstest2017.online-B.0.en-de.de"))[:500]

    def ours() -> None:
        CHRF().pairwise(hyps, refs)

    def sacre() -> None:
        chrf = SacreCHRF()
        for h in hyps:
            for r in refs:
                chrf.sentence_score(h, [r])

    rows = [
        Timing("understudy CHRF.pairwise", median_time(ours, repeat)),
        Timing("sacrebleu sentence_score, 250,000 calls", median_time(sacre, slow_repeat)),
    ]
    fastchrf = optional("fastchrf")
    if fastchrf is not None:

        def peer() -> None:
            fastchrf.pairwise_chrf([hyps], [refs])  # type: ignore[attr-defined]

        rows.append(Timing("fastchrf.pairwise_chrf", median_time(peer, repeat), "not sacrebleu-identical"))
    return rows


def task_mbr(data: Path, repeat: int, slow_repeat: int, metric: str, rounds: int = 1) -> list[Timing]:
    """Exact MBR's expected utilities and choices; the peers compute the same utilities.

    ``rounds`` of variants: 32 candidates a source (1), 64 (3). At 64, mbrs' utilities (about
    10 minutes for every source) are timed on the first 30 sources and multiplied by 10."""
    import numpy as np
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.metrics import CHRF as SacreCHRF
    from understudy import BLEU, CHRF
    from understudy.mbr import select

    lists = _mbr_candidates(data, rounds)
    ours_metric = CHRF() if metric == "chrf" else BLEU(effective_order=True)
    theirs = SacreCHRF() if metric == "chrf" else SacreBLEU(effective_order=True)
    share = 1 if rounds == 1 else 10
    subset = lists[: len(lists) // share]

    def mbrs_utilities() -> None:  # what mbrs' exact decoder computes, pair by pair
        for hyps in subset:
            matrix = [[theirs.sentence_score(h, [r]).score for r in hyps] for h in hyps]
            int(np.argmax(np.mean(matrix, axis=1)))

    calls = sum(len(hyps) ** 2 for hyps in subset)
    peer = f"mbrs' utilities: sacrebleu sentence_score, {calls:,} calls"
    rows = [
        Timing(f"understudy mbr.select ({metric})", median_time(lambda: select(lists, ours_metric), repeat)),
        Timing(
            peer if share == 1 else f"{peer} ({len(subset)} sources) x {share}",
            share * median_time(mbrs_utilities, slow_repeat),
        ),
    ]
    fastchrf = optional("fastchrf")
    if fastchrf is not None and metric == "chrf":

        def pairwise() -> None:
            np.asarray(fastchrf.pairwise_chrf(lists, lists)).mean(axis=2).argmax(axis=1)  # type: ignore[attr-defined]

        rows.append(
            Timing(
                "fastchrf.pairwise_chrf, every source",
                median_time(pairwise, repeat),
                "not sacrebleu-identical",
            )
        )
    return rows


def task_mbr_aggregate(data: Path, repeat: int, metric: str) -> list[Timing]:
    """MBR with reference aggregation, 300 sources x 64 candidates, beside fastchrf's."""
    import numpy as np
    from understudy import BLEU, CHRF
    from understudy.mbr import select

    lists = _mbr_candidates(data, 3)
    ours_metric = CHRF() if metric == "chrf" else BLEU(effective_order=True)

    def ours() -> None:
        select(lists, ours_metric, method="aggregate")

    rows = [Timing(f"understudy mbr.select ({metric}, aggregate)", median_time(ours, repeat))]
    fastchrf = optional("fastchrf")
    if fastchrf is not None and metric == "chrf":

        def peer() -> None:
            np.asarray(fastchrf.aggregate_chrf(lists, lists)).argmax(axis=1)  # type: ignore[attr-defined]

        rows.append(Timing("fastchrf.aggregate_chrf, every source", median_time(peer, repeat)))
    return rows


def _mbr_candidates(data: Path, rounds: int) -> list[list[str]]:
    """The MBR tests' candidates of 300 WMT17 sources (tests/support/mbr_candidates.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.support.mbr_candidates import candidates

    return candidates(300, data, rounds)


def make_stream_files(data: Path, folder: Path, segments: int) -> tuple[str, str]:
    """The WMT17 reference and one system, repeated to ``segments`` lines."""
    paths = []
    for name in ("ref", "uedin-nmt.4722"):
        lines = (data / f"newstest2017.{name}.en-de.de").read_bytes().splitlines(keepends=True)
        path = folder / f"{name}.{segments}.de"
        with open(path, "wb") as fh:
            for i in range(segments):
                fh.write(lines[i % len(lines)])
        paths.append(str(path))
    return paths[0], paths[1]


def run_measured(argv: list[str]) -> tuple[float, float]:
    """Wall time and peak resident memory (MB) of one command.

    The memory comes from GNU time: a child's own ``ru_maxrss`` would also count the
    pages it shared with this (large) process between fork and exec.
    """
    timer = shutil.which("time") or "/usr/bin/time"
    if not os.path.exists(timer):
        raise RuntimeError("GNU time (Debian package 'time') is needed to measure peak memory")
    start = time.perf_counter()
    proc = subprocess.run(
        [timer, "-f", "%M", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed: {proc.stderr}")
    return elapsed, int(proc.stderr.strip().splitlines()[-1]) / 1024


def process_times(argv: list[str], repeat: int) -> tuple[float, float]:
    """Median wall and CPU (user + system) seconds of a whole command, interpreter start included."""
    walls, cpus = [], []
    for _ in range(repeat + 1):  # the first run warms the page cache, uncounted
        before = os.times()
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = os.times()
        cpus.append(
            after.children_user - before.children_user + after.children_system - before.children_system
        )
    return statistics.median(walls[1:]), statistics.median(cpus[1:])


def task_startup(data: Path, repeat: int) -> list[tuple[str, list[Timing]]]:
    """What a command costs before it works: --version, and BLEU of a 3-line file, beside sacrebleu
    (a table per command; whole processes, interpreter start included)."""
    folder = Path(tempfile.mkdtemp(prefix="understudy-bench-"))
    ref, hyp = folder / "ref.de", folder / "hyp.de"
    ref.write_text("".join(read(str(data / "newstest2017.ref.en-de.de"))[k] + "\n" for k in range(3)))
    hyp.write_text("".join(read(str(data / "newstest2017.online-A.0.en-de.de"))[k] + "\n" for k in range(3)))
    bin_dir = Path(sys.executable).parent
    us, sb = str(bin_dir / "understudy"), str(bin_dir / "sacrebleu")
    # Both packages' bytecode current, as an installed wheel's is: an editable install's stale
    # .pyc (with PYTHONDONTWRITEBYTECODE set, never rewritten) would be compiled on every start.
    import sacrebleu
    import understudy

    for package in (understudy, sacrebleu):
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(Path(package.__file__).parent)], check=True
        )
    commands = [
        ("--version", [us, "--version"], [sb, "--version"]),
        (
            "REF -i HYP -b, 3 lines",
            [us, str(ref), "-i", str(hyp), "-b"],
            [sb, str(ref), "-i", str(hyp), "-b"],
        ),
        (
            "score -m bleu, 3 lines",
            [us, "score", str(ref), "-i", str(hyp), "-m", "bleu"],
            [sb, str(ref), "-i", str(hyp), "-m", "bleu"],
        ),
    ]
    tables = []
    for k, (what, ours, theirs) in enumerate(commands):
        rows = []
        for tool, argv in (("understudy", ours), ("sacrebleu", theirs)):
            wall, cpu = process_times(argv, repeat)
            rows.append(Timing(tool, wall, f"CPU {cpu * 1000:.0f} ms"))
        tables.append((f"25{'abc'[k]}. Start-up: {what}", rows))
    shutil.rmtree(folder)
    return tables


def task_stream(data: Path, repeat: int, slow_repeat: int) -> list[Timing]:
    folder = Path(tempfile.mkdtemp(prefix="understudy-bench-"))
    try:
        ref, hyp = make_stream_files(data, folder, STREAM_SEGMENTS)
        small_ref, small_hyp = make_stream_files(data, folder, STREAM_SEGMENTS // 10)
        size_mb = (os.path.getsize(ref) + os.path.getsize(hyp)) / 1e6
        runs = {
            "understudy score (CLI)": ([ref, "-i", hyp], repeat),
            "sacrebleu (CLI)": ([ref, "-i", hyp], slow_repeat),
            f"understudy score (CLI), {STREAM_SEGMENTS // 10:,} segments": (
                [small_ref, "-i", small_hyp],
                repeat,
            ),
        }
        rows = []
        for label, (args, n) in runs.items():
            tool = ["sacrebleu"] if label.startswith("sacrebleu") else ["understudy.cli", "score"]
            measured = [run_measured([sys.executable, "-m", *tool, *args, "-b"]) for _ in range(n)]
            note = "memory: the same at a tenth of the input" if "segments" in label else ""
            rows.append(
                Timing(label, statistics.median(t for t, _ in measured), note, max(m for _, m in measured))
            )
        rows.append(Timing("wc -w on the 2 files", wc_words([ref, hyp], repeat), f"{size_mb:.0f} MB of text"))
        return rows
    finally:
        shutil.rmtree(folder)


DASK_SEGMENTS = 10_000_000
DASK_SHARDS = 20


def make_shards(data: Path, folder: Path, segments: int, shards: int) -> tuple[str, str]:
    """The WMT17 reference and one system repeated to ``segments`` lines, written both whole
    (for the single-process CLI) and cut into ``shards`` files each (for the workers)."""
    paths = []
    per_shard = -(-segments // shards)
    for name in ("ref", "uedin-nmt.4722"):
        lines = (data / f"newstest2017.{name}.en-de.de").read_bytes().splitlines(keepends=True)
        whole = folder / f"{name}.de"
        with open(whole, "wb") as out:
            for k in range(shards):
                with open(folder / f"{name}.shard{k:03d}.de", "wb") as shard:
                    block = b"".join(
                        lines[i % len(lines)]
                        for i in range(k * per_shard, min(segments, (k + 1) * per_shard))
                    )
                    shard.write(block)
                    out.write(block)
        paths.append(str(whole))
    return paths[0], paths[1]


def _worker_peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def task_dask(data: Path, repeat: int, segments: int) -> list[Timing]:
    """Sharded files on a 2-worker LocalCluster against the single-process command line."""
    from distributed import Client, LocalCluster
    from understudy import BLEU
    from understudy.execution import dask as ud

    folder = Path(tempfile.mkdtemp(prefix="understudy-dask-"))
    try:
        ref, hyp = make_shards(data, folder, segments, DASK_SHARDS)
        rows = []
        for label, extra in (
            ("understudy score (CLI), 1 process, 2 cores", []),
            ("... 1 process, 1 core (-j 1)", ["-j", "1"]),
        ):
            measured = [
                run_measured([sys.executable, "-m", "understudy", ref, "-i", hyp, "-b", *extra])
                for _ in range(repeat)
            ]
            seconds = statistics.median(t for t, _ in measured)
            rows.append(
                Timing(
                    label,
                    seconds,
                    f"{segments / seconds / 1e6:.2f} M segments/s",
                    max(m for _, m in measured),
                )
            )
        start = time.perf_counter()
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        with cluster, Client(cluster) as client:
            startup = time.perf_counter() - start
            times = []
            for _ in range(repeat):
                t0 = time.perf_counter()
                ud.corpus_score_files(
                    BLEU(), str(folder / "uedin-nmt.4722.shard*.de"), [str(folder / "ref.shard*.de")]
                )
                times.append(time.perf_counter() - t0)
            peaks = client.run(_worker_peak_mb)
        seconds = statistics.median(times)
        per_worker = segments / seconds / 2 / 1e6
        rows.append(
            Timing(
                f"understudy.execution.dask, 2 workers x 1 thread, {DASK_SHARDS} shards",
                seconds,
                f"{segments / seconds / 1e6:.2f} M segments/s ({per_worker:.2f} M per worker); "
                f"cluster start {startup:.1f} s not included",
                max(peaks.values()),
            )
        )
        measured = [
            run_measured([sys.executable, "-m", "understudy", ref, "-i", hyp, "-b", "--dask", "local"])
            for _ in range(repeat)
        ]
        seconds = statistics.median(t for t, _ in measured)
        rows.append(
            Timing(
                "understudy score --dask local (CLI: chunks sent to workers)",
                seconds,
                "cluster start included; memory of the reading process",
                max(m for _, m in measured),
            )
        )
        return rows
    finally:
        shutil.rmtree(folder)


def open_time(page: Path, repeat: int) -> float | None:
    """Median seconds from navigation start to the load event, in headless Chromium (``None`` without it)."""
    if (
        shutil.which("chromium") is None
        or shutil.which("chromedriver") is None
        or optional("selenium") is None
    ):
        return None
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = shutil.which("chromium") or ""
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or ""), options=options)
    script = "const t = performance.getEntriesByType('navigation')[0]; return t.loadEventEnd - t.startTime"
    try:
        times = []
        for _ in range(max(3, repeat)):
            driver.get("about:blank")
            driver.get(page.as_uri())
            times.append(driver.execute_script(script) / 1000)
        return statistics.median(times)
    finally:
        driver.quit()


REPORT_LARGE_COPIES = 40
"""The large report's corpus: the WMT17 test set 40 times over (120,160 segments), three systems."""


def task_report(data: Path, repeat: int, copies: int = 1) -> list[Timing]:
    """The HTML report of the 16 WMT17 systems (BLEU, chrF, TER; 1000 resamples), whole command;
    with ``copies`` > 1, of three systems on the test set repeated that many times."""
    folder = Path(tempfile.mkdtemp(prefix="understudy-report-"))
    try:
        sys_paths = sorted(p for p in glob.glob(str(data / "newstest2017.*.de")) if ".ref." not in p)
        ref = str(data / "newstest2017.ref.en-de.de")
        if copies > 1:
            sys_paths = [p for p in sys_paths if any(k in p for k in ("uedin", "online-A", "PROMT"))]
            for path in [ref, *sys_paths]:
                (folder / Path(path).name).write_text(
                    Path(path).read_text(encoding="utf-8") * copies, encoding="utf-8"
                )
            ref, sys_paths = str(folder / Path(ref).name), [str(folder / Path(p).name) for p in sys_paths]
        common = [ref, "-i", *sys_paths, "-m", "bleu", "chrf", "ter"]
        rows = []
        for label, argv, note in (
            ("understudy report", ["report", *common, "-o", str(folder / "report.html")], ""),
            ("understudy compare (the rankings alone)", ["compare", *common], "no page"),
        ):
            measured = [run_measured([sys.executable, "-m", "understudy", *argv]) for _ in range(repeat)]
            seconds = statistics.median(t for t, _ in measured)
            size = (folder / "report.html").stat().st_size / 1e6 if argv[0] == "report" else 0
            rows.append(
                Timing(
                    label,
                    seconds,
                    note or f"a {size:.1f} MB page",
                    max(m for _, m in measured),
                )
            )
        opened = open_time(folder / "report.html", repeat)
        if opened is not None:
            rows.append(
                Timing("headless Chromium opens the page", opened, "navigation start to load event end")
            )
        return rows
    finally:
        shutil.rmtree(folder)


def task_wer(data: Path, repeat: int, slow_repeat: int, what: str) -> list[Timing]:
    """WER and CER beside jiwer 4 (C++ alignment by rapidfuzz), with identical numbers."""
    import jiwer
    from understudy.metrics.wer import CER, WER

    ref, systems = _systems(data)
    if what == "corpus":
        return [
            Timing(
                "understudy WER.corpus_scores",
                median_time(lambda: WER(references=[ref]).corpus_scores(systems), repeat),
            ),
            Timing(
                "jiwer.wer, one system at a time",
                median_time(lambda: [jiwer.wer(ref, h) for h in systems], slow_repeat),
            ),
            Timing(
                "understudy CER.corpus_scores",
                median_time(lambda: CER(references=[ref]).corpus_scores(systems), repeat),
            ),
            Timing(
                "jiwer.cer, one system at a time",
                median_time(lambda: [jiwer.cer(ref, h) for h in systems], slow_repeat),
            ),
        ]
    if what == "sentence":
        hyps = systems[0]
        return [
            Timing(
                "understudy WER.sentence_scores",
                median_time(lambda: WER().sentence_scores(hyps, [ref]), repeat),
            ),
            Timing(
                "jiwer.wer per sentence",
                median_time(lambda: [jiwer.wer(r, h) for r, h in zip(ref, hyps, strict=True)], slow_repeat),
            ),
        ]
    hyps, refs = systems[0][:500], ref[:500]
    return [
        Timing("understudy WER.pairwise", median_time(lambda: WER().pairwise(hyps, refs), repeat)),
        Timing(
            "jiwer.wer per pair",
            median_time(lambda: [[jiwer.wer(r, h) for r in refs] for h in hyps], slow_repeat),
        ),
    ]


def task_gleu(data: Path, repeat: int, slow_repeat: int, what: str) -> list[Timing]:
    """GLEU beside NLTK's gleu_score, given 13a tokens ready-made (HF evaluate's google_bleu
    tokenizes the same way first); understudy's time includes its own tokenization."""
    from nltk.translate.gleu_score import corpus_gleu, sentence_gleu
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from understudy.metrics.gleu import GLEU

    ref, systems = _systems(data)
    tok = Tokenizer13a()
    their_refs = [[tok(r).split()] for r in ref]
    if what == "corpus":
        their_systems = [[tok(h).split() for h in hyps] for hyps in systems]
        ours = [r.score for r in GLEU(references=[ref]).corpus_scores(systems)]
        if ours != [corpus_gleu(their_refs, hyps) for hyps in their_systems]:
            raise SystemExit("GLEU differs from NLTK's corpus_gleu")
        return [
            Timing(
                "understudy GLEU.corpus_scores",
                median_time(lambda: GLEU(references=[ref]).corpus_scores(systems), repeat),
            ),
            Timing(
                "nltk corpus_gleu, one system at a time",
                median_time(lambda: [corpus_gleu(their_refs, h) for h in their_systems], slow_repeat),
                "tokens given",
            ),
        ]
    hyps = systems[0]
    their_hyps = [tok(h).split() for h in hyps]
    pairs = list(zip(their_refs, their_hyps, strict=True))
    if GLEU().sentence_scores(hyps, [ref]).tolist() != [sentence_gleu(r, h) for r, h in pairs]:
        raise SystemExit("GLEU differs from NLTK's sentence_gleu")
    return [
        Timing(
            "understudy GLEU.sentence_scores",
            median_time(lambda: GLEU().sentence_scores(hyps, [ref]), repeat),
        ),
        Timing(
            "nltk sentence_gleu per sentence",
            median_time(lambda: [sentence_gleu(r, h) for r, h in pairs], slow_repeat),
            "tokens given",
        ),
    ]


def _mteval_timings(mteval: Path, ref: list[str], systems: list[list[str]], slow_repeat: int) -> list[Timing]:
    """mteval-v13a.pl itself (Perl, outside the repository: see scripts/mteval_fixtures.py) beside
    understudy's default NIST (mteval's lowercasing and its "0" bug), all 16 systems in one call."""
    import importlib.util

    from understudy.metrics.nist import NIST

    spec = importlib.util.spec_from_file_location("mteval_fixtures", REPO / "scripts" / "mteval_fixtures.py")
    assert spec is not None and spec.loader is not None
    fixtures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixtures)
    named = {f"system{k}": hyps for k, hyps in enumerate(systems)}
    _, theirs, _ = fixtures.run_mteval(mteval, {"ref": ref}, named, False)
    ours = [r.score for r in NIST(references=[ref]).corpus_scores(systems)]
    if max(abs(a - theirs[name]) for a, name in zip(ours, named, strict=True)) > 1e-8:
        raise SystemExit("NIST differs from mteval-v13a.pl's")
    return [
        Timing(
            "understudy NIST.corpus_scores, mteval's options",
            median_time(lambda: NIST(references=[ref]).corpus_scores(systems), slow_repeat),
        ),
        Timing(
            "mteval-v13a.pl -n, 16 systems in one call",
            median_time(lambda: fixtures.run_mteval(mteval, {"ref": ref}, named, False), slow_repeat),
            "NIST and BLEU (-n: no BLEU it cannot skip)",
        ),
    ]


def task_nist(data: Path, repeat: int, slow_repeat: int, mteval: Path | None = None) -> list[Timing]:
    """Corpus NIST of the 16 systems beside NLTK's corpus_nist, given 13a tokens with case kept (where
    NLTK follows mteval: one reference; understudy with fix_zero, as NLTK has no "0" bug)."""
    from nltk.translate.nist_score import corpus_nist
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from understudy.metrics.nist import NIST

    ref, systems = _systems(data)
    tok = Tokenizer13a()
    their_refs = [[tok(r).split()] for r in ref]
    their_systems = [[tok(h).split() for h in hyps] for hyps in systems]
    ours = [r.score for r in NIST(True, True, references=[ref]).corpus_scores(systems)]
    theirs = [corpus_nist(their_refs, hyps, 5) for hyps in their_systems]
    if max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) > 1e-8:
        raise SystemExit("NIST differs from NLTK's corpus_nist")
    return [
        Timing(
            "understudy NIST.corpus_scores",
            median_time(lambda: NIST(True, True, references=[ref]).corpus_scores(systems), repeat),
        ),
        Timing(
            "nltk corpus_nist, one system at a time",
            median_time(lambda: [corpus_nist(their_refs, h, 5) for h in their_systems], slow_repeat),
            "tokens given",
        ),
    ] + ([] if mteval is None else _mteval_timings(mteval, ref, systems, slow_repeat))


def synthetic_scores(n_systems: int = 16, segments: int = 3004, seed: int = 2017) -> list[object]:
    """COMET-like segment scores (0..1), seeded: a stand-in for a GPU metric's output."""
    import numpy as np

    rng = np.random.default_rng(seed)
    quality = rng.normal(0.8, 0.01, n_systems)
    return [np.clip(rng.beta(8, 2, segments) + q - 0.8, 0, 1) for q in quality]


def comet_compare_algorithm(scores: list[object], seed: int = 12345) -> None:
    """comet-compare's published tests on given scores (Unbabel/COMET, comet/cli/compare.py),
    written here from its description: for every pair of systems a paired t-test
    (scipy.stats.ttest_rel), and bootstrap resampling with 300 splits of 40% of the segments
    counting each system's wins and ties."""
    import numpy as np
    import scipy.stats

    matrix = np.array(scores, dtype=np.float32)  # comet-compare keeps float32 scores
    n = matrix.shape[1]
    ids = np.random.default_rng(seed).choice(n, size=(int(0.4 * n), 300), replace=True)
    means = np.take(matrix, ids, axis=1).mean(axis=1)  # systems x splits
    for a in range(len(matrix)):
        for b in range(a + 1, len(matrix)):
            scipy.stats.ttest_rel(matrix[a], matrix[b])
            delta = means[a] - means[b]
            (np.abs(delta) < 1e-4).sum(), (delta >= 1e-4).sum(), (delta <= -1e-4).sum()


def _ledger_timings(new: Any, backend: str, stats: list[Any], repeat: int) -> tuple[list[Timing], str]:
    """Appending a 16-system run, a tag's records and history among 10,000, on one backend; the
    timings and the big ledger's location. ``new()`` gives a new, empty ledger's location."""
    from understudy import BLEU
    from understudy.ledger import Ledger

    runs = new()  # runs appended to one ledger, as a team's accumulate (a new one is not timed)
    Ledger(runs).close()

    def append_run() -> None:
        with Ledger(runs) as ledger:
            for k, s in enumerate(stats):
                ledger.append(s, f"system-{k}", "wmt17:en-de", tags=["bench"])

    big = new()
    small = BLEU().segment_stats(["a b c d", "a b c e"] * 5, [["a b c d"] * 10])
    with Ledger(big) as ledger:
        for k in range(10_000):
            ledger.append(small, f"ckpt-{k % 100}", "toy", tags=[f"run-{k % 100}"])
        ledger.append(stats[0], "base", "wmt17:en-de")
        ledger.append(stats[1], "new", "wmt17:en-de")

    def listing() -> None:
        with Ledger(big) as ledger:
            assert len(ledger.records(tag="run-7")) == 100

    def history() -> None:
        with Ledger(big) as ledger:
            assert len(ledger.history(tag="run-7")) == 100

    timings = [
        Timing(
            f"Ledger.append of 16 systems x 3004 segments (BLEU), {backend}", median_time(append_run, repeat)
        ),
        Timing(f"Ledger.records(tag=...) among 10,000 records, {backend}", median_time(listing, repeat)),
        Timing(
            f"Ledger.history(tag=...) among 10,000 records, {backend}",
            median_time(history, repeat),
            "100 records, 1000 resamples each",
        ),
    ]
    return timings, big


def _postgresql_ledgers() -> tuple[Any, Any] | None:
    """A PostgreSQL server of the tests' kind (tests/support/postgres_server.py) and a maker of new
    databases on it; None when the server programs are not installed."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.support import postgres_server

    try:
        server = postgres_server.start()
    except (OSError, KeyError, RuntimeError) as err:
        print(f"bench: no PostgreSQL server ({err}); its rows are left out", file=sys.stderr)
        return None
    return server, server.database


def task_ledger(data: Path, repeat: int) -> list[Timing]:
    """The ledger on SQLite and PostgreSQL: appending a 16-system run, a tag's records and history
    among 10,000, and the gate from kept rows beside ``score --paired-bs`` on the same two files
    (both as the command line runs them)."""
    import subprocess
    import tempfile

    from understudy import BLEU

    ref, systems = _systems(data)
    stats = BLEU(references=[ref]).segment_stats_many(systems)
    folder = Path(tempfile.mkdtemp(prefix="understudy-bench-ledger-"))
    made = iter(range(1_000_000))
    timings, big = _ledger_timings(lambda: str(folder / f"l-{next(made)}.sqlite"), "SQLite", stats, repeat)
    postgresql = _postgresql_ledgers()
    if postgresql is not None:
        server, new = postgresql
        try:
            timings += _ledger_timings(new, "PostgreSQL", stats, repeat)[0]
        finally:
            server.stop()
    cli = [sys.executable, "-m", "understudy"]
    gate = [*cli, "gate", "--baseline", "ledger:10001", "--candidate", "ledger:10002", "--ledger", big]
    ref_path = str(data / "newstest2017.ref.en-de.de")
    paths = sorted(p for p in glob.glob(str(data / "newstest2017.*.de")) if ".ref." not in p)[:2]
    paired = [*cli, "score", ref_path, "-i", *paths, "--paired-bs", "-f", "text"]
    return [
        *timings,
        Timing(
            "understudy gate ledger:A ledger:B (1000 resamples)",
            median_time(lambda: subprocess.run(gate, check=False, capture_output=True), repeat),
            "a process, from kept rows",
        ),
        Timing(
            "understudy score REF -i A B --paired-bs",
            median_time(lambda: subprocess.run(paired, check=True, capture_output=True), repeat),
            "a process, reading and scoring the files",
        ),
    ]


def task_given(data: Path, repeat: int, test: str) -> list[Timing]:
    """A test on given segment scores (16 systems x 3004, synthetic COMET-like), beside the same
    test on BLEU's statistics and, for the bootstrap, comet-compare's algorithm on the same scores."""
    from understudy import BLEU
    from understudy.metrics.scores import GivenScores
    from understudy.significance import all_pairs, paired_test

    scores = synthetic_scores()
    names = [f"system {k + 1}" for k in range(len(scores))]
    ref, systems = _systems(data)
    bleu = BLEU(references=[ref]).segment_stats_many(systems)

    def given() -> list[object]:
        return list(GivenScores(dict(zip(names, scores, strict=True)), "COMET-22").segment_stats_many())

    def run(stats: object) -> object:
        if test == "pairs":
            return all_pairs(stats, names, "bs", 1000)  # type: ignore[arg-type]
        return paired_test(stats, names, test, 1000 if test == "bs" else 10000)  # type: ignore[arg-type]

    label = {
        "bs": "paired_test bs 1000",
        "ar": "paired_test ar 10000",
        "pairs": "all_pairs bs 1000 + clusters",
    }[test]
    rows = [
        Timing(
            f"understudy {label}, given scores",
            median_time(lambda: run(given()), repeat),
            "scores to rows included",
        ),
        Timing(
            f"understudy {label}, BLEU", median_time(lambda: run(bleu), repeat), "BLEU rows already counted"
        ),
    ]
    if test != "ar":
        note = "t-test and 300 x 40% bootstrap of every pair; its published algorithm, in NumPy/SciPy here"
        rows.append(
            Timing(
                "comet-compare's algorithm",
                median_time(lambda: comet_compare_algorithm(scores), repeat),
                note,
            )
        )
    return rows


LONG_LINE_BYTES = 100_000_000

LONG_LINE_SCRIPT = """
import sys
from understudy import BLEU
hyp = open(sys.argv[1], encoding="utf-8").read().rstrip("\\n")
ref = open(sys.argv[2], encoding="utf-8").read().rstrip("\\n")
if sys.argv[3] == "score":
    BLEU().corpus_score([hyp], [[ref]])
"""


def task_long_line(data: Path, repeat: int) -> list[Timing]:
    """BLEU of one 100 MB hypothesis line against one 100 MB reference line (WMT17 text)."""
    folder = Path(tempfile.mkdtemp(prefix="understudy-long-"))
    try:
        paths = []
        for name in ("uedin-nmt.4722", "ref"):
            text = " ".join((data / f"newstest2017.{name}.en-de.de").read_text(encoding="utf-8").splitlines())
            line = (" ".join([text] * (LONG_LINE_BYTES // len(text.encode()) + 1))).encode()[:LONG_LINE_BYTES]
            path = folder / f"{name}.line"
            path.write_bytes(line.decode("utf-8", "ignore").rsplit(" ", 1)[0].encode() + b"\n")
            paths.append(str(path))
        rows = []
        for what, label in (
            ("score", "understudy BLEU (API), the whole process"),
            ("read", "reading the two lines only"),
        ):
            measured = [
                run_measured([sys.executable, "-c", LONG_LINE_SCRIPT, *paths, what]) for _ in range(repeat)
            ]
            rows.append(
                Timing(label, statistics.median(t for t, _ in measured), "", max(m for _, m in measured))
            )
        return rows
    finally:
        shutil.rmtree(folder)


TED = REPO.parent / "shared" / "data" / "wmt21-ted-zh-en-mqm"


def _ted_matrices() -> tuple[object, object, object]:
    """WMT21 TED zh-en: MQM segment scores and sentence BLEU and chrF, 13 systems x 529 segments."""
    import numpy as np
    from understudy import BLEU, CHRF

    systems = sorted(p.stem for p in TED.glob("*.txt") if not p.stem.startswith("ref-"))
    human = np.full((len(systems), 529), np.nan)
    for row in (TED / "mqm_segment_scores.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        name, segment, score = row.split("\t")
        if name in systems:
            human[systems.index(name), int(segment) - 1] = float(score)
    ref = [read(str(TED / "ref-B.txt"))]
    texts = [read(str(TED / f"{s}.txt")) for s in systems]
    bleu = np.array([BLEU(effective_order=True).sentence_scores(t, ref) for t in texts])
    chrf = np.array([CHRF().sentence_scores(t, ref) for t in texts])
    return human, chrf, bleu


def _ted_stats() -> dict[str, list[object]]:
    """Each system's BLEU, chrF and TER statistics against ref-B (the corpus metrics)."""
    from understudy import BLEU, CHRF, TER

    systems = sorted(p.stem for p in TED.glob("*.txt") if not p.stem.startswith("ref-"))
    ref = [read(str(TED / "ref-B.txt"))]
    texts = [read(str(TED / f"{s}.txt")) for s in systems]
    return {type(m).__name__: [m.segment_stats(t, ref) for t in texts] for m in (BLEU(), CHRF(), TER())}


def _mtme(path: Path) -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location("mtme_fixtures", REPO / "scripts" / "mtme_fixtures.py")
    assert spec is not None and spec.loader is not None
    fixtures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixtures)
    return fixtures.load(path)


def token_id_corpus(data: Path) -> tuple[list[list[int]], list[list[int]], list[str], list[str]]:
    """System 1 and the reference of WMT17 as token ids (13a tokens, ids by first occurrence), and
    the same tokens as text ("decoded"): what an RL loop scores and what sacrebleu is given."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    ref, systems = _systems(data)
    tok, vocabulary = Tokenizer13a(), {}
    decoded = ([tok(h) for h in systems[0]], [tok(r) for r in ref])
    hyp_ids, ref_ids = (
        [[vocabulary.setdefault(w, len(vocabulary)) for w in line.split()] for line in side]
        for side in decoded
    )
    return hyp_ids, ref_ids, *decoded


def task_token_ids(data: Path, repeat: int, slow_repeat: int) -> list[Timing]:
    """Sentence BLEU of 3004 segments given as token ids, beside NLTK's sentence_bleu on the same
    ids (smoothing method 1, as RL rewards use it), understudy.nltk's (NLTK's numbers) and
    sacrebleu's sentence_bleu on the decoded text."""
    import warnings

    import numpy as np
    import sacrebleu
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    from understudy import BLEU
    from understudy.nltk import bleu_score

    hyp_ids, ref_ids, hyps, refs = token_id_corpus(data)
    arrays = ([np.array(h) for h in hyp_ids], [np.array(r) for r in ref_ids])
    metric = BLEU(effective_order=True)
    theirs = [sacrebleu.sentence_bleu(h, [r], tokenize="none").score for h, r in zip(hyps, refs, strict=True)]
    if metric.sentence_scores(arrays[0], [arrays[1]]).tolist() != theirs:
        raise SystemExit("sentence BLEU of token ids differs from sacrebleu's on the decoded text")
    method1, ours = SmoothingFunction().method1, bleu_score.SmoothingFunction().method1
    pairs = list(zip(ref_ids, hyp_ids, strict=True))
    if [bleu_score.sentence_bleu([r], h, smoothing_function=ours) for r, h in pairs] != [
        sentence_bleu([r], h, smoothing_function=method1) for r, h in pairs
    ]:
        raise SystemExit("understudy.nltk differs from NLTK's sentence_bleu")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [
            Timing(
                "understudy BLEU.sentence_scores, NumPy arrays",
                median_time(lambda: metric.sentence_scores(arrays[0], [arrays[1]]), repeat),
            ),
            Timing(
                "understudy BLEU.sentence_scores, lists of ints",
                median_time(lambda: metric.sentence_scores(hyp_ids, [ref_ids]), repeat),
            ),
            Timing(
                "nltk sentence_bleu per sentence (method1)",
                median_time(
                    lambda: [sentence_bleu([r], h, smoothing_function=method1) for r, h in pairs], slow_repeat
                ),
                "the same ids",
            ),
            Timing(
                "understudy.nltk sentence_bleu per sentence (method1)",
                median_time(
                    lambda: [bleu_score.sentence_bleu([r], h, smoothing_function=ours) for r, h in pairs],
                    slow_repeat,
                ),
                "NLTK's numbers, one call a sentence",
            ),
            Timing(
                "sacrebleu sentence_bleu per sentence",
                median_time(
                    lambda: [
                        sacrebleu.sentence_bleu(h, [r], tokenize="none")
                        for h, r in zip(hyps, refs, strict=True)
                    ],
                    slow_repeat,
                ),
                "the decoded text",
            ),
        ]


def task_meta(repeat: int, slow_repeat: int, mtme: Path | None) -> list[tuple[str, list[Timing]]]:
    """WMT24's meta-evaluation on TED zh-en: each computation beside mt-metrics-eval's (--mtme),
    PERM-BOTH with 1000 resamples and no early stopping (the same draws on both sides)."""
    import functools

    import numpy as np
    import scipy.stats
    from understudy.correlation.perm_both import EarlyStopping, pairs_perm_both, perm_both
    from understudy.correlation.spa import soft_pairwise_accuracy, spa_corpus
    from understudy.correlation.ties import tie_calibrated_accuracy

    human, chrf, bleu = _ted_matrices()
    n, k = len(human), 1000
    whole = EarlyStopping(k)
    m = _mtme(mtme) if mtme is not None else None
    packed = [float(v) for v in np.asarray(human).reshape(-1)]
    corr = (
        None
        if m is None
        else [m.stats.Correlation(n, packed, [float(v) for v in x.reshape(-1)]) for x in (bleu, chrf)]
    )
    params = None if m is None else m.stats.PermutationSigDiffParams(k, 0.02, 0.5)
    ours: dict[str, Callable[[], object]] = {
        "SPA (1000 permutations), one metric": lambda: soft_pairwise_accuracy(chrf, human),
        "acc-eq by item": lambda: tie_calibrated_accuracy(chrf, human, "item"),
        "acc-eq by system": lambda: tie_calibrated_accuracy(chrf, human, "system"),
        "acc-eq by none (23.6M pairs)": lambda: tie_calibrated_accuracy(chrf, human, "none"),
        "PERM-BOTH Pearson by none": lambda: perm_both("pearson", chrf, bleu, human, "none", k, 1, whole),
        "PERM-BOTH Pearson by system": lambda: perm_both("pearson", chrf, bleu, human, "system", k, 1, whole),
        "PERM-BOTH Pearson by item": lambda: perm_both("pearson", chrf, bleu, human, "item", k, 1, whole),
        "PERM-BOTH SPA": lambda: perm_both("spa", chrf, bleu, human, "none", k, 1, whole),
        "PERM-BOTH acc-eq as WMT24 (pairs, by item)": lambda: pairs_perm_both(
            chrf, bleu, human, "item", k, 1, whole
        ),
    }
    for name, stats in _ted_stats().items():
        ours[f"spa-corpus, {name}"] = lambda stats=stats: spa_corpus(stats, human)
    theirs: dict[str, tuple[Callable[[], object], float]] = {}
    if m is not None:
        pce = functools.partial(m.stats.PairwiseConfidenceError, num_sys=n, filter_nones=False)

        def sig(fn: object, by: str, runs: int = k, **extra: object) -> Callable[[], object]:
            return lambda: m.stats.PermutationSigDiff(corr[1], corr[0], fn, by, runs, params, False, **extra)

        theirs = {
            "SPA (1000 permutations), one metric": (lambda: corr[1].PairwiseConfidenceError(), 1),
            "acc-eq by item": (lambda: corr[1].KendallWithTiesOpt("item", "acc23", 1.0), 1),
            "acc-eq by system": (lambda: corr[1].KendallWithTiesOpt("sys", "acc23", 1.0), 1),
            "PERM-BOTH Pearson by none": (sig(scipy.stats.pearsonr, "none"), 1),
            "PERM-BOTH Pearson by system": (sig(scipy.stats.pearsonr, "sys"), 1),
            "PERM-BOTH Pearson by item": (sig(scipy.stats.pearsonr, "item", 100), 10),
            "PERM-BOTH SPA": (sig(pce, "none"), 1),
            "PERM-BOTH acc-eq as WMT24 (pairs, by item)": (
                lambda: m.stats.PairwisePermutationSigDiff(corr[1], corr[0], "acc23", "item", k, params),
                1,
            ),
        }
    tables = []
    for name, fn in ours.items():
        rows = [Timing("understudy", median_time(fn, repeat if "PERM" not in name else slow_repeat))]
        if name in theirs:
            run, scale = theirs[name]
            note = f"{k // scale} resamples, time x {scale}" if scale > 1 else ""
            rows.append(
                Timing(
                    "mt-metrics-eval", scale * median_time(run, 1 if "PERM" in name else slow_repeat), note
                )
            )
        elif m is not None:
            why = "cannot: no corpus metric" if "corpus" in name else "enumerates every pair in Python lists"
            rows.append(Timing("mt-metrics-eval", float("nan"), why))
        tables.append((f"20. {name}, TED zh-en 13 x 529", rows))
    return tables


TORCHMETRICS_CLASSES = {
    "tm-bleu": "BLEUScore",
    "tm-sacrebleu": "SacreBLEUScore",
    "tm-chrf": "CHRFScore",
    "tm-ter": "TranslationEditRate",
    "tm-wer": "WordErrorRate",
}


def task_torchmetrics(data: Path, repeat: int, slow_repeat: int, name: str) -> list[Timing]:
    """One torchmetrics class, update over system 1 of WMT17 and compute, as understudy.torchmetrics
    and as torchmetrics 1.9.0 run it (the numbers checked first: equal, or within the size of the
    documented difference)."""
    import torchmetrics.text as tm
    from understudy.torchmetrics import text as us

    ref, systems = _systems(data)
    hyps = systems[0]
    target: list[Any] = ref if name == "WordErrorRate" else [[line] for line in ref]

    def run(module: Any) -> Any:
        metric = getattr(module, name)()
        metric.update(hyps, target)
        return metric.compute()

    ours, theirs = float(run(us)), float(run(tm))
    if abs(ours - theirs) > 1e-3:  # TER's shifts differ by up to 0.00051 on WMT17 (README)
        raise SystemExit(f"understudy.torchmetrics' {name} differs from torchmetrics': {ours} != {theirs}")
    return [
        Timing(f"understudy.torchmetrics {name}", median_time(lambda: run(us), repeat)),
        Timing(
            f"torchmetrics {name}", median_time(lambda: run(tm), slow_repeat), f"{theirs:.4f} vs {ours:.4f}"
        ),
    ]


def table(title: str, rows: list[Timing], markdown: bool) -> str:
    return render(title, [dataclasses.asdict(row) for row in rows], markdown)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder with the 17 WMT17 files")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions per measurement (median)")
    parser.add_argument("--quick", action="store_true", help="3 repetitions; the slow peers' long runs once")
    parser.add_argument(
        "--tasks",
        nargs="+",
        default=[
            "corpus",
            "sentence",
            "pairwise",
            "stream",
            "paired-bs",
            "paired-ar",
            "chrf",
            "chrfpp",
            "ter",
            "ter-sentence",
            "chrf-pairwise",
            "ja-mecab",
            "given-bs",
            "given-ar",
            "given-pairs",
            "wer",
            "wer-sentence",
            "wer-pairwise",
            "gleu",
            "gleu-sentence",
            "nist",
            "ledger",
            "meta",
            "token-ids",
            "startup",
        ],
    )
    parser.add_argument("--dask-segments", type=int, default=DASK_SEGMENTS, help="segments of the dask task")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables")
    parser.add_argument(
        "--save", type=Path, help="also write the tables to this JSON file (docs/speed.md renders them)"
    )
    parser.add_argument(
        "--mtme",
        type=Path,
        help="a folder holding mt_metrics_eval/ (google-research/mt-metrics-eval, not on PyPI): the "
        "meta task times it too (see scripts/mtme_fixtures.py)",
    )
    parser.add_argument(
        "--mteval",
        type=Path,
        help="mteval-v13a.pl (from moses-smt/mosesdecoder, not shipped here): the nist task times it too",
    )
    args = parser.parse_args()
    repeat = 3 if args.quick else args.repeat
    slow_repeat = 1 if args.quick else 3
    if not (args.data / "newstest2017.ref.en-de.de").exists():
        parser.error(f"WMT17 data not found in {args.data} (use --data)")
    from understudy import BLEU

    machine = (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"understudy threads: {BLEU().threads}; median of {repeat} (slow peers: {slow_repeat})"
    )
    print(machine + "\n")
    runs = {
        "corpus": ("1. Corpus BLEU, 16 WMT17 systems", lambda: task_corpus(args.data, repeat)),
        "sentence": ("2. Sentence BLEU, 3004 segments", lambda: task_sentence(args.data, repeat)),
        "pairwise": ("3. All pairs, 500 x 500", lambda: task_pairwise(args.data, repeat, slow_repeat)),
        "paired-bs": (
            "5. Paired bootstrap (1000 resamples), 16 systems",
            lambda: task_paired(args.data, repeat, slow_repeat, "bs"),
        ),
        "paired-ar": (
            "6. Paired approximate randomization (10000 trials), 16 systems",
            lambda: task_paired(args.data, repeat, slow_repeat, "ar"),
        ),
        "stream": (
            f"4. Streaming {STREAM_SEGMENTS:,} segments",
            lambda: task_stream(args.data, repeat, slow_repeat),
        ),
        "chrf": (
            "7. Corpus chrF, 16 WMT17 systems",
            lambda: task_metric_corpus(args.data, repeat, slow_repeat, "chrf"),
        ),
        "chrfpp": (
            "8. Corpus chrF++, 16 WMT17 systems",
            lambda: task_metric_corpus(args.data, repeat, slow_repeat, "chrfpp"),
        ),
        "ter": (
            "9. Corpus TER, 16 WMT17 systems",
            lambda: task_metric_corpus(args.data, repeat, slow_repeat, "ter"),
        ),
        "ter-sentence": (
            "10. Sentence TER, 3004 segments",
            lambda: task_ter_sentence(args.data, repeat, slow_repeat),
        ),
        "chrf-pairwise": (
            "11. All pairs chrF, 500 x 500",
            lambda: task_chrf_pairwise(args.data, repeat, slow_repeat),
        ),
        "mbr-chrf": (
            "28a. Exact MBR with chrF, 300 sources x 32 candidates",
            lambda: task_mbr(args.data, repeat, slow_repeat, "chrf"),
        ),
        "mbr-bleu": (
            "28b. Exact MBR with BLEU, 300 sources x 32 candidates",
            lambda: task_mbr(args.data, repeat, slow_repeat, "bleu"),
        ),
        "mbr-chrf-64": (
            "28c. Exact MBR with chrF, 300 sources x 64 candidates",
            lambda: task_mbr(args.data, repeat, slow_repeat, "chrf", rounds=3),
        ),
        "mbr-bleu-64": (
            "28d. Exact MBR with BLEU, 300 sources x 64 candidates",
            lambda: task_mbr(args.data, repeat, slow_repeat, "bleu", rounds=3),
        ),
        "mbr-aggregate-chrf": (
            "28e. MBR with reference aggregation, chrF, 300 sources x 64 candidates",
            lambda: task_mbr_aggregate(args.data, repeat, "chrf"),
        ),
        "mbr-aggregate-bleu": (
            "28f. MBR with reference aggregation, BLEU, 300 sources x 64 candidates",
            lambda: task_mbr_aggregate(args.data, repeat, "bleu"),
        ),
        "ja-mecab": (
            "12. Corpus BLEU of Japanese with MeCab, 4 systems x 3000 segments",
            lambda: task_ja_mecab(repeat, slow_repeat),
        ),
        "wer": (
            "17a. Corpus WER and CER, 16 WMT17 systems",
            lambda: task_wer(args.data, repeat, slow_repeat, "corpus"),
        ),
        "wer-sentence": (
            "17b. Sentence WER, 3004 segments",
            lambda: task_wer(args.data, repeat, slow_repeat, "sentence"),
        ),
        "wer-pairwise": (
            "17c. All pairs WER, 500 x 500",
            lambda: task_wer(args.data, repeat, slow_repeat, "pairwise"),
        ),
        "gleu": (
            "18a. Corpus GLEU, 16 WMT17 systems",
            lambda: task_gleu(args.data, repeat, slow_repeat, "corpus"),
        ),
        "gleu-sentence": (
            "18b. Sentence GLEU, 3004 segments",
            lambda: task_gleu(args.data, repeat, slow_repeat, "sentence"),
        ),
        "nist": (
            "18c. Corpus NIST, 16 WMT17 systems",
            lambda: task_nist(args.data, repeat, slow_repeat, args.mteval),
        ),
        "ledger": (
            "19. The ledger: append, list, and the gate from kept rows beside score --paired-bs",
            lambda: task_ledger(args.data, repeat),
        ),
        "given-bs": (
            "16a. Paired bootstrap (1000) on given scores (COMET-like), 16 systems x 3004 segments",
            lambda: task_given(args.data, repeat, "bs"),
        ),
        "given-ar": (
            "16b. Paired approximate randomization (10000) on given scores, 16 systems x 3004 segments",
            lambda: task_given(args.data, repeat, "ar"),
        ),
        "given-pairs": (
            "16c. All pairs with clusters (bootstrap 1000) on given scores, 16 systems x 3004 segments",
            lambda: task_given(args.data, repeat, "pairs"),
        ),
        "report": (
            "15. understudy report, 16 WMT17 systems, BLEU, chrF and TER",
            lambda: task_report(args.data, slow_repeat),
        ),
        "report-large": (
            f"15b. understudy report, 3 systems x {3004 * REPORT_LARGE_COPIES:,} segments, BLEU, chrF, TER",
            lambda: task_report(args.data, slow_repeat, REPORT_LARGE_COPIES),
        ),
        "long-line": (
            "14. BLEU of one 100 MB line against another",
            lambda: task_long_line(args.data, slow_repeat),
        ),
        "token-ids": (
            "21. Sentence BLEU of token ids, 3004 segments (an RL reward)",
            lambda: task_token_ids(args.data, repeat, slow_repeat),
        ),
        **{
            task: (
                f"22. torchmetrics' {cls}: update over 3004 segments and compute",
                lambda cls=cls: task_torchmetrics(args.data, repeat, slow_repeat, cls),
            )
            for task, cls in TORCHMETRICS_CLASSES.items()
        },
        "dask": (
            f"13. Corpus BLEU of {args.dask_segments:,} segments: Dask (2 workers, shards) and one process",
            lambda: task_dask(args.data, slow_repeat, args.dask_segments),
        ),
    }
    done: list[tuple[str, str, list[Timing]]] = []
    for name in args.tasks:
        if name == "meta":
            tables = task_meta(repeat, slow_repeat, args.mtme)
        elif name == "startup":
            tables = task_startup(args.data, max(repeat, 10))
        else:
            tables = [(runs[name][0], runs[name][1]())]
        for title, rows in tables:
            print(table(title, rows, args.markdown), flush=True)
            done.append((name, title, rows))
    if args.save:
        save(args.save, machine, done)
    return 0


def save(path: Path, machine: str, done: list[tuple[str, str, list[Timing]]]) -> None:
    """The run's tables as JSON, which docs/speed.md's tables are rendered from (scripts/docs_hooks.py)."""
    record = {
        "command": "python benchmarks/bench.py " + " ".join(sys.argv[1:]),
        "machine": machine,
        "date": time.strftime("%Y-%m-%d"),
        "tables": [
            {"task": name, "title": title, "rows": [dataclasses.asdict(row) for row in rows]}
            for name, title, rows in done
        ],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)  # whole or not at all


if __name__ == "__main__":
    sys.exit(main())
