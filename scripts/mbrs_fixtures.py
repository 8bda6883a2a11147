"""mbrs 0.1.8's exact MBR choices and expected utilities, for tests/test_mbr.py.

mbrs needs torch, COMET, BLEURT and BERTScore to import; only its BLEU, chrF and TER are run
here, so it is installed without its dependencies, outside the repository, and run as a black
box with stand-ins for the model packages it imports at its top (never called):

    pip install --no-deps --target /tmp/mbrs_env mbrs==0.1.8 simple-parsing tabulate fastchrf \
        docstring-parser
    PYTHONPATH=/tmp/mbrs_env python scripts/mbrs_fixtures.py tests/fixtures/mbr/mbrs-0.1.8.json.gz

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
    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name.split(".")[0] in STUBBED:
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


def main(out: str) -> None:
    sys.meta_path.insert(0, _Finder())
    sys.path.insert(0, str(REPO))
    from mbrs.decoders import DecoderMBR
    from mbrs.metrics import MetricBLEU, MetricChrF, MetricTER

    from tests.support.mbr_candidates import candidates

    lists = candidates()
    record: dict[str, Any] = {
        "mbrs": version("mbrs"),
        "sacrebleu": version("sacrebleu"),
        "sources": len(lists),
        "candidates": len(lists[0]),
        "metrics": {},
    }
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
        record["metrics"][name] = {"chosen": chosen, "expected": expected}
        print(f"{name}: done", file=sys.stderr)
    with gzip.open(out, "wt", encoding="utf-8") as fh:
        json.dump(record, fh)


if __name__ == "__main__":
    main(sys.argv[1])
