"""The tests' registry of metric families: one entry per family of ``understudy.metrics``.

Each entry lists the family's example configurations (defaults first, then ones that
change every option) and its oracle: the reference tool's metric object for a
configuration, and its segment statistics in understudy's row layout. The tests that
hold for every family (parity, pickling, signature round trips, save/load, totals, the
accumulator, Dask, significance) take their configurations from here, so a new family
is tested by adding its entry; ``test_registry.py`` fails while one is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from understudy import BLEUConfig, CHRFConfig, TERConfig
from understudy.config import MetricConfig

Refs = list[list[str | None]]


@dataclass(frozen=True)
class TestFamily:
    """A family's example configurations and its oracle."""

    examples: tuple[MetricConfig, ...]
    oracle: Callable[[Any, Refs | None], Any]
    """The reference tool's metric object for a configuration (and optional references)."""
    oracle_rows: Callable[[Any, Any, list[str], Refs | None], np.ndarray]
    """The oracle's segment statistics, in understudy's row layout."""


def _sacrebleu_bleu(c: BLEUConfig, references: Refs | None) -> Any:
    return SacreBLEU(
        tokenize=c.tokenize,
        lowercase=c.lowercase,
        smooth_method=c.smooth_method,
        smooth_value=c.smooth_value,
        max_ngram_order=c.max_ngram_order,
        effective_order=c.effective_order,
        references=references,
    )


def _sacrebleu_chrf(c: CHRFConfig, references: Refs | None) -> Any:
    return SacreCHRF(
        c.char_order, c.word_order, c.beta, c.lowercase, c.whitespace, c.eps_smoothing, references
    )


def _sacrebleu_ter(c: TERConfig, references: Refs | None) -> Any:
    return SacreTER(c.normalized, c.no_punct, c.asian_support, c.case_sensitive, references)


def _sacrebleu_rows(config: Any, metric: Any, hyps: list[str], refs: Refs | None) -> np.ndarray:
    return np.array(metric._extract_corpus_statistics(hyps, refs), dtype=np.int64)


def _sacrebleu_ter_rows(config: Any, metric: Any, hyps: list[str], refs: Refs | None) -> np.ndarray:
    # sacrebleu keeps TER's average reference length as a float: compared unscaled.
    stats = metric._extract_corpus_statistics(hyps, refs)
    return np.array([[edits, length] for edits, length in stats], dtype=np.float64)


TEST_FAMILIES: dict[str, TestFamily] = {
    "bleu": TestFamily(
        examples=(
            BLEUConfig(),
            BLEUConfig(tokenize="intl", lowercase=True, smooth_method="floor", max_ngram_order=6),
            BLEUConfig(tokenize="zh", lowercase=True, max_ngram_order=7),
            BLEUConfig(smooth_method="floor", smooth_value=0.123, effective_order=True),
            BLEUConfig(smooth_method="add-k", smooth_value=2.0, tokenize="char"),
            BLEUConfig(smooth_method="none", tokenize="none"),
        ),
        oracle=_sacrebleu_bleu,
        oracle_rows=_sacrebleu_rows,
    ),
    "chrf": TestFamily(
        examples=(
            CHRFConfig(),
            CHRFConfig(word_order=2),
            CHRFConfig(char_order=4, word_order=1, beta=1, lowercase=True),
            CHRFConfig(whitespace=True, eps_smoothing=True),
            CHRFConfig(char_order=0, word_order=2, beta=3, eps_smoothing=True),
        ),
        oracle=_sacrebleu_chrf,
        oracle_rows=_sacrebleu_rows,
    ),
    "ter": TestFamily(
        examples=(
            TERConfig(),
            TERConfig(normalized=True),
            TERConfig(case_sensitive=True),
            TERConfig(normalized=True, asian_support=True, no_punct=True),
            TERConfig(no_punct=True),
        ),
        oracle=_sacrebleu_ter,
        oracle_rows=_sacrebleu_ter_rows,
    ),
}


def examples(*names: str, first: int | None = None) -> list[MetricConfig]:
    """The example configurations of ``names`` (default: every family), the first ``first`` of each."""
    chosen = names or tuple(TEST_FAMILIES)
    return [c for name in chosen for c in TEST_FAMILIES[name].examples[:first]]


def defaults() -> list[MetricConfig]:
    """Each family's default configuration."""
    return examples(first=1)
