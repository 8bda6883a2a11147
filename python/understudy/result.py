"""What every metric's result record is: frozen, printable as sacrebleu prints it, serialisable to JSON.

Each family's result (``BLEUResult``, ``CHRFResult``, ``TERResult`` in
:mod:`understudy.metrics`) derives from :class:`Result` and adds its own numbers.

>>> from understudy import corpus_bleu
>>> r = corpus_bleu(["the cat sat on the mat"], [["the cat sat on the mat"]])
>>> r.format(width=1)
'BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|ngram:4|version:understudy-0.1.0 = 100.0 \
100.0/100.0/100.0/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 6 ref_len = 6)'
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, TypeVar, cast

from understudy.signature import Signature

R = TypeVar("R", bound="Result")


class Result:
    """A score with its signature: ``NAME|<signature> = <score>[ <verbose>]``.

    Subclasses are frozen dataclasses with ``score`` and ``signature`` fields; they add
    their numbers in :meth:`numbers` and, where sacrebleu prints more than the score, a
    :attr:`verbose` text.
    """

    score: float
    signature: Signature

    @property
    def name(self) -> str:
        """The metric's name as it prints."""
        return self.signature.config.name

    @property
    def verbose(self) -> str:
        """What prints after the score (empty for most metrics)."""
        return ""

    def with_signature(self: R, signature: Signature) -> R:
        """This result under another signature (a test set's keys added, say)."""
        changed: R = dataclasses.replace(cast(Any, self), signature=signature)
        return changed

    def numbers(self) -> dict[str, Any]:
        """The metric's own numbers, for :meth:`to_dict`."""
        return {}

    def sacrebleu_format(
        self,
        width: int = 2,
        score_only: bool = False,
        short: bool = False,
        is_json: bool = False,
        interval: tuple[float, float] | None = None,
    ) -> str:
        """What sacrebleu's command line prints of this result (see :func:`sacrebleu_text`), with
        a bootstrap ``interval`` (mean, half width) when given.

        >>> from understudy import corpus_chrf
        >>> print(corpus_chrf(["a cat"], [["a cat"]]).sacrebleu_format(1, is_json=True, interval=(99.0, 1.0)))
        ... # doctest: +ELLIPSIS
        {
         "name": "chrF2",
         "score": 100.0,
         "signature": "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|beta:2|version:understudy-0.1.0",
         "confidence_mean": 99.0,
         "confidence_var": 1.0,
         "confidence": "μ = 99.0 ± 1.0",
         "nrefs": "1",
        ...
        """
        w = self.signature.config.decimals(width)
        signature = self.signature.format(short)
        return sacrebleu_text(
            self.name, self.score, w, signature, self.verbose, interval, score_only, is_json
        )

    def format(self, width: int = 2, score_only: bool = False, short: bool = False) -> str:
        """``NAME|<signature> = <score>`` and the verbose text, or the score alone; ``width``
        decimals on a 0-100 scale (see :meth:`~understudy.config.MetricConfig.decimals`)."""
        score = f"{self.score:.{self.signature.config.decimals(width)}f}"
        if score_only:
            return score
        line = f"{self.name}|{self.signature.format(short)} = {score}"
        return f"{line} {self.verbose}" if self.verbose else line

    def to_dict(self, width: int | None = None) -> dict[str, Any]:
        """Every number, plus the signature as a string and key by key.

        ``score`` is rounded to ``width`` decimals when given (as sacrebleu's JSON is).
        """
        out: dict[str, Any] = {
            "name": self.name,
            "score": self.score
            if width is None
            else round(self.score, self.signature.config.decimals(width)),
            "signature": self.signature.format(),
        }
        return out | self.head() | dict(self.signature.items()) | self.numbers()

    def head(self) -> dict[str, Any]:
        """Numbers that :meth:`to_dict` puts before the signature's keys (BLEU's, as before)."""
        return {}

    def to_json(self, width: int | None = None) -> str:
        """:meth:`to_dict` as indented JSON."""
        return json.dumps(self.to_dict(width), indent=1, ensure_ascii=False)

    def __str__(self) -> str:
        return self.format()


def sacrebleu_text(
    name: str,
    score: float,
    width: int,
    signature: str = "",
    verbose: str = "",
    interval: tuple[float, float] | None = None,
    score_only: bool = False,
    is_json: bool = False,
) -> str:
    """sacrebleu's ``Score.format``: ``NAME|<signature> = <score>[ (μ = <mean> ± <half>)][ <verbose>]``,
    the score (and interval) alone, or the JSON document of its command line (the score and interval
    rounded to ``width``, then the signature key by key).

    >>> sacrebleu_text("TER", 61.23, 1, "nrefs:1|case:lc", interval=(60.5, 2.25))
    'TER|nrefs:1|case:lc = 61.2 (μ = 60.5 ± 2.2)'
    """
    text = f"{score:.{width}f}"
    record: dict[str, Any] = {"name": name, "score": float(text), "signature": signature}
    if interval is not None and interval[0] > 0:
        mean, half = f"{interval[0]:.{width}f}", f"{interval[1]:.{width}f}"
        text += f" (μ = {mean} ± {half})"
        record |= {
            "confidence_mean": float(mean),
            "confidence_var": float(half),
            "confidence": f"μ = {mean} ± {half}",
        }
    if score_only:
        return text
    line = f"{name}|{signature} = {text}" if signature else f"{name} = {text}"
    if verbose:
        line += f" {verbose}"
        record["verbose_score"] = verbose
    if not is_json:
        return line
    for pair in signature.split("|") if signature else []:
        key, _, value = pair.partition(":")
        record[key] = value
    return json.dumps(record, indent=1, ensure_ascii=False)
