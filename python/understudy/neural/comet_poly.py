"""COMET-poly as a metric object: the COMET-poly fork's scores (zouharvi/COMET-poly at d559a61)
of a translation read beside other translations of its source or beside retrieved examples.

A checkpoint is COMET's layout (``hparams.yaml`` naming ``polycand_metric`` or
``polyic_metric`` and its encoder, ``checkpoints/model.ckpt``); ``additional_translation_in``
says how many extra inputs it reads (none for ``base``). Every text is embedded alone as
wmt22-comet-da's are (the layer mix, averaged), then, with ``s``, ``m`` the source's and the
translation's embeddings:

* PolyCand (base, cand1, cand2): ``[m, s, m*s, |m-s|]``, and for each other translation ``mX``
  ``[mX, mX*s, |mX-s|, mX*m, |mX-m|]``;
* PolyIC (ic1, ic3): ``[m, s, m*s, |m-s|]``, for each example (its source ``sX``, translation
  ``mX``) ``[mX, s, sX*s, |sX-s|, mX*m, |mX-m|, mX*sX, |mX-sX|]`` (the query's source again in
  the second place, as the fork writes it), then the examples' raw scores;

and the score is the estimator's output. No reference is read. The fork's ``predict`` takes
the extra inputs from its caller and chooses none: here they are given (``candidates=``,
``examples=``, or their files on the command line), or, for the candidates, taken from the other
systems scored in the same call: of a segment's other translations, those that differ from the
one scored first, then the equal ones, in the systems' order.

>>> CometPoly.kind, CometPoly.higher_is_better
('comet-poly', True)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any, Self

from understudy.computed.cache import ScoreCache
from understudy.computed.comet_poly import DEFAULT_MODEL, CometPolyConfig
from understudy.computed.metric import Item, Progress, References
from understudy.errors import InputError, InputFileError, ModelError
from understudy.inputs.files import read_lines
from understudy.neural._extra import need
from understudy.neural.base import device_of
from understudy.neural.comet import CometCheckpoint
from understudy.neural.comet_model import RegressionModel

CAND, IC = "polycand_metric", "polyic_metric"
Examples = Sequence[Sequence[Mapping[str, Any]]]
"""Each segment's in-context examples, ``{"src", "mt", "score"}`` each, nearest first."""


@dataclass(frozen=True)
class Variant:
    """What a checkpoint reads beside the source and the translation: its class and how many
    other translations (PolyCand) or examples (PolyIC)."""

    kind: str
    count: int

    @classmethod
    def of(cls, folder: Path) -> Variant:
        """The variant ``hparams.yaml`` declares; what the fork would not run, or understudy does
        not read, refused."""
        yaml = need("yaml")
        try:
            hparams = yaml.safe_load((folder / "hparams.yaml").read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as err:
            raise ModelError(f"{folder}: no readable hparams.yaml ({type(err).__name__})") from None
        kind = hparams.get("class_identifier") if isinstance(hparams, dict) else None
        if kind not in (CAND, IC):
            raise ModelError(f"{folder}: a checkpoint of class {kind!r}; COMET-poly's is {CAND} or {IC}")
        for key in ("use_ref", "additional_score_in", "additional_score_out"):
            if any(_flags(hparams.get(key))):
                raise ModelError(
                    f"{folder}: {key} is set; understudy reads the wmt25 models, which have it off"
                )
        return cls(str(kind), sum(_flags(hparams.get("additional_translation_in"))))

    @property
    def reads(self) -> str:
        """What the extra inputs are called."""
        if self.kind == CAND:
            return f"{self.count} other translation(s) of each source"
        return f"{self.count} in-context example(s) a segment"


def _flags(value: Any) -> list[bool]:
    """A flag or a list of flags, as a list."""
    return [bool(v) for v in value] if isinstance(value, list) else [bool(value)]


class PolyModel(RegressionModel):
    """A COMET-poly checkpoint read: wmt22-comet-da's embedding, the fork's features."""

    kinds = (CAND, IC)

    def poly_estimate(self, parts: Sequence[Any], scores: Any | None) -> Any:
        """Segment scores from the embeddings of each item's texts (``parts``: source,
        translation, then the extras' rows) and PolyIC's raw example scores."""
        torch = need("torch")
        s, m, *extra = parts
        features = [m, s, m * s, torch.abs(m - s)]
        if scores is None:
            for x in extra:
                features += [x, x * s, torch.abs(x - s), x * m, torch.abs(x - m)]
        else:
            for sx, mx in zip(extra[0::2], extra[1::2], strict=True):
                features += [mx, s, sx * s, torch.abs(sx - s), mx * m, torch.abs(mx - m)]
                features += [mx * sx, torch.abs(mx - sx)]
            features.append(scores.to(m.dtype))
        with torch.inference_mode():
            return self.estimator(torch.cat(features, dim=1)).view(-1)


class CometPoly(CometCheckpoint):
    """COMET-poly of the checkpoint ``model`` (a hub name, ``NAME@REVISION`` or a local folder in
    COMET's layout; default ``zouharvi/COMET-poly-base-wmt25``). ``candidates`` (each segment's
    other translations, in the order the model takes them) and ``examples`` (each segment's
    in-context examples, ``{"src", "mt", "score"}``, nearest first) are what a call reads where
    it is given none. Other options as :class:`~understudy.neural.COMET`'s.
    """

    kind = "comet-poly"
    default_model = DEFAULT_MODEL
    _model: PolyModel | None = None

    def __init__(
        self,
        model: str | PathLike[str] | None = None,
        *,
        candidates: Sequence[Sequence[str]] | None = None,
        examples: Examples | None = None,
        batch_size: int = 16,
        device: str = "auto",
        precision: str = "fp32",
        cache: ScoreCache | str | PathLike[str] | None = "default",
    ) -> None:
        super().__init__(model, batch_size=batch_size, device=device, precision=precision, cache=cache)
        self.variant = Variant.of(self.checkpoint.folder)
        self.candidates, self.examples = candidates, examples
        self._embedded: dict[str, Any] = {}

    @property
    def name(self) -> str:
        """``COMET-poly``."""
        return "COMET-poly"

    @classmethod
    def from_config(cls, config: CometPolyConfig, pair: str | None = None) -> Self:  # type: ignore[override]
        """The metric as its command-line configuration says (:mod:`understudy.computed.comet_poly`):
        the candidates' and examples' files read."""
        candidates = None
        if config.candidates:
            columns = [read_lines(path, allow_empty=True) for path in config.candidates]
            _same_lengths(list(config.candidates), columns)
            candidates = [list(row) for row in zip(*columns, strict=True)]
        examples = None if config.examples is None else read_examples(config.examples)
        return cls(config.model, candidates=candidates, examples=examples, **config.running())

    def uses_reference(self) -> bool:
        """No: COMET-poly reads the source and translations only."""
        return False

    def reads_references(self) -> bool:
        """No: no reference changes its scores."""
        return False

    def computed_by(self) -> dict[str, str]:
        """As every COMET checkpoint's, with where the extra inputs came from (the settings)."""
        pinned = super().computed_by()
        if self.variant.count == 0:
            return pinned
        if self.variant.kind == IC:
            return pinned | {"settings": f"ex{self.variant.count}:given"}
        source = "given" if self.candidates is not None else "systems"
        return pinned | {"settings": f"cand{self.variant.count}:{source}"}

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """The source and the translation (the extras follow, :meth:`items_of`)."""
        if source is None:
            raise InputError("COMET-poly needs the source of every segment (--source FILE, or sources=...)")
        return (source, hypothesis)

    def items_of(
        self, systems: Mapping[str, Sequence[str]], refs: References, sources: Sequence[str] | None
    ) -> dict[str, list[Item]]:
        """Each segment's source and translation, then its other translations or examples."""
        count = self.check(systems, None, sources)
        for given, what in ((self.candidates, "candidates"), (self.examples, "examples")):
            if given is not None and len(given) != count:
                raise InputError(f"{len(given)} segments of {what} for {count} segments")
        return {
            system: [
                (
                    *self.item(sources[k] if sources else None, hyps[k], None),
                    *self._extras(system, systems, k),
                )
                for k in range(count)
            ]
            for system, hyps in systems.items()
        }

    def _extras(self, system: str, systems: Mapping[str, Sequence[str]], k: int) -> tuple[str, ...]:
        """Segment ``k``'s extra inputs for ``system``'s translation."""
        need_count = self.variant.count
        if need_count == 0:
            return ()
        if self.variant.kind == IC:
            return _examples_of(self.examples, k, need_count, self.variant.reads)
        if self.candidates is not None:
            given = list(self.candidates[k])
            if len(given) < need_count:
                raise InputError(
                    f"segment {k + 1}: {len(given)} candidate(s); the model reads {self.variant.reads}"
                )
            return tuple(given[:need_count])
        mine = systems[system][k]
        others = [hyps[k] for name, hyps in systems.items() if name != system]
        chosen = [o for o in others if o != mine] + [o for o in others if o == mine]
        if len(chosen) < need_count:
            raise InputError(
                f"the model reads {self.variant.reads}: give them (candidates=, --comet-poly-candidates"
                f" FILE...) or score at least {need_count + 1} systems together, whose translations it reads"
            )
        return tuple(chosen[:need_count])

    def sentence_scores(
        self,
        hyps: Sequence[str],
        refs: References = None,
        *,
        sources: Sequence[str] | None = None,
        candidates: Sequence[Sequence[str]] | None = None,
        examples: Examples | None = None,
    ) -> list[float]:
        """One score per segment, as the fork's ``predict`` gives them; ``refs`` are not read;
        ``candidates`` and ``examples`` for this call (else the metric's own)."""
        before = self.candidates, self.examples
        self.candidates = before[0] if candidates is None else candidates
        self.examples = before[1] if examples is None else examples
        try:
            return super().sentence_scores(hyps, None, sources=sources)
        finally:
            self.candidates, self.examples = before

    def begin(self) -> None:
        """Read the model (once) and start a call's embeddings afresh."""
        if self._model is None:
            self._model = PolyModel(self.checkpoint.folder, device_of(self.device), self.dtype())
        self._embedded = {}

    def score_block(self, items: list[Item], progress: Progress | None) -> list[float]:
        """Embed the block's texts not yet embedded in this call, then score each item."""
        torch = need("torch")
        model = self._model
        assert model is not None
        ic = self.variant.kind == IC
        places = [p for p in range(len(items[0])) if not (ic and p >= 2 and (p - 2) % 3 == 2)]
        texts = dict.fromkeys(item[p] for item in items for p in places)
        self._embedded |= self._embed(model, [t for t in texts if t not in self._embedded], progress)
        parts = [torch.stack([self._embedded[item[p]] for item in items]) for p in places]
        scores = None
        if ic:
            raw = [[float(item[p]) for p in range(4, len(item), 3)] for item in items]
            scores = torch.tensor(raw, dtype=torch.float32, device=parts[0].device)
        values: list[float] = model.poly_estimate(parts, scores).float().cpu().tolist()
        return values


def _examples_of(examples: Examples | None, k: int, count: int, reads: str) -> tuple[str, ...]:
    """Segment ``k``'s first ``count`` examples as an item's texts: source, translation, score."""
    if examples is None:
        raise InputError(
            f'the model reads {reads}: give examples= (each segment\'s {{"src", "mt", "score"}}, nearest'
            " first) or --comet-poly-examples FILE.jsonl"
        )
    given = list(examples[k])
    if len(given) < count:
        raise InputError(f"segment {k + 1}: {len(given)} in-context example(s); the model reads {reads}")
    out: list[str] = []
    for j, example in enumerate(given[:count], start=1):
        where = f"segment {k + 1}, example {j}"
        if not isinstance(example, Mapping) or not all(key in example for key in ("src", "mt", "score")):
            raise InputError(f'{where}: expected {{"src", "mt", "score"}}')
        if not isinstance(example["src"], str) or not isinstance(example["mt"], str):
            raise InputError(f"{where}: src and mt are strings")
        out += [example["src"], example["mt"], repr(_score(example["score"], where))]
    return tuple(out)


def _score(value: Any, where: str) -> float:
    """An example's score as the fork reads it (``float()``: ``"33.9"`` too), finite."""
    try:
        score = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{where}: score {value!r} is not a number") from None
    if isinstance(value, bool) or not math.isfinite(score):
        raise InputError(f"{where}: score {value!r} is not a finite number")
    return score


def read_examples(path: str) -> list[list[dict[str, Any]]]:
    """Each segment's in-context examples from a JSON-lines file: a line is a list of
    ``{"src", "mt", "score"}`` (nearest first) or an object with ``src2``, ``mt2``, ``score2``,
    ``src3``, ... as the fork's samples carry them."""
    out = []
    for number, line in enumerate(read_lines(path), start=1):
        where = f"{path}, line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputFileError(f"{where}: not JSON ({err.msg})") from None
        if isinstance(record, dict):
            places = range(2, 2 + sum(1 for key in record if key.startswith("mt") and key[2:].isdigit()))
            missing = [
                f"{key}{j}" for j in places for key in ("src", "mt", "score") if f"{key}{j}" not in record
            ]
            if missing:
                raise InputFileError(f"{where}: no {missing[0]} (src2, mt2, score2, src3, ... in turn)")
            record = [{key: record[f"{key}{j}"] for key in ("src", "mt", "score")} for j in places]
        if not isinstance(record, list):
            raise InputFileError(
                f'{where}: expected a list of {{"src", "mt", "score"}} or an object with src2, mt2, score2'
            )
        out.append(record)
    return out


def _same_lengths(paths: list[str], columns: list[list[str]]) -> None:
    """Refuse candidate files of unequal lengths, naming them."""
    lengths = {len(c) for c in columns}
    if len(lengths) > 1:
        told = ", ".join(f"{p} ({len(c)})" for p, c in zip(paths, columns, strict=True))
        raise InputFileError(f"the candidate files have different numbers of lines: {told}")
