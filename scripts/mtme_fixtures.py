"""Make tests/fixtures/mtme_ted.json: mt-metrics-eval's meta-evaluation numbers, the oracle CI cannot install.

google-research/mt-metrics-eval is not on PyPI (a package of that name there is unrelated) and is
not shipped here. Run this outside the tests on a checkout of it (commit 68a481a was used):

    git -C mt-metrics-eval archive HEAD mt_metrics_eval | tar -x -C /tmp/mtme
    pip install dacite    # mt-metrics-eval's data module imports its ratings, which need it
    python scripts/mtme_fixtures.py --mtme /tmp/mtme

Only ``stats``, ``pce`` and ``tau_optimization`` are imported (``data`` for ``AssignRanks``, with a
stand-in for Apache Beam, which it imports but does not use without a parallel file).

The data are the WMT21 TED zh-en systems of ../shared/data/wmt21-ted-zh-en-mqm in sorted order,
with their MQM segment scores. The metric segment scores are the oracle's own: sacrebleu 2.6.0's
``sentence_bleu``, ``sentence_chrf`` and chrF++ against ref-B (as mt-metrics-eval's published BLEU
and chrF are sentence scores), and the COMET-style scores of ``scripts/synthetic_comet.py``
(4 decimals, as comet-score prints them). The fixture records the SHA-256 of each metric's float64
score matrix (so a test knows it scores the same numbers), never the numbers of the code under test.
Two copies of the human scores have gaps (``None``): ``gaps-segments`` leaves 40 whole segments
unrated, ``gaps-cells`` also 5% of single cells (seeded).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

import numpy as np
import scipy.stats
from understudy.files.atomic import atomic_write

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data" / "wmt21-ted-zh-en-mqm"
OUT = REPO / "tests" / "fixtures" / "mtme_ted.json"
SYSTEMS = sorted(p.stem for p in DATA.glob("*.txt") if not p.stem.startswith("ref-"))


def lines(name: str) -> list[str]:
    """One file's lines."""
    return (DATA / f"{name}.txt").read_text(encoding="utf-8").splitlines()


def human_matrix() -> np.ndarray:
    """MQM scores, systems x segments."""
    table = np.full((len(SYSTEMS), 529), np.nan)
    rows = (DATA / "mqm_segment_scores.tsv").read_text(encoding="utf-8").splitlines()[1:]
    for row in rows:
        system, segment, score = row.split("\t")
        if system in SYSTEMS:
            table[SYSTEMS.index(system), int(segment) - 1] = float(score)
    assert not np.isnan(table).any()
    return table


def metric_matrices() -> dict[str, np.ndarray]:
    """sacrebleu's sentence BLEU, chrF, chrF++ against ref-B, and the COMET-style scores."""
    import sacrebleu
    from sacrebleu.metrics import CHRF

    ref = lines("ref-B")
    chrfpp = CHRF(word_order=2)
    out = {"BLEU": [], "chrF": [], "chrF++": []}
    for system in SYSTEMS:
        hyps = lines(system)
        out["BLEU"].append([sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, ref, strict=True)])
        out["chrF"].append([sacrebleu.sentence_chrf(h, [r]).score for h, r in zip(hyps, ref, strict=True)])
        out["chrF++"].append([chrfpp.sentence_score(h, [r]).score for h, r in zip(hyps, ref, strict=True)])
    comet = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "synthetic_comet.py"), "--ref", str(DATA / "ref-B.txt")]
        + [str(DATA / f"{s}.txt") for s in SYSTEMS],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    scores: dict[str, list[float]] = {s: [] for s in SYSTEMS}
    for line in comet.splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            scores[parts[0][: -len(".txt")]].append(float(parts[2].split(": ")[1]))
    matrices = {k: np.array(v, dtype=np.float64) for k, v in out.items()}
    matrices["COMET-style"] = np.array([scores[s] for s in SYSTEMS], dtype=np.float64)
    return matrices


def sha256(matrix: np.ndarray) -> str:
    """The SHA-256 of a float64 matrix's bytes (C order)."""
    return hashlib.sha256(np.ascontiguousarray(matrix, dtype=np.float64).tobytes()).hexdigest()


def with_gaps(human: np.ndarray, cells: bool) -> np.ndarray:
    """``human`` with 40 whole segments unrated and, with ``cells``, 5% of single cells too."""
    rng = np.random.default_rng(22)
    out = human.copy()
    out[:, rng.choice(human.shape[1], 40, replace=False)] = np.nan
    if cells:
        out[rng.random(human.shape) < 0.05] = np.nan
    return out


def packed(matrix: np.ndarray) -> list[float | None]:
    """mt-metrics-eval's packed vector: systems one after another, ``None`` where unrated."""
    return [None if np.isnan(v) else float(v) for v in matrix.reshape(-1)]


def load(mtme: Path) -> types.SimpleNamespace:
    """mt-metrics-eval's modules, from a checkout."""
    sys.path.insert(0, str(mtme))
    sys.modules.setdefault("apache_beam", types.ModuleType("apache_beam"))
    from mt_metrics_eval import data, pce, stats, tau_optimization

    return types.SimpleNamespace(data=data, pce=pce, stats=stats, tau=tau_optimization)


def timed(record: dict[str, Any], call: Any, *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, its seconds kept in ``record``."""
    start = time.perf_counter()
    value = call(*args, **kwargs)
    record["seconds"] = round(time.perf_counter() - start, 3)
    return value


def spa_cases(
    m: types.SimpleNamespace, human: dict[str, np.ndarray], metrics: dict[str, np.ndarray]
) -> list[Any]:
    """Soft pairwise accuracy and both p-value matrices, seed 4 and others."""
    cases = []
    for gold in ("full", "gaps-segments"):
        for name, scores in metrics.items():
            for seed, n in ((4, 1000), (7, 300)):
                h = human[gold]
                keep = ~np.isnan(h).any(axis=0)
                hp = m.pce.compute_pairwise_p_values(h[:, keep], num_permutations=n, seed=seed)
                mp = m.pce.compute_pairwise_p_values(scores[:, keep], num_permutations=n, seed=seed)
                case: dict[str, Any] = {"human": gold, "metric": name, "seed": seed, "permutations": n}
                case["spa"] = float(m.pce.compute_one_minus_pce(hp, mp))
                if seed == 4 and n == 1000:
                    corr = m.stats.Correlation(len(SYSTEMS), packed(h), packed(scores))
                    # The same computation through Correlation: float32 sums settle exact ties by
                    # rounding, which moves with the memory layout, so the two may differ there.
                    case["spa_through_correlation"] = float(corr.PairwiseConfidenceError()[0])
                case["human_p"] = [[None if np.isnan(v) else float(v) for v in row] for row in hp]
                case["metric_p"] = [[None if np.isnan(v) else float(v) for v in row] for row in mp]
                cases.append(case)
    return cases


def acc_eq_cases(
    m: types.SimpleNamespace, human: dict[str, np.ndarray], metrics: dict[str, np.ndarray]
) -> list[Any]:
    """Tie-calibrated pairwise accuracy (acc23, sample rate 1) by item and by system; by none on a
    corner of the data, where the oracle's pair enumeration fits in memory."""
    cases = []
    for gold in ("full", "gaps-cells"):
        for name, scores in metrics.items():
            for average_by, rows, cols in (("item", 13, 529), ("sys", 13, 529), ("none", 5, 60)):
                h, s = human[gold][:rows, :cols], scores[:rows, :cols]
                corr = m.stats.Correlation(rows, packed(h), packed(s))
                record: dict[str, Any] = {"human": gold, "metric": name, "average_by": average_by}
                record |= {"systems": rows, "segments": cols}
                value, threshold, _ = timed(
                    record,
                    m.stats.KendallWithTiesOpt,
                    corr.gold_scores,
                    corr.metric_scores,
                    "acc23",
                    rows,
                    average_by,
                    1.0,
                )
                record |= {"acc_eq": float(value), "threshold": float(threshold)}
                cases.append(record)
                print(f"acc-eq {gold} {name} {average_by}: {value} ({record['seconds']} s)", file=sys.stderr)
    return cases


def perm_both_cases(
    m: types.SimpleNamespace, human: dict[str, np.ndarray], metrics: dict[str, np.ndarray]
) -> list[Any]:
    """PERM-BOTH (``PermutationSigDiff``) p-values between two metrics, each after
    ``numpy.random.seed(seed)``, for Pearson by none/sys/item, SPA and acc-eq; and the pairs test
    WMT24 runs for acc-eq (``PairwisePermutationSigDiff``)."""
    n = len(SYSTEMS)
    pce = functools.partial(m.stats.PairwiseConfidenceError, num_sys=n, filter_nones=False)
    plan = [
        ("pearson", "none", scipy.stats.pearsonr, {}, 1000, 1000, "full"),
        ("pearson", "none", scipy.stats.pearsonr, {}, 1000, 100, "full"),
        ("pearson", "sys", scipy.stats.pearsonr, {}, 200, 50, "gaps-cells"),
        ("pearson", "item", scipy.stats.pearsonr, {}, 20, 10, "full"),
        ("spa", "none", pce, {}, 60, 20, "full"),
        ("acc-eq", "item", m.stats.KendallWithTiesOpt, {"sample_rate": 1.0}, 12, 12, "full"),
    ]
    cases = []
    for pair in (("chrF", "BLEU"), ("COMET-style", "chrF++")):
        for statistic, average_by, fn, extra, k, block, gold in plan:
            a, b = (m.stats.Correlation(n, packed(human[gold]), packed(metrics[x])) for x in pair)
            record: dict[str, Any] = {"metrics": list(pair), "statistic": statistic, "average_by": average_by}
            record |= {"human": gold, "k": k, "block_size": block, "early_min": 0.02, "early_max": 0.5}
            record["seed"] = seed = 100 + len(cases)
            np.random.seed(seed)
            params = m.stats.PermutationSigDiffParams(block, 0.02, 0.5)
            p, delta, used, _ = timed(
                record, m.stats.PermutationSigDiff, b, a, fn, average_by, k, params, False, **extra
            )
            record |= {"p_value": float(p), "delta": float(delta), "resamples": int(used)}
            cases.append(record)
            print(
                f"perm-both {pair} {statistic} {average_by}: {p} {delta} {used} ({record['seconds']} s)",
                file=sys.stderr,
            )
        for average_by, k, block in (("item", 100, 20), ("sys", 40, 40)):
            a, b = (m.stats.Correlation(n, packed(human["full"]), packed(metrics[x])) for x in pair)
            record = {
                "metrics": list(pair),
                "statistic": "acc-eq-pairs",
                "average_by": average_by,
                "human": "full",
            }
            record |= {"k": k, "block_size": block, "early_min": 0.02, "early_max": 0.5}
            record["seed"] = seed = 100 + len(cases)
            np.random.seed(seed)
            params = m.stats.PermutationSigDiffParams(block, 0.02, 0.5)
            p, delta, used, _ = timed(
                record, m.stats.PairwisePermutationSigDiff, b, a, "acc23", average_by, k, params
            )
            record |= {"p_value": float(p), "delta": float(delta), "resamples": int(used)}
            cases.append(record)
            print(f"pairs {pair} {average_by}: {p} {delta} {used} ({record['seconds']} s)", file=sys.stderr)
    return cases


def cluster_cases(
    m: types.SimpleNamespace, human: dict[str, np.ndarray], metrics: dict[str, np.ndarray]
) -> list[Any]:
    """WMT's significance clusters (``CompareMetrics``, ``AssignRanks``) of the four metrics, after
    ``numpy.random.seed(seed)``."""
    n = len(SYSTEMS)
    corrs = {k: m.stats.Correlation(n, packed(human["full"]), packed(v)) for k, v in metrics.items()}
    cases = []
    for statistic, average_by, k, block, perm_test, extra in (
        ("pearson", "none", 1000, 100, "scores", {}),
        ("pearson", "item", 30, 10, "scores", {}),
        ("acc-eq", "item", 100, 100, "pairs", {"sample_rate": 1.0}),
    ):
        seed = 200 + len(cases)
        np.random.seed(seed)
        psd = m.stats.PermutationSigDiffParams(block, 0.02, 0.5)
        fn = scipy.stats.pearsonr if statistic == "pearson" else m.stats.KendallWithTiesOpt
        record: dict[str, Any] = {
            "statistic": statistic,
            "average_by": average_by,
            "k": k,
            "block_size": block,
        }
        record |= {"perm_test": perm_test, "seed": seed, "alpha": 0.05}
        ranked, sig, _, _ = timed(
            record,
            m.data.CompareMetrics,
            corrs,
            fn,
            average_by,
            k,
            psd,
            0.05,
            False,
            perm_test,
            None,
            **extra,
        )
        record["order"] = list(ranked)
        record["values"] = [float(v[0]) for v in ranked.values()]
        record["ranks"] = [int(v[1]) for v in ranked.values()]
        record["p_values"] = [[float(v) for v in row] for row in sig]
        cases.append(record)
        print(
            f"clusters {statistic} {average_by}: {record['order']} {record['ranks']} ({record['seconds']} s)",
            file=sys.stderr,
        )
    seed = 200 + len(cases)
    np.random.seed(seed)
    record = {
        "statistic": "spa",
        "average_by": "none",
        "k": 40,
        "block_size": 20,
        "perm_test": "scores",
        "seed": seed,
        "alpha": 0.05,
    }
    psd = m.stats.PermutationSigDiffParams(20, 0.02, 0.5)
    ranked, sig, _, _ = timed(record, m.data.CompareMetricsWithPairwiseConfidenceError, corrs, 40, psd, 0.05)
    record["order"] = list(ranked)
    record["values"] = [float(v[0]) for v in ranked.values()]
    record["ranks"] = [int(v[1]) for v in ranked.values()]
    record["p_values"] = [[float(v) for v in row] for row in sig]
    cases.append(record)
    print(f"clusters spa: {record['order']} {record['ranks']} ({record['seconds']} s)", file=sys.stderr)
    return cases


def main() -> int:
    """Compute every number and write the fixture."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mtme", required=True, type=Path, help="folder holding mt_metrics_eval/")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    m = load(args.mtme)
    base = human_matrix()
    human = {"full": base, "gaps-segments": with_gaps(base, False), "gaps-cells": with_gaps(base, True)}
    metrics = metric_matrices()
    fixture: dict[str, Any] = {
        "command": "python scripts/mtme_fixtures.py --mtme /tmp/mtme",
        "mt_metrics_eval": "google-research/mt-metrics-eval 68a481a",
        "systems": SYSTEMS,
        "metric_sha256": {k: sha256(v) for k, v in metrics.items()},
        "gaps": {
            k: [[int(i), int(j)] for i, j in zip(*np.nonzero(np.isnan(v)), strict=True)]
            for k, v in human.items()
            if k != "full"
        },
    }
    fixture["spa"] = spa_cases(m, human, metrics)
    fixture["acc_eq"] = acc_eq_cases(m, human, metrics)
    fixture["perm_both"] = perm_both_cases(m, human, metrics)
    fixture["clusters"] = cluster_cases(m, human, metrics)
    with atomic_write(args.out) as out:
        out.write((json.dumps(fixture, indent=1) + "\n").encode("utf-8"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
