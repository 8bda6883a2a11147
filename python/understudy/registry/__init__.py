"""The registry of metric families, at the ground: each family's name and the module that
declares it, imported on first use. The bases (statistics, signatures) find a family here by
name without importing the families above them; :mod:`understudy.metrics` builds its tables
from it. Adding a family is one line in :data:`TEXT_FAMILIES`; adding a computed metric (a model's, a
judge's) one line in :data:`COMPUTED`.

>>> family("ter").config.title
'TER'
>>> find("no-such-metric") is None
True
>>> computed("esa").title
'ESA'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from understudy.errors import ConfigError

if TYPE_CHECKING:
    from understudy.config import MetricConfig
    from understudy.registry.declarations import Computed


@dataclass(frozen=True)
class Family:
    """A metric family as the registry holds it: its configuration, statistics and metric object
    types, all declared in the family's one module (the statistics a
    :class:`~understudy.stats.Stats`; the metric object of text families a
    :class:`~understudy.metric.Metric`, given scores have their own). Here, at the ground, so
    that the bases find a family by name without importing the families above them.

    >>> family("chrf").stats.__name__
    'CHRFStats'
    """

    config: type[MetricConfig]
    stats: type[Any]
    metric: type[Any]
    aliases: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Other ``-m`` names of the family, each with the fields it sets (WER's ``cer``)."""

    @property
    def name(self) -> str:
        """The family's name (``bleu``, ``chrf``, ``ter``)."""
        return self.config.metric


TEXT_FAMILIES: dict[str, str] = {
    "bleu": "understudy.metrics.bleu",
    "chrf": "understudy.metrics.chrf",
    "ter": "understudy.metrics.ter",
    "wer": "understudy.metrics.wer",
    "gleu": "understudy.metrics.gleu",
    "nist": "understudy.metrics.nist",
}
"""Every family that scores text, by name, in the order sacrebleu prints them (``-m``)."""

GIVEN_FAMILY = "scores"
"""The name of the family of given segment scores (``--scores NAME=FILE``)."""

MODULES: dict[str, str] = {**TEXT_FAMILIES, GIVEN_FAMILY: "understudy.metrics.scores"}
"""Every family's module by name: those that score text, then given scores."""

BUILT_IN = tuple(TEXT_FAMILIES)
"""The families understudy declares; :func:`register_family` adds others after them."""

_LISTENERS: list[Callable[[], None]] = []


def on_families_changed(listener: Callable[[], None]) -> None:
    """Have ``listener`` called each time a family is registered or unregistered (the tables
    of :mod:`understudy.metrics` follow the registry so)."""
    _LISTENERS.append(listener)


def register_family(module: str) -> Family:
    """Add the text family that ``module`` declares (its ``FAMILY``, as a family's module
    ends) for this process, as a line of :data:`TEXT_FAMILIES` does: ``-m``, its flags,
    signatures, saved statistics and every command know it from now on. Its name must be new
    (:class:`~understudy.errors.ConfigError`).

    >>> register_family("understudy.metrics.ter")
    Traceback (most recent call last):
    ...
    understudy.errors.ConfigError: a metric named 'ter' exists
    """
    declared = cast("Family", importlib.import_module(module).FAMILY)
    if declared.name in MODULES or declared.name in COMPUTED or declared.name in _REGISTERED:
        raise ConfigError(f"a metric named {declared.name!r} exists")
    TEXT_FAMILIES[declared.name] = module
    _families_changed()
    return declared


def unregister_family(name: str) -> None:
    """Forget a family :func:`register_family` added (tests clean up with it); understudy's
    own stay."""
    if name not in BUILT_IN and TEXT_FAMILIES.pop(name, None) is not None:
        _families_changed()


def _families_changed() -> None:
    # MODULES keeps its order (text families, then given scores) and its identity: modules that
    # imported it see the change.
    modules = {**TEXT_FAMILIES, GIVEN_FAMILY: MODULES[GIVEN_FAMILY]}
    MODULES.clear()
    MODULES.update(modules)
    for listener in _LISTENERS:
        listener()


def family(name: str) -> Family:
    """The family named ``name``, its module imported if it is not yet (``KeyError`` if unknown)."""
    return cast("Family", importlib.import_module(MODULES[name]).FAMILY)


def find(name: str) -> Family | None:
    """The family named ``name``, or ``None`` for a name no family has."""
    return family(name) if name in MODULES else None


SPELLINGS = {
    "chrf++": "chrfpp",
    "chrf2": "chrf",
    "chrf2++": "chrfpp",
    "sacrebleu": "bleu",
    "google_bleu": "gleu",
}
"""Other spellings of metric names (sacrebleu's, HF evaluate's), by the name they stand for."""


def metric_name(text: str) -> str:
    """A metric's name as the registry spells it: any case, and the spellings others use.

    >>> metric_name("BLEU"), metric_name("chrF++"), metric_name("chrF2")
    ('bleu', 'chrfpp', 'chrf')
    """
    folded = text.strip().lower()
    return SPELLINGS.get(folded, folded)


COMPUTED: dict[str, str] = {
    "comet": "understudy.computed.comet",
    "cometkiwi": "understudy.computed.cometkiwi",
    "xcomet": "understudy.computed.xcomet",
    "metricx": "understudy.computed.metricx",
    "bertscore": "understudy.computed.bertscore",
    "pear": "understudy.computed.pear",
    "comet-poly": "understudy.computed.comet_poly",
    "gemba-mqm": "understudy.computed.gemba_mqm",
    "esa": "understudy.computed.esa",
    "bleurt": "understudy.computed.bleurt",
}
"""Every computed metric by ``-m`` name: the module that declares it (``DECLARED``), in ``-m``
order. A metric made elsewhere joins with :func:`register`."""

_REGISTERED: dict[str, Computed] = {}


def computed(name: str) -> Computed:
    """The computed metric named ``name`` (``KeyError`` if unknown)."""
    if name in _REGISTERED:
        return _REGISTERED[name]
    return cast("Computed", importlib.import_module(COMPUTED[name]).DECLARED)


def computed_metrics() -> dict[str, Computed]:
    """Every computed metric by name: the listed ones, then those registered, in that order."""
    return {name: computed(name) for name in {**COMPUTED, **_REGISTERED}}


def register(declaration: Computed) -> Computed:
    """Add a computed metric declared outside understudy (a plugin, a test's toy) for this
    process: ``-m``, its flags, given scores' presets and every command know it from now on.
    Its name must be new (:class:`~understudy.errors.ConfigError`)."""
    if declaration.name in COMPUTED or declaration.name in MODULES or declaration.name in _REGISTERED:
        raise ConfigError(f"a metric named {declaration.name!r} exists")
    _REGISTERED[declaration.name] = declaration
    return declaration


def unregister(name: str) -> None:
    """Forget a metric :func:`register` added (tests clean up with it)."""
    _REGISTERED.pop(name, None)
