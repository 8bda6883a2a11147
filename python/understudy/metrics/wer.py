"""WER and CER (and MER, WIL, WIP), as jiwer 4 computes them: the family's configuration, its one
scoring function, its result, its statistics and its metric objects (``WER``, ``CER``, and
``corpus_wer``, ``sentence_wer``, ``corpus_cer``, ``sentence_cer``).

Word (or character) error rate: the fewest substitutions, deletions and insertions turning the
reference into the hypothesis, over the reference's length; lower is better, and a fraction
(0.25), as jiwer returns it. A statistics row is ``[substitutions, deletions, insertions, hits,
reference length]``; corpus scores sum the edits over the corpus, as jiwer does. Text is
transformed as jiwer's defaults do, and equal-cost alignments split into the three kinds of
edit as jiwer's (rapidfuzz's) do. With several references per segment, the closest (fewest
edits; the first among equals) is scored: an extension, jiwer takes one.

>>> corpus_wer(["the cat sat on mat"], [["the cat sat on the mat"]]).score  # jiwer.wer: 1/6
0.16666666666666666
>>> r = sentence_cer("kitten", ["sitting"])
>>> (r.substitutions, r.deletions, r.insertions, r.hits)
(2, 1, 0, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import TextConfig, check_bool, option
from understudy.errors import ConfigError
from understudy.inputs.tokens import Refs, RefStreams
from understudy.metric import Metric, check_hyps, check_refs
from understudy.registry import Family
from understudy.result import Result
from understudy.signature import Signature
from understudy.stats import Stats
from understudy.text.bad_text import explaining_bad_text
from understudy.text.normalization import normalize

# -- configuration ---------------------------------------------------------------------------

MEASURES: tuple[str, ...] = ("wer", "mer", "wil", "wip")
"""jiwer's measures of one alignment: error rate, match error rate, word information lost and
word information preserved (the only one where higher is better)."""
UNITS: tuple[str, ...] = ("words", "characters")


@dataclass(frozen=True)
class WERConfig(TextConfig):
    """Every parameter that can change a WER score, with jiwer's defaults.

    ``measure`` picks WER, MER, WIL or WIP; ``unit="characters"`` is CER (jiwer's ``cer``);
    ``lowercase`` and ``no_punct`` apply jiwer's ``ToLowerCase`` and ``RemovePunctuation``
    (Unicode category P) before its default transforms.

    >>> WERConfig(unit="characters").name, WERConfig(measure="wip").higher_is_better
    ('CER', True)
    """

    metric: ClassVar[str] = "wer"
    title: ClassVar[str] = "WER"
    higher_is_better: ClassVar[bool] = False
    score_range: ClassVar[tuple[float | None, float | None]] = (0.0, None)
    scale: ClassVar[float] = 1.0
    cli_group: ClassVar[str | None] = "WER and CER (-m wer cer mer wil wip; defaults are jiwer's)"
    signature_order: ClassVar[tuple[str, ...]] = ("measure", "unit", "case", "punct")

    measure: str = option(
        "wer",
        flags=("--wer-measure",),
        choices=MEASURES,
        help="wer (default), mer, wil or wip (-m mer, wil, wip pick them too)",
        key="measure",
        short="ms",
    )
    unit: str = option(
        "words",
        flags=("--wer-unit",),
        choices=UNITS,
        help="words (default), or characters: CER (as -m cer)",
        text_only=True,
        key="unit",
        short="u",
    )
    lowercase: bool = option(
        False,
        flags=("--wer-lowercase",),
        help="lowercase first",
        lowers_tokens=(True, "unicode"),
        key="case",
        short="c",
        text=("lc", "mixed"),
    )
    no_punct: bool = option(
        False,
        flags=("--wer-no-punct",),
        help="remove punctuation (Unicode category P)",
        text_only=True,
        key="punct",
        short="pn",
        text=("no", "yes"),
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        check_bool(self, "lowercase", "no_punct")
        if self.measure not in MEASURES:
            raise ConfigError(f"unknown measure {self.measure!r}; known: {', '.join(MEASURES)}")
        if self.unit not in UNITS:
            raise ConfigError(f"unknown unit {self.unit!r}; known: {', '.join(UNITS)}")
        # Declared per configuration: WIP is the one measure where higher is better, and 0..1.
        object.__setattr__(self, "higher_is_better", self.measure == "wip")
        bounded = self.measure != "wer"
        object.__setattr__(self, "score_range", (0.0, 1.0) if bounded else (0.0, None))

    @property
    def name(self) -> str:
        """``WER``, ``CER`` (characters), ``MER``, ``WIL`` or ``WIP``."""
        if self.unit == "characters" and self.measure == "wer":
            return "CER"
        suffix = " (characters)" if self.unit == "characters" else ""
        return self.measure.upper() + suffix

    def decimals(self, width: int) -> int:
        """Fractions, as jiwer gives them: three more decimals than ``width`` (``-w 1``: 0.2500)."""
        return width + 3

    @property
    def row_width(self) -> int:
        """Columns of a row: substitutions, deletions, insertions, hits, reference length."""
        return 5

    def core_config(self) -> dict[str, Any]:
        """What the core transforms and aligns with."""
        return {
            "characters": self.unit == "characters",
            "lowercase": self.lowercase,
            "no_punct": self.no_punct,
        }


ALIASES: dict[str, dict[str, Any]] = {
    "cer": {"unit": "characters"},
    "mer": {"measure": "mer"},
    "wil": {"measure": "wil"},
    "wip": {"measure": "wip"},
}
"""``-m`` names of this family beside ``wer``, each with the fields it sets."""


# -- scoring: the one place WER's arithmetic lives -------------------------------------------


def score_wer_rows(
    rows: NDArray[np.integer], config: WERConfig, float32: bool = False
) -> NDArray[np.floating[Any]]:
    """The measure of each row ``[S, D, I, H, N]`` with jiwer's arithmetic and edge cases: with no
    reference words, WER is the number of insertions, MER and WIL 0 or 1 and WIP 1 or 0 (as the
    hypothesis is empty or not).

    >>> score_wer_rows(np.array([[1, 0, 0, 5, 6], [0, 0, 2, 0, 0]]), WERConfig()).tolist()
    [0.16666666666666666, 2.0]
    """
    del float32  # sacrebleu has no WER: the reference arithmetic is jiwer's float64
    rows = np.atleast_2d(np.asarray(rows))
    if rows.shape[1] != config.row_width:
        raise ConfigError(f"rows have {rows.shape[1]} columns; WER needs {config.row_width}")
    s, d, i, h, n = (rows[:, k].astype(np.float64) for k in range(5))
    hyp = h + s + i
    empty = n == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        if config.measure == "wer":
            return np.where(empty, i, (s + d + i) / n)
        if config.measure == "mer":
            return np.where(empty, np.where(hyp == 0, 0.0, 1.0), (s + d + i) / (h + s + d + i))
        wip = np.where(empty, np.where(hyp == 0, 1.0, 0.0), np.where(hyp >= 1, (h / n) * (h / hyp), 0.0))
    result: NDArray[np.floating[Any]] = wip if config.measure == "wip" else 1 - wip
    return result


# -- result ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WERResult(Result):
    """One WER (or CER, MER, WIL, WIP) with jiwer's counts.

    >>> r = corpus_wer(["a b x"], [["a b c d"]])
    >>> r.score, r.substitutions, r.deletions, r.hits
    (0.5, 1, 1, 2)
    """

    score: float
    substitutions: int
    deletions: int
    insertions: int
    hits: int
    signature: Signature

    def numbers(self) -> dict[str, Any]:
        """jiwer's counts."""
        return {
            "substitutions": self.substitutions,
            "deletions": self.deletions,
            "insertions": self.insertions,
            "hits": self.hits,
        }


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class WERStats(Stats[WERConfig, WERResult]):
    """WER rows ``[substitutions, deletions, insertions, hits, reference length]``."""

    metric: ClassVar[str] = "wer"

    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        """The measure of each row."""
        return score_wer_rows(rows, self.config, float32)

    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[WERResult]:
        scores = score_wer_rows(rows, self.config)
        return [
            WERResult(float(score), int(r[0]), int(r[1]), int(r[2]), int(r[3]), sig)
            for score, r, sig in zip(scores, rows, signatures, strict=True)
        ]

    @classmethod
    def impossible(cls, total: NDArray[np.int64]) -> str | None:
        """Hits, substitutions and deletions always add up to the reference's length."""
        s, d, _, h, n = (int(v) for v in total)
        return None if s + d + h == n else f"hits + substitutions + deletions ({h + s + d}) is not {n}"


# -- the metric objects ------------------------------------------------------------------------


@dataclass(frozen=True)
class AlignmentChunk:
    """A run of one kind in an alignment, as jiwer's ``AlignmentChunk``: reference units
    ``ref_start..ref_end`` and hypothesis units ``hyp_start..hyp_end``; ``type`` is ``equal``,
    ``substitute``, ``delete`` (reference units the hypothesis lacks) or ``insert``."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int


@dataclass(frozen=True)
class Alignment:
    """One hypothesis aligned with its closest reference (the one its statistics count):
    that reference's index among the segment's references, both as units (words, or
    characters for CER) and the runs."""

    reference_index: int
    reference: tuple[str, ...]
    hypothesis: tuple[str, ...]
    chunks: tuple[AlignmentChunk, ...]
    characters: bool = False
    """Whether the units are characters (CER), spaces among them, rather than words."""


class WER(Metric[WERStats, WERResult]):
    """A WER scorer (jiwer 4's numbers) with a fixed configuration and, optionally, cached references.

    >>> WER().sentence_score("the cat sat", ["the cat sat down"]).score
    0.25
    >>> WER(measure="wip").corpus_score(["a b"], [["a c"]]).score  # (1/2) * (1/2)
    0.25
    """

    stats_type = WERStats
    config_type = WERConfig
    config: WERConfig

    def __init__(
        self,
        measure: str = WERConfig.measure,
        unit: str = WERConfig.unit,
        lowercase: bool = WERConfig.lowercase,
        no_punct: bool = WERConfig.no_punct,
        references: Refs | None = None,
        threads: int | None = None,
        *,
        normalize_unicode: str = TextConfig.normalize_unicode,
    ) -> None:
        config = WERConfig(measure, unit, lowercase, no_punct, normalize_unicode=normalize_unicode)
        self._setup(config, references, threads)

    def alignments(self, hyps: Sequence[str], refs: RefStreams) -> list[Alignment]:
        """Each hypothesis aligned with its closest reference, as jiwer's
        ``process_words(...).alignments`` (``process_characters`` for CER) aligns it.

        >>> [c.type for c in WER().alignments(["a x c e f g"], [["a b c d e f"]])[0].chunks]
        ['equal', 'substitute', 'equal', 'delete', 'equal', 'insert']
        """
        form = self.config.normalize_unicode
        checked = normalize(check_hyps(hyps), form)
        streams = [normalize(stream, form) for stream in check_refs(refs, len(checked))]
        with explaining_bad_text("hypotheses", [checked]), explaining_bad_text("references", streams, True):
            found = _core.families.wer_alignments(self.config.core_config(), checked, streams)
        characters = self.config.unit == "characters"
        return [
            Alignment(k, tuple(ref), tuple(hyp), tuple(AlignmentChunk(*c) for c in chunks), characters)
            for k, ref, hyp, chunks in found
        ]


class CER(WER):
    """CER: WER over characters (jiwer's ``cer``).

    >>> CER().sentence_score("kitten", ["sitting"]).score  # 3 edits, 7 characters
    0.42857142857142855
    """

    def __init__(
        self,
        lowercase: bool = WERConfig.lowercase,
        no_punct: bool = WERConfig.no_punct,
        references: Refs | None = None,
        threads: int | None = None,
        *,
        normalize_unicode: str = TextConfig.normalize_unicode,
    ) -> None:
        super().__init__(
            "wer", "characters", lowercase, no_punct, references, threads, normalize_unicode=normalize_unicode
        )


def corpus_wer(hyps: Sequence[str], refs: RefStreams, measure: str = "wer") -> WERResult:
    """Corpus WER (or MER, WIL, WIP) as ``jiwer.wer(references, hypotheses)``; ``refs`` are streams.

    >>> corpus_wer(["a b", "c"], [["a b", "d e"]]).score  # 2 edits over 4 reference words
    0.5
    """
    return WER(measure).corpus_score(hyps, refs)


def sentence_wer(hyp: str, refs: Sequence[str | None], measure: str = "wer") -> WERResult:
    """Sentence WER against the closest of ``refs``.

    >>> sentence_wer("a b", ["a b c"]).score
    0.3333333333333333
    """
    return WER(measure).sentence_score(hyp, refs)


def corpus_cer(hyps: Sequence[str], refs: RefStreams) -> WERResult:
    """Corpus CER as ``jiwer.cer(references, hypotheses)``.

    >>> corpus_cer(["abc"], [["abd"]]).score
    0.3333333333333333
    """
    return CER().corpus_score(hyps, refs)


def sentence_cer(hyp: str, refs: Sequence[str | None]) -> WERResult:
    """Sentence CER against the closest of ``refs``.

    >>> sentence_cer("ab", ["abc"]).score
    0.3333333333333333
    """
    return CER().sentence_score(hyp, refs)


FAMILY = Family(config=WERConfig, stats=WERStats, metric=WER, aliases=ALIASES)
"""WER's entry in the registry (:mod:`understudy.metrics`)."""
