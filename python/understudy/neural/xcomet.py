"""xCOMET (``Unbabel/XCOMET-XL`` by default): COMET's unified metric with error spans.

Each segment is scored as the reference code's ``XCOMETMetric.predict`` scores it. With a
reference, three sequences are read (``[mt, src]``, ``[mt, ref]``, ``[mt, src, ref]``); each
gives a sentence score (capped at 1 from above) and every hypothesis token's label
probabilities (none, minor, major, critical), combined with the weights 0.1667, 0.3333 and 0.5.
Maximal runs of tokens whose most likely label is an error are the error spans (the first
token's label is the span's severity; a run still open at the hypothesis's last token is
dropped, as the reference code drops it). The spans give an MQM-like score,
``(25 - min(25, minor + 5 major + 10 critical)) / 25``, and the segment score is
``0.12 s1 + 0.33 s2 + 0.33 s3 + 0.22 mqm``. Without a reference, one sequence ``[mt, src]`` and
``0.78 s + 0.22 mqm``. xCOMET's checkpoints are CC BY-NC-SA and gated on the hub.

>>> XCOMET.kind, XCOMET.default_model
('comet-xcomet', 'Unbabel/XCOMET-XL')
>>> penalty([ErrorSpan("x", 0.9, "major", 0, 1), ErrorSpan("y", 0.8, "minor", 2, 3)])
6
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from understudy.computed.metric import Item, Progress
from understudy.computed.xcomet import DEFAULT_MODEL
from understudy.errors import InputError
from understudy.neural._extra import need
from understudy.neural.base import device_of
from understudy.neural.comet import CometCheckpoint
from understudy.neural.comet_model import XCOMET as XCOMET_KINDS
from understudy.neural.comet_model import UnifiedModel

NAMES = {"Unbabel/XCOMET-XL": "xCOMET-XL", "Unbabel/XCOMET-XXL": "xCOMET-XXL"}
LABELS = ("O", "minor", "major", "critical")
"""The tagger's labels by id (the reference code's ``O``, ``I-minor``, ``I-major``, ``I-critical``)."""
SPAN_WEIGHTS = (0.1667, 0.3333, 0.5)
"""The three sequences' weights on the token probabilities (float32, as the reference code's)."""
SCORE_WEIGHTS = (0.12, 0.33, 0.33, 0.22)
"""The three sentence scores' weights and the MQM score's."""
PENALTIES = {"minor": 1, "major": 5, "critical": 10}


@dataclass(frozen=True)
class ErrorSpan:
    """One error span of a hypothesis: its text (as the tokenizer decodes its tokens), the mean
    of its tokens' label probabilities, its severity, and its character offsets in the hypothesis.

    >>> ErrorSpan("Katze", 0.5, "minor", 4, 9).as_dict()["severity"]
    'minor'
    """

    text: str
    confidence: float
    severity: str
    start: int
    end: int

    def as_dict(self) -> dict[str, Any]:
        """The span as the reference code's ``metadata.error_spans`` hold it."""
        return asdict(self)


def penalty(spans: Sequence[ErrorSpan]) -> int:
    """The spans' MQM penalty: 1 a minor, 5 a major, 10 a critical error, at most 25."""
    return min(25, sum(PENALTIES.get(span.severity, 0) for span in spans))


def spans_of(detail: str) -> list[ErrorSpan]:
    """The error spans of a segment's kept details (JSON)."""
    return [ErrorSpan(**span) for span in json.loads(detail)]


class XCOMET(CometCheckpoint):
    """xCOMET (default ``Unbabel/XCOMET-XL``): segment scores and error spans, with or without
    references; the options are :class:`~understudy.neural.comet.CometCheckpoint`'s."""

    kind = "comet-xcomet"
    default_model = DEFAULT_MODEL
    detailed = True
    _with_reference = False
    _model: UnifiedModel | None = None
    _tokens: dict[str, tuple[list[int], list[tuple[int, int]]]]

    @property
    def name(self) -> str:
        """xCOMET-XL (-XXL) for the published checkpoints, else xCOMET (the names of the presets)."""
        return NAMES.get(self.checkpoint.name, "xCOMET")

    def uses_reference(self) -> bool:
        """Whether the last inputs held references."""
        return self._with_reference

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """``(mt, src, ref)``, or ``(mt, src)`` without a reference."""
        if source is None:
            raise InputError("xCOMET needs the source of every segment (--source FILE, or sources=...)")
        self._with_reference = reference is not None
        return (hypothesis, source) if reference is None else (hypothesis, source, reference)

    def begin(self) -> None:
        """Read the model (once) and start a call's tokens afresh."""
        if self._model is None:
            folder = self.checkpoint.folder
            self._model = UnifiedModel(folder, device_of(self.device), self.dtype(), XCOMET_KINDS)
        self._tokens = {}

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        """The scores of a block of distinct items."""
        return self.detailed_block(items, progress)[0]

    def detailed_block(self, items: list[Item], progress: Progress | None) -> tuple[list[float], list[str]]:
        """Each item's score and its error spans (JSON), from one or three sequences."""
        torch = need("torch")
        model = self._model
        assert model is not None
        self._tokenize(model, [t for item in items for t in item])
        passes = [[(0, 1), (0, 2), (0, 1, 2)] if len(item) == 3 else [(0, 1)] for item in items]
        sequences = [
            model.sequence([self._tokens[item[k]][0] for k in chosen])
            for item, per in zip(items, passes, strict=True)
            for chosen in per
        ]
        widths = [len(self._tokens[item[0]][0]) for item, per in zip(items, passes, strict=True) for _ in per]
        scores, probs = self._run(model, sequences, widths, progress)
        scores = scores.view(len(items), -1)
        spans = [
            self._decode(
                model, sequences[k * len(per)], self._combined(probs, k * len(per), len(per)), item[0]
            )
            for k, (item, per) in enumerate(zip(items, passes, strict=True))
        ]
        mqm = (torch.tensor([penalty(s) for s in spans]) * -1 + 25) / 25
        final = _regression(scores) + mqm * SCORE_WEIGHTS[3]
        details = [json.dumps([s.as_dict() for s in per], ensure_ascii=False) for per in spans]
        return [float(v) for v in final.tolist()], details

    def error_spans(
        self, hyps: Sequence[str], refs: Sequence[str] | None, *, sources: Sequence[str] | None = None
    ) -> list[list[ErrorSpan]]:
        """Each segment's error spans, as the reference code's ``metadata.error_spans``."""
        self.system_scores({"system": hyps}, refs, sources)
        return [spans_of(detail) for detail in self.details["system"]]

    def marks(self) -> dict[str, list[list[tuple[str, str]]]]:
        """The last call's spans as ``(severity, text)``, by system and segment."""
        return {
            system: [[(span.severity, span.text) for span in spans_of(detail)] for detail in per]
            for system, per in self.details.items()
        }

    def _tokenize(self, model: UnifiedModel, texts: list[str]) -> None:
        wanted = [t for t in dict.fromkeys(texts) if t not in self._tokens]
        tokenized = model.tokenizer(wanted)
        self.truncated += tokenized.truncated
        self._tokens |= {
            t: (ids, offsets)
            for t, ids, offsets in zip(wanted, tokenized.ids, tokenized.offsets, strict=True)
        }

    def _run(
        self, model: UnifiedModel, sequences: list[list[int]], widths: list[int], progress: Progress | None
    ) -> tuple[Any, list[Any]]:
        """Every sequence's score and its first ``widths`` positions' label probabilities,
        batched by length (float32)."""
        torch = need("torch")
        scores = torch.empty(len(sequences), dtype=torch.float32)
        probs: list[Any] = [None] * len(sequences)
        for chosen in self.batches([len(s) for s in sequences]):
            width = max(widths[k] for k in chosen)
            batch_scores, batch_probs = model.tagged([sequences[k] for k in chosen], width)
            scores[torch.as_tensor(chosen)] = batch_scores.float().cpu()
            for row, k in enumerate(chosen):
                probs[k] = batch_probs[row, : widths[k]].float().cpu()
            if progress is not None:
                progress(len(chosen))
        return scores, probs

    @staticmethod
    def _combined(probs: list[Any], first: int, count: int) -> Any:
        """One item's token probabilities: the single sequence's, or the three's weighted sum."""
        torch = need("torch")
        if count == 1:
            return probs[first]
        weights = torch.tensor(SPAN_WEIGHTS)
        return torch.stack([probs[first + k] * weights[k] for k in range(count)]).sum(dim=0)

    def _decode(
        self, model: UnifiedModel, sequence: list[int], probs: Any, hypothesis: str
    ) -> list[ErrorSpan]:
        """The error spans of one hypothesis: maximal runs of tokens tagged as errors, read off
        the first sequence's ids (as the reference code reads them) and the hypothesis's own
        token offsets."""
        torch = need("torch")
        offsets = self._tokens[hypothesis][1]
        ids = [*sequence[: len(offsets)], *[model.tokenizer.pad_id] * (len(offsets) - len(sequence))]
        values, labels = torch.topk(probs, 1)
        tags = labels[:, 0].tolist()
        spans, start = [], None
        for k, tag in enumerate(tags):
            if tag != 0 and start is None:
                start = k
            elif tag == 0 and start is not None:
                spans.append(
                    ErrorSpan(
                        text=model.tokenizer.decode(ids[start:k]),
                        confidence=float(values[start:k, 0].mean().item()),
                        severity=LABELS[tags[start]],
                        start=offsets[start][0],
                        end=offsets[k - 1][1],
                    )
                )
                start = None
        return spans


def _regression(scores: Any) -> Any:
    """The sentence scores' part of xCOMET's score: each capped at 1 from above, weighted."""
    torch = need("torch")
    capped = torch.where(scores > 1.0, 1.0, scores)
    if capped.shape[1] == 1:
        return capped[:, 0] * sum(SCORE_WEIGHTS[:3])
    return torch.stack([capped[:, k] * w for k, w in enumerate(SCORE_WEIGHTS[:3])], dim=0).sum(dim=0)
