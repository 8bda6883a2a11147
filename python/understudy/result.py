"""Result records of every metric: frozen, printable as sacrebleu prints them, serialisable to JSON.

>>> from understudy import corpus_bleu
>>> r = corpus_bleu(["the cat sat on the mat"], [["the cat sat on the mat"]])
>>> r.format(width=1)
'BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|ngram:4|version:understudy-0.1.0 = 100.0 \
100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from understudy.config import CHRFConfig
from understudy.signature import Signature


@dataclass(frozen=True)
class BLEUResult:
    """One BLEU score with everything it was computed from.

    ``counts`` and ``totals`` are the clipped matches and hypothesis n-grams per order,
    as counted (sacrebleu adds ``k`` to them under ``add-k``; understudy reports the
    counts unmodified, and the score is the same).
    """

    score: float
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    signature: Signature

    name = "BLEU"

    @property
    def ratio(self) -> float:
        """Hypothesis length over reference length (0 when the reference length is 0)."""
        return self.sys_len / self.ref_len if self.ref_len else 0.0

    @property
    def verbose(self) -> str:
        """The precisions, brevity penalty, ratio and lengths, as sacrebleu prints them."""
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"{prec} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    def format(self, width: int = 2, score_only: bool = False, short: bool = False) -> str:
        """``BLEU|<signature> = <score> <verbose>``, or the score alone."""
        score = f"{self.score:.{width}f}"
        if score_only:
            return score
        return f"{self.name}|{self.signature.format(short)} = {score} {self.verbose}"

    def to_dict(self, width: int | None = None) -> dict[str, Any]:
        """Every number, plus the signature as a string and key by key.

        ``score`` is rounded to ``width`` decimals when given (as sacrebleu's JSON is).
        """
        out: dict[str, Any] = {
            "name": self.name,
            "score": self.score if width is None else round(self.score, width),
            "signature": self.signature.format(),
            "verbose_score": self.verbose,
            "counts": list(self.counts),
            "totals": list(self.totals),
            "precisions": list(self.precisions),
            "bp": self.bp,
            "ratio": self.ratio,
            "hyp_len": self.sys_len,
            "ref_len": self.ref_len,
        }
        for key, value in self.signature.items():
            out[key] = value
        return out

    def to_json(self, width: int | None = None) -> str:
        """:meth:`to_dict` as indented JSON."""
        return json.dumps(self.to_dict(width), indent=1, ensure_ascii=False)

    def __str__(self) -> str:
        return self.format()


class _ScoreLine:
    """What chrF and TER results print like, as sacrebleu prints them: ``NAME|signature = score``."""

    score: float
    signature: Signature

    @property
    def name(self) -> str:
        """The metric's name as it prints."""
        return self.signature.config.name

    def to_dict(self, width: int | None = None) -> dict[str, Any]:
        """Every number (the metric's own), plus the signature."""
        raise NotImplementedError

    def format(self, width: int = 2, score_only: bool = False, short: bool = False) -> str:
        """``NAME|<signature> = <score>``, or the score alone."""
        score = f"{self.score:.{width}f}"
        return score if score_only else f"{self.name}|{self.signature.format(short)} = {score}"

    def to_json(self, width: int | None = None) -> str:
        """:meth:`to_dict` as indented JSON."""
        return json.dumps(self.to_dict(width), indent=1, ensure_ascii=False)

    def __str__(self) -> str:
        return self.format()


@dataclass(frozen=True)
class CHRFResult(_ScoreLine):
    """One chrF (or chrF++) score, with the summed statistics row it was computed from.

    ``stats`` is ``[hyp, ref, match]`` per order, character orders first.

    >>> from understudy import corpus_chrf
    >>> print(corpus_chrf(["the cat"], [["the cat"]]))
    chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|beta:2|version:understudy-0.1.0 = 100.00
    """

    score: float
    stats: tuple[int, ...]
    signature: Signature

    @property
    def char_order(self) -> int:
        """The character n-gram order."""
        return _chrf(self).char_order

    @property
    def word_order(self) -> int:
        """The word n-gram order (2 for chrF++)."""
        return _chrf(self).word_order

    @property
    def beta(self) -> float:
        """The weight of recall against precision."""
        return _chrf(self).beta

    def to_dict(self, width: int | None = None) -> dict[str, Any]:
        """Every number, plus the signature as a string and key by key."""
        out: dict[str, Any] = {
            "name": self.name,
            "score": self.score if width is None else round(self.score, width),
            "signature": self.signature.format(),
        }
        numbers = {"char_order": self.char_order, "word_order": self.word_order, "beta": self.beta}
        return out | dict(self.signature.items()) | numbers | {"stats": list(self.stats)}


@dataclass(frozen=True)
class TERResult(_ScoreLine):
    """One TER score: edits per reference word, times 100 (lower is better).

    ``num_edits`` is the summed fewest edits; ``ref_length`` the summed average
    reference length (as sacrebleu's ``TERScore`` has them).

    >>> from understudy import corpus_ter
    >>> r = corpus_ter(["a b c x"], [["a b c d"]])
    >>> r.score, r.num_edits, r.ref_length
    (25.0, 1, 4.0)
    """

    score: float
    num_edits: int
    ref_length: float
    signature: Signature

    def to_dict(self, width: int | None = None) -> dict[str, Any]:
        """Every number, plus the signature as a string and key by key."""
        out: dict[str, Any] = {
            "name": self.name,
            "score": self.score if width is None else round(self.score, width),
            "signature": self.signature.format(),
        }
        return (
            out | dict(self.signature.items()) | {"num_edits": self.num_edits, "ref_length": self.ref_length}
        )


def _chrf(result: CHRFResult) -> CHRFConfig:
    config = result.signature.config
    assert isinstance(config, CHRFConfig)
    return config


Result = BLEUResult | CHRFResult | TERResult
"""A result of any metric."""
