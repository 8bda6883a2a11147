"""The registry of metric families, at the ground: each family's name and the module that
declares it, imported on first use. The bases (statistics, signatures) find a family here by
name without importing the families above them; :mod:`understudy.metrics` builds its tables
from it. Adding a family is one line in :data:`TEXT_FAMILIES`.

>>> family("ter").config.title
'TER'
>>> find("no-such-metric") is None
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from understudy.metric import Family

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


def family(name: str) -> Family:
    """The family named ``name``, its module imported if it is not yet (``KeyError`` if unknown)."""
    return cast("Family", importlib.import_module(MODULES[name]).FAMILY)


def find(name: str) -> Family | None:
    """The family named ``name``, or ``None`` for a name no family has."""
    return family(name) if name in MODULES else None
