"""Given segment scores (COMET, MetricX, BLEURT, LLM judges, ...): the family's configuration, its
one scoring function, its result, its statistics and its metric object (:class:`GivenScores`).

Scores computed by other tools come one per segment; the corpus score is their mean. Kept as
statistics rows like every metric's, they go through the same paired tests, intervals,
clusters, block t-test, reports and correlations as BLEU. A row is the score in fixed point,
exact and order-free: ``[whole + 2**31, fraction's high 32 bits, its low 32 bits, 1]``, so the
score is kept to 2**-64 (every float64 of magnitude 2**-11 or more exactly; smaller ones to
the nearest multiple of 2**-64, under 2.8e-20 away) and sums of rows are exact in any order.
Scores must be finite and below 2**31 in magnitude.

>>> comet = GivenScores({"A": [0.75, 0.5], "B": [0.25, 0.5]}, name="COMET-22")
>>> comet.corpus_score("A").score, comet.config.higher_is_better, comet.config.score_range
(0.625, True, (None, None))
>>> GivenScores({"A": [3.0, 1.0]}, name="MetricX-24").corpus_score("A").format(width=1)[:47]
'MetricX-24|metric:scores|name:MetricX-24|dir:lo'
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from os import PathLike, fspath
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import quote, unquote

import numpy as np
from numpy.typing import NDArray

from understudy import _core
from understudy.config import MetricConfig, check_bool, option
from understudy.errors import (
    ConfigError,
    EmptyInputError,
    InputError,
    InputTypeError,
    LengthMismatchError,
    SignatureError,
)
from understudy.registry import Family
from understudy.result import Result
from understudy.signature import Signature
from understudy.stats import Stats

# -- configuration ---------------------------------------------------------------------------

FRACTION_BITS = 64
"""A score is kept as a multiple of 2**-FRACTION_BITS."""
BOUND = 2**31
"""Scores must lie strictly between -BOUND and BOUND."""
_LIMB = 2**32

Preset = tuple[str, bool, tuple[float | None, float | None]]


def presets() -> dict[str, Preset]:
    """Known metrics by their name folded (lower case, no ``-``/``_``/space): the name they
    print, whether lower is better, and their range, where the metric has one (the report's
    histograms), as each computed metric declares them (:data:`understudy.registry.COMPUTED`).

    >>> presets()["comet22"], presets()["metricx24"][1]
    (('COMET-22', False, (None, None)), True)
    """
    from understudy.registry import computed_metrics

    known: dict[str, Preset] = {}
    for declared in computed_metrics().values():
        for title in (declared.title, *declared.aliases):
            known[_folded(title)] = (title, not declared.higher_is_better, declared.score_range)
    return known


def preset_names() -> str:
    """The names :func:`presets` knows, for messages: ``COMET, COMET-22, ...``."""
    return ", ".join(name for name, _, _ in presets().values())


def _folded(name: str) -> str:
    return re.sub(r"[-_\s]", "", name.lower())


def preset(name: str) -> Preset | None:
    """The preset of a metric name (case, dashes and spaces ignored), or ``None``.

    >>> preset("comet-22"), preset("MetricX-24")[1], preset("my-judge")
    (('COMET-22', False, (None, None)), True, None)
    """
    return presets().get(_folded(name))


def _text(value: str) -> str:
    # Signature values are split on "|"; names and paths may hold anything else.
    return quote(value, safe="".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "%|")) or "-"


def _untext(value: str) -> str:
    return "" if value == "-" else unquote(value)


def _number(value: float | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _encode_range(config: ScoresConfig) -> str:
    return f"{_number(config.low)}..{_number(config.high)}"


def decode_range(text: str) -> dict[str, Any]:
    """A signature's ``LOW..HIGH`` (either end may be empty) as the configuration's ``low`` and
    ``high``; a :class:`SignatureError` for anything else.

    >>> decode_range("1..5"), decode_range("0..")
    ({'low': 1.0, 'high': 5.0}, {'low': 0.0, 'high': None})
    """
    low, sep, high = text.partition("..")
    try:
        if not sep:
            raise ValueError
        return {"low": float(low) if low else None, "high": float(high) if high else None}
    except ValueError:
        raise SignatureError(f"range must be LOW..HIGH (either may be empty), got {text!r}") from None


def _decode_precision(text: str) -> dict[str, Any]:
    if not re.fullmatch(r"2\^-\d+", text):
        raise SignatureError(f"prec must be 2^-BITS, got {text!r}")
    return {"fraction_bits": int(text[3:])}


@dataclass(frozen=True)
class ScoresConfig(MetricConfig):
    """Given segment scores of one metric: its name, direction and range and the precision they
    are kept to; and, outside the signature, where the scores came from (a file name and the
    SHA-256 of the scores).

    The name, direction and range are declared per use (``higher_is_better`` and ``score_range``
    are this configuration's, not the family's). The signature pins the configuration, never
    the data: two runs of one metric on two systems' outputs compare.

    >>> ScoresConfig("COMET-22", False, 0.0, 1.0, "comet.tsv", "ab12").signature_pairs()
    [('name', 'COMET-22'), ('dir', 'higher'), ('range', '0..1'), ('prec', '2^-64')]
    """

    metric: ClassVar[str] = "scores"
    title: ClassVar[str] = "given scores"
    from_text: ClassVar[bool] = False
    signature_order: ClassVar[tuple[str, ...]] = (
        "name",
        "model",
        "set",
        "rev",
        "dtype",
        "ref",
        "dev",
        "dir",
        "range",
        "prec",
    )

    label: str = option(
        "scores",
        key="name",
        short="nm",
        encode=lambda c: _text(c.label),
        decode=lambda t: {"label": _untext(t)},
    )
    lower_is_better: bool = option(False, key="dir", short="d", text=("lower", "higher"))
    low: float | None = option(None, key="range", short="r", encode=_encode_range, decode=decode_range)
    high: float | None = option(None)
    # Provenance, not configuration: kept with the statistics, never in the signature or in
    # equality (scores of two systems, or of two runs, are the same metric).
    source: str = field(default="", compare=False)
    sha256: str = field(default="", compare=False)
    magnitude: float | None = field(default=None, compare=False)
    """The largest absolute score given: how many decimals to print where no range is declared."""
    fraction_bits: int = option(
        FRACTION_BITS,
        key="prec",
        short="p",
        encode=lambda c: f"2^-{c.fraction_bits}",
        decode=_decode_precision,
    )
    # What computed the scores, where understudy computed them (neural metrics, judges): the
    # checkpoint, its revision (a commit hash), the precision, whether a reference was used, and
    # the kind of device that ran the model (cpu, cuda: their float sums differ in order).
    # Left out when unset, so given scores' signatures stay as they were.
    model: str = option(
        "",
        key="model",
        short="md",
        encode=lambda c: _text(c.model),
        decode=lambda t: {"model": _untext(t)},
        omit_default=True,
        absent="-",
    )
    settings: str = option(
        "",
        key="set",
        short="st",
        encode=lambda c: _text(c.settings),
        decode=lambda t: {"settings": _untext(t)},
        omit_default=True,
        absent="",
    )
    """The metric's own settings that change its numbers beside its checkpoint (BERTScore's
    layer, idf weighting and baseline), as the metric writes them."""
    revision: str = option("", key="rev", short="rv", omit_default=True, absent="")
    dtype: str = option("", key="dtype", short="dt", omit_default=True, absent="")
    reference: str = option("", key="ref", short="rf", omit_default=True, absent="")
    device: str = option("", key="dev", short="dv", omit_default=True, absent="")

    def __post_init__(self) -> None:
        check_bool(self, "lower_is_better")
        if not isinstance(self.label, str) or not self.label.strip() or not self.label.isprintable():
            raise ConfigError(f"a metric's name must be printable text, got {self.label!r}")
        if self.fraction_bits != FRACTION_BITS:
            raise ConfigError(f"given scores are kept to 2^-{FRACTION_BITS}, not 2^-{self.fraction_bits}")
        for bound in (self.low, self.high):
            if bound is not None and (isinstance(bound, bool) or not math.isfinite(bound)):
                raise ConfigError(f"a range's ends must be finite numbers, got {bound!r}")
        if self.low is not None and self.high is not None and not self.low < self.high:
            raise ConfigError(f"a range must have low < high, got {self.low}..{self.high}")
        # Declared per use: these shadow the family's class-level declarations.
        object.__setattr__(self, "higher_is_better", not self.lower_is_better)
        object.__setattr__(self, "score_range", (self.low, self.high))

    @property
    def name(self) -> str:
        """The metric's name as results print it (``COMET-22``)."""
        return self.label

    @property
    def key(self) -> str:
        """The metric's own name: every given metric is of one family, told apart by name."""
        return self.label

    def decimals(self, width: int) -> int:
        """As every metric's, from the declared range; with none, from the scores' own scale, so
        that two judges on 0..1 print 0.512 and 0.498, not 0.5 and 0.5.

        >>> GivenScores({"A": [0.512, 0.3]}, "judge", lower_is_better=False).config.decimals(1)
        3
        >>> GivenScores({"A": [4.5, 3.0]}, "judge", lower_is_better=False).config.decimals(1)
        2
        >>> GivenScores({"A": [0.004, 1.2]}, "COMET-22").config.decimals(1)
        3
        """
        if (self.low is not None and self.high is not None) or not self.magnitude:
            return super().decimals(width)
        if preset(self.label) is not None:
            return width + 2  # COMET's kind: unbounded, but on 0..1's scale, however its scores fall
        scale = 10 ** math.ceil(math.log10(self.magnitude))  # 0.51 is on 0..1, 4.5 on 0..10
        return width if scale >= 100 else width + 2 - round(math.log10(scale))

    @property
    def row_width(self) -> int:
        """Columns of a statistics row: the score in three 32-bit limbs, and the count."""
        return 4

    def core_config(self) -> dict[str, Any]:
        """Nothing: given scores are not computed by the core."""
        return {}


# -- fixed point -------------------------------------------------------------------------------


def fixed_point_rows(scores: Sequence[float] | NDArray[Any], what: str = "scores") -> NDArray[np.int64]:
    """Each score as a statistics row ``[whole + 2**31, high 32 bits, low 32 bits of the
    fraction, 1]``; a score that is not finite or not below 2**31 in magnitude is refused.

    >>> fixed_point_rows([0.5, -0.25]).tolist() == [[2**31, 2**31, 0, 1], [2**31 - 1, 3 * 2**30, 0, 1]]
    True
    """
    try:
        values = np.asarray(scores, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError, OverflowError) as err:
        raise InputError(f"{what}: scores must be numbers ({err})") from None
    # The core's fixed point, as TER's and NIST's lengths are (family/fixed_point.rs).
    rows, bad = _core.families.given_rows(np.ascontiguousarray(values))
    if rows is None:
        k = int(bad or 0)
        raise InputError(
            f"{what}: score {k + 1} is {float(values[k])!r}; a score must be a finite number between"
            f" -2**31 and 2**31 (exclusive)"
        )
    return rows


def scores_sha256(scores: Mapping[str, Sequence[float] | NDArray[np.float64]]) -> str:
    """The SHA-256 of systems' scores, whatever the file format, the systems' names or their
    order: the hash of the sorted hex digests (one per system, of its scores as big-endian
    float64, in segment order), joined by newlines.

    >>> import hashlib, struct
    >>> one = hashlib.sha256(struct.pack(">d", 0.5)).hexdigest()
    >>> scores_sha256({"A": [0.5]}) == hashlib.sha256(one.encode()).hexdigest()
    True
    >>> scores_sha256({"A": [0.5], "B": [0.25]}) == scores_sha256({"x": [0.25], "y": [0.5]})
    True
    """
    import hashlib  # OpenSSL loads when scores are hashed, not when the package is imported

    digests = sorted(
        hashlib.sha256(np.asarray(v, dtype=">f8").tobytes()).hexdigest() for v in scores.values()
    )
    return hashlib.sha256("\n".join(digests).encode("ascii")).hexdigest()


# -- scoring: the one place the arithmetic of given scores lives -------------------------------


def score_given_rows(
    rows: NDArray[np.integer], config: ScoresConfig, float32: bool = False
) -> NDArray[np.float64]:
    """The mean score of each statistics row (summed fixed-point scores and their count),
    rounded once from the exact mean; 0 for a row of no segments. ``float32`` is ignored:
    sacrebleu never scored given scores, and the reference arithmetic is float64.

    >>> rows = fixed_point_rows([0.1, 0.2, 0.7])
    >>> config = ScoresConfig()
    >>> score_given_rows(rows, config).tolist(), float(score_given_rows(rows.sum(0), config)[0])
    ([0.1, 0.2, 0.7], 0.3333333333333333)
    """
    del float32
    rows = np.atleast_2d(np.asarray(rows))
    if rows.shape[1] != config.row_width:
        raise ConfigError(f"rows have {rows.shape[1]} columns; given scores need {config.row_width}")
    whole, high, low, count = (rows[:, k] for k in range(4))
    # One segment's row is a float64 exactly (its score): three exact terms summing to it.
    out: NDArray[np.float64] = (whole - BOUND).astype(np.float64) + high / _LIMB + low / _LIMB**2
    out[count == 0] = 0.0
    summed = np.flatnonzero(count > 1)
    if len(summed):
        # Python's int division rounds the exact quotient once.
        out[summed] = [
            ((h << 64) + (m << 32) + lo - (n * BOUND << 64)) / (n << 64)
            for h, m, lo, n in rows[summed].tolist()
        ]
    return out


# -- result ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScoresResult(Result):
    """The mean of given segment scores.

    >>> r = GivenScores({"A": [0.5, 1.0]}, name="COMET").corpus_score("A")
    >>> r.score, r.segments, r.name
    (0.75, 2, 'COMET')
    """

    score: float
    segments: int
    signature: Signature

    def numbers(self) -> dict[str, Any]:
        """The number of segments averaged."""
        return {"segments": self.segments}


# -- statistics --------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class ScoresStats(Stats[ScoresConfig, ScoresResult]):
    """Rows ``[whole + 2**31, high 32 bits, low 32 bits, 1]`` of given segment scores."""

    metric: ClassVar[str] = "scores"

    def scores_of(self, rows: NDArray[np.integer], float32: bool = False) -> NDArray[np.floating[Any]]:
        """The mean score of each row."""
        return score_given_rows(rows, self.config, float32)

    def exact_sums(self, rows: NDArray[np.integer]) -> list[int] | None:
        """Each row's summed scores exactly, in units of 2**-64 (rows of one segment count).

        >>> stats = GivenScores({"A": [0.1, 0.2]}, name="COMET").segment_stats("A")
        >>> from fractions import Fraction
        >>> Fraction(stats.exact_sums(stats.total()[None])[0], 2**64) == Fraction(0.1) + Fraction(0.2)
        True
        """
        return [
            (whole - count * BOUND << 64) + (high << 32) + low
            for whole, high, low, count in np.atleast_2d(rows).tolist()
        ]

    def _results(self, rows: NDArray[np.int64], signatures: Sequence[Signature]) -> list[ScoresResult]:
        scores = score_given_rows(rows, self.config)
        return [
            ScoresResult(float(score), int(row[3]), sig)
            for score, row, sig in zip(scores, rows, signatures, strict=True)
        ]

    @classmethod
    def impossible(cls, total: NDArray[np.int64]) -> str | None:
        """Limbs beyond 2**32 - 1 per segment, or a whole part beyond the bound."""
        whole, high, low, count = (int(v) for v in total)
        if max(high, low) > count * (_LIMB - 1) or whole > count * (_LIMB - 1):
            return f"{count} segments cannot sum to the fixed-point parts {whole}, {high}, {low}"
        return None


# -- the metric object -------------------------------------------------------------------------


class GivenScores:
    """Segment scores of another metric for named systems, as statistics like every metric's.

    ``scores`` maps each system's name to its segment scores (the same number for every
    system). ``name`` picks a preset (COMET, COMET-22, CometKiwi, BLEURT-20: higher is better,
    unbounded; xCOMET: higher is better, at most 1; MetricX, MetricX-23/24: lower is better,
    0..25); any other name must be told
    ``lower_is_better``. ``score_range`` overrides the preset's range (``None`` ends: unbounded).
    ``source`` names the file the scores came from (kept beside the signature, not in it);
    ``computed_by`` holds the configuration's ``model``, ``revision``, ``dtype`` and
    ``reference`` where understudy computed the scores (:mod:`understudy.neural`); ``spans``,
    where the metric marks errors (xCOMET), each system's segments' ``(severity, text)`` pairs.

    >>> judge = GivenScores({"A": [4, 5, 3], "B": [2, 5, 2]}, name="judge", lower_is_better=False)
    >>> [r.score for r in judge.corpus_scores()], judge.systems
    ([4.0, 3.0], ['A', 'B'])
    >>> from understudy.significance import paired_test
    >>> paired_test(judge.segment_stats_many(), judge.systems, n=200).systems[0].p_value < 0.05
    True
    """

    stats_type = ScoresStats
    config_type = ScoresConfig

    def __init__(
        self,
        scores: Mapping[str, Sequence[float] | NDArray[Any]],
        name: str = "scores",
        *,
        lower_is_better: bool | None = None,
        score_range: tuple[float | None, float | None] | None = None,
        source: str | PathLike[str] = "",
        computed_by: Mapping[str, str] | None = None,
        spans: Mapping[str, Sequence[Sequence[tuple[str, str]]]] | None = None,
    ) -> None:
        self.spans = spans
        """Each system's segments' error spans, ``(severity, text)``, if the metric marks them."""
        known = preset(name)
        if lower_is_better is None:
            if known is None:
                raise ConfigError(
                    f"{name!r} has no preset: say whether lower is better (lower_is_better=True or False;"
                    f" presets: {preset_names()})"
                )
            lower_is_better = known[1]
        low, high = score_range if score_range is not None else known[2] if known else (None, None)
        self._rows, values = _rows_of(scores)
        self.config = ScoresConfig(
            known[0] if known and known[0].lower() == name.lower() else name,
            lower_is_better,
            low,
            high,
            fspath(source),
            scores_sha256(values),
            max(float(np.max(np.abs(v))) for v in values.values()),
            **_computed_by(computed_by or {}),
        )

    @classmethod
    def read(
        cls,
        path: str | PathLike[str],
        name: str | None = None,
        *,
        systems: Sequence[str] | None = None,
        format: str | None = None,
        lower_is_better: bool | None = None,
        score_range: tuple[float | None, float | None] | None = None,
    ) -> GivenScores:
        """Scores read from one file of a named format (see :mod:`understudy.inputs.score_files`);
        ``systems`` keeps those systems, in that order (a missing one is an error). ``name``
        defaults to the file's name without its extension."""
        from understudy.inputs.score_files import read_named_scores, select_systems

        table = read_named_scores(path, format)
        chosen = table if systems is None else select_systems(table, systems, fspath(path))
        label = name or Path(fspath(path)).name.rsplit(".", 1)[0]
        return cls(
            chosen, label, lower_is_better=lower_is_better, score_range=score_range, source=Path(path).name
        )

    @property
    def name(self) -> str:
        """The name the scores print under (a preset's spelling where one is named)."""
        return self.config.name

    @property
    def title(self) -> str:
        """The metric's name in prose: :attr:`name`."""
        return self.config.name

    @property
    def higher_is_better(self) -> bool:
        """Whether a higher score is better, as given or as the preset says."""
        return self.config.higher_is_better

    def inputs(self) -> tuple[str, ...]:
        """What it reads of each segment: nothing, the scores are given."""
        return ()

    def statistics(
        self,
        systems: Mapping[str, Sequence[str]],
        references: Sequence[Sequence[str]] | None,
        sources: Sequence[str] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[ScoresStats]:
        """The statistics of ``systems`` by name (their texts are not read), each checked to have
        a score for each of the references' segments (the hypotheses' without references)."""
        streams = references or list(systems.values())
        count = len(streams[0]) if streams else len(self)
        if len(self) != count:
            raise LengthMismatchError(
                f"{self.config.source or self.name}: {len(self)} {self.name} scores per system, but the"
                f" references have {count} lines"
            )
        return self.segment_stats_many(list(systems))

    def utilities(
        self,
        candidates: Sequence[Sequence[str]],
        pseudo_references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
    ) -> Iterator[NDArray[np.float64]]:
        """Refused: given scores score no candidate."""
        raise InputTypeError(self._no_utility())

    def aggregate(self, hyps: Sequence[str], refs: Sequence[str]) -> NDArray[np.float64]:
        """Refused: given scores score no candidate."""
        raise InputTypeError(self._no_utility())

    def _no_utility(self) -> str:
        return (
            f"given scores ({self.name}) cannot serve as a utility: give a metric object (BLEU(), CHRF(),"
            " TER(), a computed metric)"
        )

    @contextmanager
    def running_on(self, runner: Any) -> Iterator[bool]:
        """Given scores are read, not computed: nothing runs."""
        yield False

    @property
    def systems(self) -> list[str]:
        """The systems' names, in the order given."""
        return list(self._rows)

    def __len__(self) -> int:
        """The number of segments each system has."""
        return len(next(iter(self._rows.values())))

    def segment_stats(self, system: str) -> ScoresStats:
        """One system's statistics: a row per segment."""
        if system not in self._rows:
            raise InputError(f"no scores for system {system!r}; there are scores for {', '.join(self._rows)}")
        rows = self._rows[system]
        return ScoresStats(rows, np.ones(len(rows), dtype=np.int64), self.config)

    def segment_stats_many(self, systems: Sequence[str] | None = None) -> list[ScoresStats]:
        """The statistics of ``systems`` (default: all, in order)."""
        return [self.segment_stats(s) for s in (self.systems if systems is None else systems)]

    def corpus_score(self, system: str) -> ScoresResult:
        """One system's mean score."""
        return self.segment_stats(system).score()

    def corpus_scores(self, systems: Sequence[str] | None = None) -> list[ScoresResult]:
        """The mean score of each of ``systems`` (default: all)."""
        return [stats.score() for stats in self.segment_stats_many(systems)]

    def sentence_scores(self, system: str) -> NDArray[np.float64]:
        """One system's segment scores, as kept."""
        return self.segment_stats(system).sentence_scores()


_COMPUTED_BY = ("model", "settings", "revision", "dtype", "reference", "device")


def error_spans(metric: object) -> Mapping[str, Sequence[Sequence[tuple[str, str]]]] | None:
    """The error spans a metric object marks, each system's segments' ``(severity, text)``;
    ``None`` for a metric that marks none (only given scores can carry them: a computed metric's
    scores are handed on as given scores, spans and all).

    >>> spans = {"a": [[("major", "Haus")]]}
    >>> error_spans(GivenScores({"a": [0.5]}, "xCOMET", spans=spans)) == spans, error_spans("BLEU")
    (True, None)
    """
    return metric.spans if isinstance(metric, GivenScores) else None


def _computed_by(fields: Mapping[str, str]) -> dict[str, Any]:
    unknown = sorted(set(fields) - set(_COMPUTED_BY))
    if unknown:
        raise ConfigError(f"computed_by takes {', '.join(_COMPUTED_BY)}, not {', '.join(unknown)}")
    return {key: str(fields.get(key, "")) for key in _COMPUTED_BY}


def _rows_of(
    scores: Mapping[str, Sequence[float] | NDArray[Any]],
) -> tuple[dict[str, NDArray[np.int64]], dict[str, NDArray[np.float64]]]:
    if not isinstance(scores, Mapping) or not scores:
        raise EmptyInputError("no systems' scores given: expected a mapping of system name to scores")
    rows: dict[str, NDArray[np.int64]] = {}
    for system, values in scores.items():
        if isinstance(values, str | bytes) or not isinstance(values, Sequence | np.ndarray):
            raise InputError(f"the scores of {system!r} must be a sequence of numbers")
        rows[str(system)] = fixed_point_rows(values, f"system {system!r}")
    lengths = {len(r) for r in rows.values()}
    if 0 in lengths:
        raise EmptyInputError("a system has no segment scores")
    if len(lengths) > 1:
        first = next(iter(rows))
        other = next(s for s in rows if len(rows[s]) != len(rows[first]))
        raise LengthMismatchError(
            f"system {first!r} has {len(rows[first])} scores but {other!r} has {len(rows[other])}"
        )
    kept = {system: score_given_rows(r, ScoresConfig()) for system, r in rows.items()}
    return rows, kept


FAMILY = Family(config=ScoresConfig, stats=ScoresStats, metric=GivenScores)
"""Given scores' entry in the registry (:mod:`understudy.metrics`)."""
