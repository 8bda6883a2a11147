"""mbrs 0.1.8's MBR choices and expected utilities (exact; reference aggregation and pruning
with ``methods``) and fastchrf's chrF, for tests/mbr/.

mbrs needs torch, COMET, BLEURT and BERTScore to import; only its BLEU, chrF and TER are run
here, so it is installed without its dependencies, outside the repository, and run as a black
box with stand-ins for the model packages it imports at its top (never called):

    pip install --no-deps --target /tmp/mbrs_env mbrs==0.1.8 simple-parsing tabulate fastchrf \
        docstring-parser
    PYTHONPATH=/tmp/mbrs_env python scripts/mbrs_fixtures.py tests/fixtures/mbr/mbrs-0.1.8.json.gz
    PYTHONPATH=/tmp/mbrs_env python scripts/mbrs_fixtures.py \
        tests/fixtures/mbr/mbrs-0.1.8-methods.json.gz methods

in an environment with torch and sacrebleu 2.6.0 (the project's test environment). The
candidates are tests/support/mbr_candidates.py's: 300 WMT17 sources x 32. mbrs' utilities are
float32 tensors; each is recorded as the shortest decimal that reads back as the same float32.
"""

from __future__ import annotations

import gzip
import importlib.abc
import importlib.machinery
import json
import sys
import types
from importlib.metadata import version
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
STUBBED = ("bert_score", "bleurt_pytorch", "comet", "transformers")


class _Anything(type):
    """A class whose every attribute and call is itself: enough for definitions and decorators."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return cls

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls


class _Stub(types.ModuleType):
    __path__: list[str] = []  # noqa: RUF012 (a package, for submodule imports)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Anything(name, (), {})


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, stubbed: tuple[str, ...] = STUBBED) -> None:
        self.stubbed = stubbed

    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] in self.stubbed:
            return importlib.machinery.ModuleSpec(name, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _Stub(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def shortest(value: float) -> float:
    """The shortest decimal that is the same float32 as ``value``."""
    import numpy as np

    return float(np.format_float_positional(np.float32(value), unique=True))


def exact(lists: list[list[str]]) -> dict[str, Any]:
    """Exact MBR: each source's choice and every candidate's expected utility."""
    from mbrs.decoders import DecoderMBR
    from mbrs.metrics import MetricBLEU, MetricChrF, MetricTER

    metrics: dict[str, Any] = {}
    for name, metric in (
        ("bleu", MetricBLEU(MetricBLEU.Config())),
        ("chrf", MetricChrF(MetricChrF.Config())),
        ("ter", MetricTER(MetricTER.Config())),
    ):
        decoder = DecoderMBR(DecoderMBR.Config(), metric)
        chosen, expected = [], []
        for hyps in lists:
            chosen.append(decoder.decode(hyps, hyps, nbest=1).idx[0])
            expected.append([shortest(v) for v in metric.expected_scores(hyps, hyps).tolist()])
        metrics[name] = {"chosen": chosen, "expected": expected}
        print(f"{name}: done", file=sys.stderr)
    return {"metrics": metrics}


def methods(lists: list[list[str]]) -> dict[str, Any]:
    """Reference aggregation (BLEU, chrF) and confidence-based pruning (BLEU, chrF, TER; mbrs'
    default settings, seed 0) with mbrs' decoders, and fastchrf's own pairwise and aggregated
    chrF (float64, recorded as Python writes them)."""
    import fastchrf
    from mbrs.decoders import DecoderAggregateMBR, DecoderPruningMBR
    from mbrs.metrics import MetricBLEU, MetricChrF, MetricTER

    record: dict[str, Any] = {"fastchrf": version("fastchrf"), "aggregate": {}, "prune": {}}
    for name, metric in (
        ("bleu", MetricBLEU(MetricBLEU.Config())),
        ("chrf", MetricChrF(MetricChrF.Config())),
    ):
        decoder = DecoderAggregateMBR(DecoderAggregateMBR.Config(), metric)
        chosen, expected = [], []
        for hyps in lists:
            chosen.append(decoder.decode(hyps, hyps, nbest=1).idx[0])
            scores = metric.expected_scores_reference_aggregation(hyps, hyps).tolist()
            expected.append([shortest(v) for v in scores])
        record["aggregate"][name] = {"chosen": chosen, "expected": expected}
        print(f"aggregate {name}: done", file=sys.stderr)
    for name, metric in (
        ("bleu", MetricBLEU(MetricBLEU.Config())),
        ("chrf", MetricChrF(MetricChrF.Config())),
        ("ter", MetricTER(MetricTER.Config())),
    ):
        pruning = DecoderPruningMBR(DecoderPruningMBR.Config(), metric)
        outputs = [pruning.decode(hyps, hyps, nbest=1) for hyps in lists]
        record["prune"][name] = {
            "chosen": [out.idx[0] for out in outputs],
            "score": [shortest(out.score[0]) for out in outputs],
        }
        print(f"prune {name}: done", file=sys.stderr)
    options = {"char_order": 6, "beta": 2.0, "remove_whitespace": True, "eps_smoothing": False}
    pairwise = fastchrf.pairwise_chrf(lists, lists, **options)
    record["fastchrf_expected"] = [[sum(row) / len(row) for row in matrix] for matrix in pairwise]
    record["fastchrf_aggregate"] = fastchrf.aggregate_chrf(lists, lists, **options)
    return record


def main(out: str, which: str) -> None:
    sys.meta_path.insert(0, _Finder())
    sys.path.insert(0, str(REPO))
    from tests.support.mbr_candidates import candidates

    lists = candidates()
    record: dict[str, Any] = {
        "mbrs": version("mbrs"),
        "sacrebleu": version("sacrebleu"),
        "sources": len(lists),
        "candidates": len(lists[0]),
    }
    record |= exact(lists) if which == "exact" else methods(lists)
    with gzip.open(out, "wt", encoding="utf-8") as fh:
        json.dump(record, fh)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "exact")
