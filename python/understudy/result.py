"""Result records: frozen, printable as sacrebleu prints them, serialisable to JSON.

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
