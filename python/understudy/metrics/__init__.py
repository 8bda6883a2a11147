"""The registry of metric families: each family's one module, by name.

A family (``bleu``, ``chrf``, ``ter``) is one statistics row and one Rust scorer; its
module declares its configuration, its scoring function, its result, its statistics and
its metric object, and ends with its :class:`~understudy.registry.Family` entry. The tables
below are built from :mod:`understudy.registry`, where adding a family is one line (see
ARCHITECTURE.md, "Adding a metric").
Given segment scores (``scores``: COMET, MetricX, ...) are a family too, scored from numbers
rather than text: :data:`GIVEN`, in :data:`EVERY_FAMILY` but not a ``-m`` choice.

>>> from understudy.metrics.ter import TERConfig
>>> metric_for(TERConfig()).corpus_score(["a b"], [["a b c"]]).score  # sacrebleu: 33.33...
33.33333333333333
>>> from understudy.metrics import METRICS
>>> list(METRICS) == list(registry.TEXT_FAMILIES), METRICS["ter"].__name__
(True, 'TER')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from understudy import registry
from understudy.config import MetricConfig
from understudy.inputs.tokens import Refs
from understudy.metric import Metric
from understudy.registry import Family

# The tables are built on first use (PEP 562): importing one family's module (``from
# understudy import BLEU``) imports this package first, and should not import every family.

FAMILIES: dict[str, Family]
"""Every family that scores text, by name, in the order sacrebleu prints them (``-m``)."""

GIVEN: Family
"""The family of given segment scores (``--scores NAME=FILE``)."""

EVERY_FAMILY: dict[str, Family]
"""Every family by name: those that score text, then given scores (saved files, signatures)."""

METRICS: dict[str, type[Metric[Any, Any]]]
"""Every family's metric object type by name."""

CONFIGS: dict[str, type[MetricConfig]]
"""Every family's configuration type by name."""


def _tables() -> dict[str, Any]:
    """The tables above, built from the registry (importing every family) and kept; rebuilt in
    place when the registry changes (:func:`~understudy.registry.register_family`), so that
    a module that imported a table sees every family."""
    families = {name: registry.family(name) for name in registry.TEXT_FAMILIES}
    given = registry.family(registry.GIVEN_FAMILY)
    tables: dict[str, Any] = {
        "FAMILIES": families,
        "GIVEN": given,
        "EVERY_FAMILY": {**families, given.name: given},
        "METRICS": {name: f.metric for name, f in families.items()},
        "CONFIGS": {name: f.config for name, f in families.items()},
    }
    kept = globals()
    for name, table in tables.items():
        if isinstance(table, dict) and isinstance(kept.get(name), dict):
            kept[name].clear()
            kept[name].update(table)
        else:
            kept[name] = table
    return {name: kept[name] for name in tables}


def _rebuilt() -> None:
    if "FAMILIES" in globals():  # built already: follow the registry
        _tables()


registry.on_families_changed(_rebuilt)


def __getattr__(name: str) -> Any:
    """A table, built on first use."""
    if name in ("FAMILIES", "GIVEN", "EVERY_FAMILY", "METRICS", "CONFIGS"):
        return _tables()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _families() -> dict[str, Family]:
    families: dict[str, Family] = globals().get("FAMILIES") or _tables()["FAMILIES"]
    return families


def family_titles() -> str:
    """The families' names as prose, for help texts.

    >>> family_titles().startswith("BLEU, chrF, TER, "), family_titles().count(" and ")
    (True, 1)
    """
    titles = [f.config.title for f in _families().values()]
    return ", ".join(titles[:-1]) + f" and {titles[-1]}" if len(titles) > 1 else titles[0]


def inverted_titles() -> list[str]:
    """The titles of the families where a higher score is worse (negated before correlating).

    >>> from understudy import registry
    >>> inverted_titles() == [
    ...     registry.family(n).config.title for n in registry.TEXT_FAMILIES
    ...     if not registry.family(n).config.higher_is_better
    ... ]
    True
    >>> "TER" in inverted_titles() and "BLEU" not in inverted_titles()
    True
    """
    return [f.config.title for f in _families().values() if not f.config.higher_is_better]


def metric_names() -> dict[str, tuple[Family, Mapping[str, Any]]]:
    """Every ``-m`` name: each family's, then its aliases (``cer``), with the fields each sets.

    >>> names = list(metric_names())
    >>> names[:4], names.index("cer") == names.index("wer") + 1
    (['bleu', 'chrf', 'chrfpp', 'ter'], True)
    """
    names: dict[str, tuple[Family, Mapping[str, Any]]] = {}
    for name, family in _families().items():
        names[name] = (family, {})
        names |= {alias: (family, fields) for alias, fields in family.aliases.items()}
    return names


def metric_for(
    config: MetricConfig, references: Refs | None = None, threads: int | None = None
) -> Metric[Any, Any]:
    """The metric object (``BLEU``, ``CHRF``, ``TER``, ...) of ``config``."""
    if config.metric not in registry.TEXT_FAMILIES:
        raise KeyError(config.metric)  # given scores are not scored from text
    metric: Metric[Any, Any] = registry.family(config.metric).metric.from_config(config, references, threads)
    return metric
