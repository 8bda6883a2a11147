"""The tests' registry of metric families: one entry per family of ``understudy.metrics``.

Each entry lists the family's example configurations (defaults first, then ones that
change every option) and its oracle: the reference tool's metric object for a
configuration, and its segment statistics in understudy's row layout. The tests that
hold for every family (parity, pickling, signature round trips, save/load, totals, the
accumulator, Dask, significance) take their configurations from here, so a new family
is tested by adding its entry; ``metrics/test_registry.py`` fails while one is missing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from understudy import BLEUConfig, CHRFConfig, TERConfig
from understudy.config import MetricConfig
from understudy.metrics.gleu import GLEUConfig
from understudy.metrics.nist import NISTConfig
from understudy.metrics.wer import WERConfig

Refs = Sequence[Sequence[str | None]]


@dataclass(frozen=True)
class TestFamily:
    """A family's example configurations and its oracle."""

    examples: tuple[MetricConfig, ...]
    oracle: Callable[[Any, Refs | None], Any]
    """The reference tool's metric object for a configuration (and optional references)."""
    oracle_rows: Callable[[Any, Any, list[str], Refs | None], np.ndarray]
    """The oracle's segment statistics, in understudy's row layout."""
    by_parts: bool = True
    """Whether the family's statistics sum from parts (chunks, batches, partitions) and its oracle
    runs at test time, so that the tests of every family take it. NIST's do not (its weights need
    the whole reference corpus) and its oracle, mteval-v13a.pl, is a fixture: tests/metrics/test_nist.py."""


# sacrebleu's annotations say str where its code takes None for a missing reference too.


def _sacrebleu_bleu(c: BLEUConfig, references: Any) -> Any:
    return SacreBLEU(
        tokenize=c.tokenize,
        lowercase=c.lowercase,
        smooth_method=c.smooth_method,
        smooth_value=c.smooth_value,
        max_ngram_order=c.max_ngram_order,
        effective_order=c.effective_order,
        references=references,
    )


def _sacrebleu_chrf(c: CHRFConfig, references: Any) -> Any:
    beta: Any = c.beta  # sacrebleu annotates an int; understudy's signature reads 2 and 2.0 alike
    return SacreCHRF(c.char_order, c.word_order, beta, c.lowercase, c.whitespace, c.eps_smoothing, references)


def _sacrebleu_ter(c: TERConfig, references: Any) -> Any:
    return SacreTER(c.normalized, c.no_punct, c.asian_support, c.case_sensitive, references)


def _sacrebleu_rows(config: Any, metric: Any, hyps: list[str], refs: Refs | None) -> np.ndarray:
    return np.array(metric._extract_corpus_statistics(hyps, refs), dtype=np.int64)


def _sacrebleu_ter_rows(config: Any, metric: Any, hyps: list[str], refs: Refs | None) -> np.ndarray:
    # sacrebleu keeps TER's average reference length as a float: compared unscaled.
    stats = metric._extract_corpus_statistics(hyps, refs)
    return np.array([[edits, length] for edits, length in stats], dtype=np.float64)


class JiwerMetric:
    """jiwer 4 behind sacrebleu's metric interface (``corpus_score``, ``sentence_score``), with
    jiwer's transforms for the configuration. jiwer takes one reference per segment: with
    several, each segment is scored against the one jiwer gives the fewest edits (the first
    among equals), the extension understudy documents."""

    def __init__(self, config: WERConfig, references: Refs | None) -> None:
        import jiwer

        self.jiwer = jiwer
        self.config, self.references = config, references
        steps: list[jiwer.AbstractTransform] = [jiwer.ToLowerCase()] * config.lowercase + [
            jiwer.RemovePunctuation()
        ] * config.no_punct
        if config.unit == "characters":
            steps += [jiwer.Strip(), jiwer.ReduceToListOfListOfChars()]
        else:
            steps += [jiwer.RemoveMultipleSpaces(), jiwer.Strip(), jiwer.ReduceToListOfListOfWords()]
        self.transform = jiwer.Compose(steps)

    def _process(self, refs: list[str], hyps: list[str]) -> Any:
        return self.jiwer.process_words(refs, hyps, self.transform, self.transform)

    def closest(self, hyps: list[str], refs: Refs | None) -> list[str]:
        """Each segment's reference with the fewest edits."""
        streams = self.references if refs is None else refs
        assert streams is not None
        chosen = []
        for i, hyp in enumerate(hyps):
            options = [ref for stream in streams if (ref := stream[i]) is not None]
            edits = []
            for ref in options:
                out = self._process([ref], [hyp])
                edits.append(out.substitutions + out.deletions + out.insertions)
            chosen.append(options[edits.index(min(edits))])
        return chosen

    def rows(self, hyps: list[str], refs: Refs | None) -> np.ndarray:
        """Each segment's jiwer counts, as understudy's rows ``[S, D, I, H, N]``."""
        out = []
        for hyp, ref in zip(hyps, self.closest(hyps, refs), strict=True):
            r = self._process([ref], [hyp])
            out.append(
                [r.substitutions, r.deletions, r.insertions, r.hits, r.hits + r.substitutions + r.deletions]
            )
        return np.array(out, dtype=np.int64).reshape(-1, 5)

    def _extract_corpus_statistics(self, hyps: list[str], refs: Refs | None) -> np.ndarray:
        return self.rows(hyps, refs)

    def corpus_score(self, hyps: list[str], refs: Refs | None) -> Any:
        """jiwer's measure of the corpus (its own arithmetic), as ``.score``."""
        out = self._process(self.closest(hyps, refs), hyps)
        return type("Score", (), {"score": getattr(out, self.config.measure)})()

    def sentence_score(self, hyp: str, refs: list[str | None]) -> Any:
        """jiwer's measure of one segment against its closest reference."""
        return self.corpus_score([hyp], [[r] for r in refs])


def _jiwer(c: WERConfig, references: Refs | None) -> Any:
    return JiwerMetric(c, references)


def _oracle_rows(config: Any, metric: Any, hyps: list[str], refs: Refs | None) -> np.ndarray:
    rows: np.ndarray = metric.rows(hyps, refs)
    return rows


class NltkGleu:
    """NLTK's ``gleu_score`` behind sacrebleu's metric interface, on the tokens sacrebleu's BLEU
    preprocessing gives (lowercased, right-stripped, tokenized, split): HF evaluate's
    ``google_bleu`` is this with 13a; NLTK's own tokens are ``tokenize="none"`` over them."""

    def __init__(self, config: GLEUConfig, references: Refs | None) -> None:
        from nltk.translate import gleu_score

        self.gleu, self.config, self.references = gleu_score, config, references
        self.bleu = SacreBLEU(tokenize=config.tokenize, lowercase=config.lowercase)

    def tokens(self, line: str) -> list[str]:
        """The tokens NLTK is given for ``line``."""
        tokens: list[str] = self.bleu._preprocess_segment(line).split()
        return tokens

    def _segments(self, hyps: list[str], refs: Refs | None) -> tuple[list[Any], list[Any]]:
        streams = self.references if refs is None else refs
        assert streams is not None
        their_refs = [
            [self.tokens(ref) for stream in streams if (ref := stream[i]) is not None]
            for i in range(len(hyps))
        ]
        return their_refs, [self.tokens(h) for h in hyps]

    def rows(self, hyps: list[str], refs: Refs | None) -> np.ndarray:
        """Each segment's ``[matches, total]``: NLTK's corpus loop, one segment at a time."""
        from collections import Counter

        from nltk.util import everygrams

        lo, hi = self.config.min_len, self.config.max_len
        out = []
        for references, hyp in zip(*self._segments(hyps, refs), strict=True):
            hyp_ngrams = Counter(everygrams(hyp, lo, hi))
            counts = []
            for ref in references:
                ref_ngrams = Counter(everygrams(ref, lo, hi))
                n_all = max(sum(hyp_ngrams.values()), sum(ref_ngrams.values()))
                if n_all > 0:
                    counts.append((sum((ref_ngrams & hyp_ngrams).values()), n_all))
            out.append(max(counts, key=lambda c: c[0] / c[1]) if counts else (0, 0))
        return np.array(out, dtype=np.int64).reshape(-1, 2)

    def _extract_corpus_statistics(self, hyps: list[str], refs: Refs | None) -> np.ndarray:
        return self.rows(hyps, refs)

    def corpus_score(self, hyps: list[str], refs: Refs | None) -> Any:
        """NLTK's ``corpus_gleu``, as ``.score``."""
        their_refs, their_hyps = self._segments(hyps, refs)
        score = self.gleu.corpus_gleu(their_refs, their_hyps, self.config.min_len, self.config.max_len)
        return type("Score", (), {"score": score})()

    def sentence_score(self, hyp: str, refs: list[str | None]) -> Any:
        """NLTK's ``sentence_gleu``, as ``.score``."""
        their = [self.tokens(r) for r in refs if r is not None]
        score = self.gleu.sentence_gleu(their, self.tokens(hyp), self.config.min_len, self.config.max_len)
        return type("Score", (), {"score": score})()


def _fixture_only(*args: Any) -> Any:
    raise AssertionError("this family's oracle is a fixture made outside the tests")


def _nltk_gleu(c: GLEUConfig, references: Refs | None) -> Any:
    return NltkGleu(c, references)


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
    "wer": TestFamily(
        examples=(
            WERConfig(),
            WERConfig(unit="characters"),
            WERConfig(measure="mer", lowercase=True),
            WERConfig(measure="wip", no_punct=True),
            WERConfig(measure="wil", unit="characters", lowercase=True, no_punct=True),
        ),
        oracle=_jiwer,
        oracle_rows=_oracle_rows,
    ),
    "gleu": TestFamily(
        examples=(
            GLEUConfig(),
            GLEUConfig(tokenize="none"),
            GLEUConfig(tokenize="intl", lowercase=True, min_len=2, max_len=5),
            GLEUConfig(tokenize="char", min_len=3, max_len=3),
            GLEUConfig(tokenize="zh", lowercase=True, max_len=1),
        ),
        oracle=_nltk_gleu,
        oracle_rows=_oracle_rows,
    ),
    "nist": TestFamily(
        examples=(NISTConfig(), NISTConfig(preserve_case=True, fix_zero=True)),
        oracle=_fixture_only,
        oracle_rows=_fixture_only,
        by_parts=False,
    ),
}


def examples(*names: str, first: int | None = None) -> list[MetricConfig]:
    """The example configurations of ``names`` (default: every family whose statistics sum from
    parts, see :attr:`TestFamily.by_parts`), the first ``first`` of each."""
    chosen = names or tuple(name for name, family in TEST_FAMILIES.items() if family.by_parts)
    return [c for name in chosen for c in TEST_FAMILIES[name].examples[:first]]


def defaults() -> list[MetricConfig]:
    """Each family's default configuration."""
    return examples(first=1)
