"""Options given that no chosen metric reads: ``-lc`` with ``-m comet`` alone, ``--comet-model``
without ``-m comet``, ``--source`` with no computed metric. Every command that takes metric
options says so in one line an option, from here, reading what each metric declares.

>>> unread({"lowercase", "comet_model"}, ["comet"])
['-lc is read by -m bleu, which -m does not ask for: ignored']
>>> unread({"comet_model"}, ["metricx"])
['--comet-model is read by -m comet, which -m does not ask for: ignored']
>>> unread({"normalize_unicode"}, ["chrf", "comet"])
[]
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence

from understudy.config import Option
from understudy.registry import computed_metrics


def unread(given: Collection[str], chosen: Sequence[str]) -> list[str]:
    """What to say of each option ``given`` (by destination) that no metric of ``chosen`` (the
    ``-m`` names, text families' and computed metrics', aliases included) reads. An option
    several metrics share (``--normalize-unicode``, ``--batch-size``) is read when any chosen
    one reads it."""
    asked = set(_owners(chosen))
    said = []
    if "source" in given and not any(name in computed_metrics() for name in asked):
        said.append(
            "--source is read by computed metrics (-m comet, metricx, ...), and -m asks for none: ignored"
        )
    readers: dict[str, list[str]] = {}
    flags: dict[str, str] = {}
    for owner, option in _declared_options():
        readers.setdefault(option.dest, []).append(owner)
        flags.setdefault(option.dest, option.flags[0])
    for dest, reading in readers.items():
        if dest in given and not asked.intersection(reading):
            which = "which -m does not ask for" if len(reading) == 1 else "none of which -m asks for"
            said.append(f"{flags[dest]} is read by -m {' '.join(reading)}, {which}: ignored")
    return said


def _owners(chosen: Sequence[str]) -> Iterator[str]:
    """The family or computed metric each ``-m`` name is (``cer`` is WER's family)."""
    from understudy.metrics import metric_names

    names = metric_names()
    for name in chosen:
        if name in names:
            yield names[name][0].name
        elif name in computed_metrics():
            yield name


def _declared_options() -> Iterator[tuple[str, Option]]:
    """Every metric option on the command line, with the family or computed metric declaring it."""
    from understudy.metrics import FAMILIES

    for name, family in FAMILIES.items():
        yield from ((name, o) for _, o in family.config.options() if o.flags)
    for name, declared in computed_metrics().items():
        if declared.computed_here:
            yield from ((name, o) for _, o in declared.config.options() if o.flags)


__all__ = ["unread"]
