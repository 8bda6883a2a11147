"""LLM judges as metrics: GEMBA-MQM and ESA scores of segments, asked of an OpenAI-compatible
endpoint, cached, and handed on as given scores whose signature pins the endpoint's model, the
template (name, version, hash) and the decoding settings.

Each distinct (language pair, source, hypothesis) is asked once, ``concurrency`` requests at a
time, with temperature 0 and a fixed seed; an answer that cannot be read is asked again with
the same settings, at most ``answer_retries`` times, then recorded as a failure. Failures are
never dropped from a mean and never cached: the call ends with a
:class:`~understudy.errors.JudgeAnswerError` counting them, the answers that were read kept in
the cache, so that a re-run asks only for the failed ones.

>>> judge = GembaMQM("http://127.0.0.1:8000/v1", "my-model", pair="en-de", cache=None)
>>> judge.name, judge.computed_by()["revision"][:12]
('GEMBA-MQM', 'gemba-mqm-v1')
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict
from os import PathLike
from typing import Any, ClassVar, Self

from understudy.computed.cache import ScoreCache
from understudy.computed.metric import ComputedMetric, Item, Progress, References
from understudy.errors import InputError, JudgeAnswerError, JudgeTooLongError
from understudy.judges.endpoint import Endpoint
from understudy.judges.esa import parse_esa
from understudy.judges.gemba_mqm import parse_gemba_mqm
from understudy.judges.prompts import Template
from understudy.judges.spans import ErrorSpan
from understudy.metrics.scores import GivenScores
from understudy.registry.declarations import JudgeConfig


def _gemba_mqm(answer: str, hypothesis: str) -> tuple[float, list[ErrorSpan]]:
    parsed = parse_gemba_mqm(answer)
    return float(-parsed.penalty()), parsed.spans(hypothesis)


def _esa(answer: str, hypothesis: str) -> tuple[float, list[ErrorSpan]]:
    parsed = parse_esa(answer)
    return parsed.score, parsed.spans(hypothesis)


class Judge(ComputedMetric):
    """What GEMBA-MQM and ESA share; a subclass names its template and how it reads answers."""

    template_name: ClassVar[str]
    title: ClassVar[str]
    detailed = True
    unit = "segments"
    block = 1024
    """Answers cached at a time; an interrupted block keeps the answers it read."""

    def __init__(
        self,
        url: str,
        model: str,
        *,
        pair: str,
        concurrency: int = 4,
        answer_retries: int = 2,
        seed: int = 0,
        max_tokens: int = 1024,
        timeout: float = 120.0,
        cache: ScoreCache | str | PathLike[str] | None = "default",
    ) -> None:
        if not isinstance(concurrency, int) or concurrency < 1:
            raise InputError(f"concurrency must be a whole number from 1, got {concurrency!r}")
        self.endpoint = Endpoint(url, model, timeout=timeout)
        self.template = Template.load(self.template_name)
        self.template.messages(pair, "", "")  # the pair checked now, not after the first answers
        self.pair, self.concurrency, self.answer_retries = pair, concurrency, answer_retries
        self.settings = {"temperature": 0.0, "seed": seed, "max_tokens": max_tokens}
        super().__init__(cache=cache)
        self.failures: list[str] = []
        """The last call's unreadable answers: what was wrong with each."""
        self.started = time.monotonic()

    @classmethod
    def from_config(cls, config: JudgeConfig, pair: str | None) -> Self:
        """The judge as its command-line configuration says (:mod:`understudy.computed.esa`),
        prompted for the language ``pair``."""
        url, model, pair = config.endpoint(cls.template_name, pair)
        return cls(url, model, pair=pair, concurrency=config.concurrency, cache=config.cache)

    @property
    def name(self) -> str:
        """The metric's name as results print it."""
        return self.title

    def computed_by(self) -> dict[str, str]:
        """The endpoint's model, the template (name, version, hash) and the decoding settings."""
        template = self.template
        return {
            "model": self.endpoint.model,
            "revision": f"{template.name}-v{template.version}-{template.sha256[:16]}",
            "dtype": "t{temperature:g}-seed{seed}-max{max_tokens}".format(**self.settings),
            "reference": "no",
        }

    def read(self, answer: str, hypothesis: str) -> tuple[float, list[ErrorSpan]]:
        """An answer's score and its spans located in ``hypothesis``."""
        raise NotImplementedError

    def _read(self, answer: str, hypothesis: str) -> tuple[float, list[ErrorSpan]]:
        """:meth:`read`, with an answer that breaks the parser (a ``null`` where a list
        belongs, a number too large for a float) an unreadable answer, as GEMBA counts it."""
        try:
            score, spans = self.read(answer, hypothesis)
            if not math.isfinite(score):
                raise ValueError(f"a score of {score}")
        except JudgeAnswerError:
            raise
        except (TypeError, ValueError, ArithmeticError, KeyError, IndexError, AttributeError) as err:
            raise JudgeAnswerError(
                f"an answer {self.title} cannot read ({type(err).__name__}: {err})"
            ) from None
        return score, spans

    def uses_reference(self) -> bool:
        """A judge reads the source and the hypothesis."""
        return False

    def reads_references(self) -> bool:
        """A judge reads none."""
        return False

    def item(self, source: str | None, hypothesis: str, reference: str | None) -> Item:
        """The language pair, the source and the hypothesis."""
        if source is None:
            raise InputError(f"{self.title} needs the source segments (sources=, or --source)")
        return (self.pair, source, hypothesis)

    def detailed_block(self, items: list[Item], progress: Progress | None) -> tuple[list[float], list[str]]:
        """Each item asked of the endpoint, ``concurrency`` at a time. When the run stops early
        (Ctrl-C, the endpoint gone), the answers already read are cached before it ends, so
        that a re-run continues where this one stopped."""
        done: dict[int, tuple[float, str]] = {}
        pool = ThreadPoolExecutor(max_workers=self.concurrency)
        asked = {pool.submit(self._judged, item): k for k, item in enumerate(items)}
        try:
            for future in as_completed(asked):
                done[asked[future]] = future.result()
                if progress is not None:
                    progress(1)
        except BaseException:
            # Ends the requests in flight and the waits between attempts: the threads return now.
            self.endpoint.abort()
            pool.shutdown(wait=False, cancel_futures=True)
            read = {self.cache_key(items[k]): result for k, result in done.items()}
            self.keep({key: s for key, (s, _) in read.items()}, {key: d for key, (_, d) in read.items()})
            raise
        pool.shutdown()
        return [done[k][0] for k in range(len(items))], [done[k][1] for k in range(len(items))]

    def _judged(self, item: Item) -> tuple[float, str]:
        """One segment's score and spans (JSON); NaN and the reason when no answer could be read."""
        _, source, hypothesis = item
        messages = self.template.messages(self.pair, source, hypothesis)
        problem = ""
        for _ in range(self.answer_retries + 1):
            try:
                score, spans = self._read(self.endpoint.chat(messages, **self.settings), hypothesis)
            except JudgeTooLongError as err:  # the same request would be refused again
                problem = str(err)
                break
            except JudgeAnswerError as err:
                problem = str(err)
                continue
            return score, json.dumps([asdict(span) for span in spans], ensure_ascii=False)
        self.failures.append(problem)
        return float("nan"), json.dumps({"failure": problem})

    def system_scores(
        self,
        systems: Mapping[str, Sequence[str]],
        refs: References,
        sources: Sequence[str] | None,
        progress: Progress | None = None,
    ) -> GivenScores:
        """Every system's segment scores; any answer that could not be read ends the call with a
        :class:`~understudy.errors.JudgeAnswerError` counting them (the others are cached)."""
        self.failures, self.started, self.endpoint.sent = [], time.monotonic(), 0
        try:
            return super().system_scores(systems, refs, sources, progress)
        except InputError:
            if not self.failures:
                raise
        attempts = self.answer_retries + 1
        raise JudgeAnswerError(
            f"{self.title}: {len(self.failures)} of {self.computed} answers could not be read after"
            f" {attempts} attempt(s) each (first: {self.failures[0]}); the answers read are cached,"
            " and a re-run asks only for these"
        )

    def notices(self) -> list[str]:
        """Spans the answers quote that their hypothesis does not hold (kept, without offsets)."""
        spans = [span for per in self.details.values() for detail in per for span in _spans(detail)]
        lost = sum(1 for span in spans if span["text"] and span["start"] is None)
        if not lost:
            return []
        return [f"{self.title}: {lost} of {len(spans)} error spans quote text the hypothesis does not hold"]

    def status(self) -> str:
        """Requests a second (retries included) and unreadable answers, so far in this call."""
        rate = self.endpoint.sent / max(time.monotonic() - self.started, 1e-9)
        return f"{rate:.1f} req/s, {len(self.failures)} failed"

    def error_spans(self, hyps: Sequence[str], *, sources: Sequence[str]) -> list[list[ErrorSpan]]:
        """Each segment's error spans (severity, category, the quoted text, where it is in the
        hypothesis), as the answers give them; a failed answer ends the call, as scores do."""
        self.system_scores({"system": hyps}, None, sources)
        return [[ErrorSpan(**span) for span in _spans(detail)] for detail in self.details["system"]]

    def marks(self) -> dict[str, list[list[tuple[str, str]]]]:
        """The last call's spans as ``(severity, text)``, by system and segment."""
        return {system: [_marks(detail) for detail in per] for system, per in self.details.items()}


def _spans(detail: str) -> list[dict[str, Any]]:
    """A segment's spans as stored (none for a failed answer)."""
    spans = json.loads(detail)
    return spans if isinstance(spans, list) else []


def _marks(detail: str) -> list[tuple[str, str]]:
    """A segment's spans as ``(severity, text)``."""
    return [(span["severity"], span["text"]) for span in _spans(detail)]


class GembaMQM(Judge):
    """GEMBA-MQM (Kocmi and Federmann, 2023) through an OpenAI-compatible endpoint: 0 is best,
    -25 worst (GEMBA's rule, :mod:`understudy.judges.gemba_mqm`)."""

    template_name = "gemba-mqm"
    title = "GEMBA-MQM"
    kind = "judge-gemba-mqm"

    def read(self, answer: str, hypothesis: str) -> tuple[float, list[ErrorSpan]]:
        """GEMBA's score of the answer, and its spans."""
        return _gemba_mqm(answer, hypothesis)


class ESA(Judge):
    """ESA-style scores (0 to 100, with minor and major error spans) through an OpenAI-compatible
    endpoint (:mod:`understudy.judges.esa`)."""

    template_name = "esa"
    title = "ESA"
    kind = "judge-esa"

    def read(self, answer: str, hypothesis: str) -> tuple[float, list[ErrorSpan]]:
        """The answer's checked score, and its spans."""
        return _esa(answer, hypothesis)


__all__ = ["ESA", "GembaMQM", "Judge"]
