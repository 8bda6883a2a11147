"""The metrics asked, built once: ``-m`` (text families in the registry's order, any alias or
other tool's spelling resolved here), each metric's options, and ``--scores NAME=FILE``, turned
into metric objects (:mod:`understudy.metrics.protocol`). Every command and the Python API
build their metrics here; none assembles them by hand.

The list is the text metrics (as sacrebleu prints them: the registry's order), then the given
scores (``--scores`` order), then the computed metrics (``-m`` order), each run on the texts
once, on Dask when asked, and handed on as given scores whose signature pins what computed them.

>>> asked = MetricsAsked({"metrics": ["chrF++", "TER"], "threads": 1})
>>> [m.name for m in asked.text_metrics()]
['chrF2++', 'TER']
>>> [m.name for m in asked.metrics({"A": ["a b c"]}, [["a b c"]])]
['chrF2++', 'TER']
>>> MetricsAsked({}).text_names, MetricsAsked({}).named
(['bleu'], False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from understudy.registry import computed_metrics, metric_name

if TYPE_CHECKING:
    from understudy.execution.runs import Bars, Chosen
    from understudy.metric import Metric
    from understudy.metrics.protocol import MetricObject
    from understudy.metrics.scores import GivenScores

DEFAULT_METRICS = ["bleu"]
"""``-m``'s default, sacrebleu's; this very list object when ``-m`` was not given."""


def target_language(pair: str | None) -> str:
    """The target language of a pair ``SRC-TRG``, which picks the default tokenizer; ``""``
    without one. A locale's region and script go (WMT25's ``en-ja_JP`` is Japanese).

    >>> target_language("en-ja_JP"), target_language(None)
    ('ja', '')
    """
    return pair.partition("-")[2].partition("_")[0] if pair else ""


class MetricsAsked:
    """The metrics ``values`` ask for: option destinations to values, as the command line
    parses them (``metrics``: the ``-m`` names; ``scores``: ``NAME=FILE``; each metric's own
    options; ``langpair``, ``threads``). Absent options take their defaults."""

    def __init__(self, values: Mapping[str, Any]) -> None:
        self.values = dict(values)
        named = self.values.get("metrics", DEFAULT_METRICS)
        self.named = named is not DEFAULT_METRICS
        """Whether ``-m`` was given (its default otherwise: BLEU)."""
        self.names = list(dict.fromkeys(metric_name(n) for n in named))
        """The ``-m`` names as the registry spells them, each once, in the order given."""

    @property
    def text_names(self) -> list[str]:
        """The text families' ``-m`` names (aliases as typed: ``cer``, ``chrfpp``)."""
        from understudy.metrics import metric_names

        families = metric_names()
        return [name for name in self.names if name in families]

    @property
    def computed_names(self) -> list[str]:
        """The computed metrics' ``-m`` names, in ``-m`` order."""
        known = computed_metrics()
        return [name for name in self.names if name in known]

    @property
    def pair(self) -> str | None:
        """The language pair (``-l``), if given."""
        pair: str | None = self.values.get("langpair")
        return pair

    def text_metrics(self, sentence_level: bool = False) -> list[Metric[Any, Any]]:
        """One metric object per text family of ``-m``, in the registry's order, configured by
        the families' options; ``sentence_level`` sets what a family changes for sentence
        scores (BLEU's effective order)."""
        from understudy.metrics import metric_names

        wanted, target = self.text_names, target_language(self.pair)
        return [
            family.metric.from_options(
                {**family.config.field_values(self.values, sentence_level), **fields},
                trg_lang=target,
                threads=self.values.get("threads"),
            )
            for name, (family, fields) in metric_names().items()
            if name in wanted
        ]

    def given(
        self, systems: Sequence[str] | None, segments: int | None, with_text: bool | None = None
    ) -> tuple[list[GivenScores], list[str]]:
        """Every ``--scores`` metric for ``systems`` (``None``: the files' own), each checked to
        have ``segments`` scores a system where given, and the systems' names.
        ``with_text``: whether ``-m``'s metrics are scored beside them (default: when
        ``systems`` are given), whose names a ``--scores`` name may not take."""
        from understudy.metrics import metric_names
        from understudy.metrics.given_files import ScoresAsked, read_given

        taken: dict[str, str] = {}
        if (systems is not None) if with_text is None else with_text:
            for name in self.text_names:
                family, _ = metric_names()[name]
                taken |= {name: f"-m {name}", family.config.title: f"-m {name}"}
        return read_given(ScoresAsked.from_values(self.values).files(taken), systems, segments)

    def computed(self) -> list[Chosen]:
        """Each computed metric of ``-m``: its declaration, configuration and object."""
        from understudy.execution.runs import chosen_metric

        return [chosen_metric(name, self.values, self.pair) for name in self.computed_names]

    def metrics(
        self,
        systems: Mapping[str, Sequence[str]],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
        *,
        sentence_level: bool = False,
        with_text: bool = True,
        dask: str | None = None,
        bars: Bars | None = None,
        where: str | None = None,
    ) -> list[MetricObject]:
        """The metric objects asked, for ``systems`` (name to lines) against ``references``
        (and ``sources``, for the metrics that read them): the text metrics (none without
        ``with_text``), the given scores, then the computed metrics' scores of the systems
        (on the Dask cluster at ``dask``; ``bars`` shows their progress; ``where`` names the
        sources' file in messages)."""
        names = list(systems)
        segments = len(references[0]) if references else None
        made: list[MetricObject] = [*self.text_metrics(sentence_level)] if with_text else []
        made += self.given(names, segments, with_text)[0]
        computed = self.computed_scores(systems, references, sources, dask=dask, bars=bars, where=where)
        return made + list(computed)

    def computed_scores(
        self,
        systems: Mapping[str, Sequence[str]],
        references: Sequence[Sequence[str]],
        sources: Sequence[str] | None = None,
        *,
        dask: str | None = None,
        bars: Bars | None = None,
        where: str | None = None,
    ) -> list[GivenScores]:
        """The computed metrics' scores of ``systems``, each metric run once on every system
        (:func:`~understudy.execution.runs.run_computed`); ``where`` names the sources' file."""
        if not self.computed_names:
            return []
        from understudy.execution.runs import check_sources, run_computed

        check_sources(self.computed_names, references, sources, where)
        lines = {name: list(hyps) for name, hyps in systems.items()}
        refs = [list(stream) for stream in references]
        texts = None if sources is None else list(sources)
        return run_computed(self.computed(), lines, refs, texts, dask=dask, bars=bars)


def metrics_asked(
    values: Mapping[str, Any],
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str]],
    sources: Sequence[str] | None = None,
    **how: Any,
) -> list[MetricObject]:
    """The metric objects ``values`` ask for (:meth:`MetricsAsked.metrics`), for ``systems``.

    >>> [m.name for m in metrics_asked({"metrics": ["bleu", "cer"]}, {"A": ["ab"]}, [["ab"]])]
    ['BLEU', 'CER']
    """
    return MetricsAsked(values).metrics(systems, references, sources, **how)


__all__ = ["DEFAULT_METRICS", "MetricsAsked", "metrics_asked", "target_language"]
