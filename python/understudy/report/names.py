"""Short names for systems given as file paths: what the paths share is cut away.

A report of sixteen ``../shared/data/wmt17-en-de/newstest2017.X.en-de.de`` files is easier to
read as sixteen ``X``; the full path stays in a tooltip and in the command that reproduces
the page.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

SEPARATORS = "._- "
"""Where a shared prefix or suffix may end: names are cut at these, never inside a word."""


def _common_prefix(names: Sequence[str]) -> str:
    # Character by character (not by path component): the min and max share what all share.
    first, last = min(names), max(names)
    size = next(
        (k for k, (a, b) in enumerate(zip(first, last, strict=False)) if a != b), min(len(first), len(last))
    )
    shared = first[:size]
    # Back to the last separator: "metricsystem1", "metricsystem2" share no prefix worth cutting.
    cut = max(shared.rfind(c) for c in SEPARATORS)
    return shared[: cut + 1] if cut >= 0 else ""


def _common_suffix(names: Sequence[str]) -> str:
    return _common_prefix([name[::-1] for name in names])[::-1]


def short_names(paths: Sequence[str]) -> list[str]:
    """Each path's name without the folders, prefix and suffix every path shares; the file
    names alone when cutting would leave a name empty or two names alike.

    >>> short_names(["d/newstest2017.uedin-nmt.4722.en-de.de", "d/newstest2017.online-A.0.en-de.de"])
    ['uedin-nmt.4722', 'online-A.0']
    >>> short_names(["ted/Borderline.txt", "ted/metricsystem1.txt", "ted/metricsystem2.txt"])
    ['Borderline', 'metricsystem1', 'metricsystem2']
    >>> short_names(["a/out.txt", "b/out.txt"])
    ['a/out.txt', 'b/out.txt']
    >>> short_names(["only/one.de"])
    ['one.de']
    """
    bases = [os.path.basename(p) or p for p in paths]
    if len(set(bases)) != len(bases):
        return list(paths)
    if len(bases) < 2:
        return bases
    prefix = _common_prefix(bases)
    suffix = _common_suffix([b[len(prefix) :] for b in bases])
    cut = [b[len(prefix) : len(b) - len(suffix)] for b in bases]
    if any(not c.strip(SEPARATORS) for c in cut) or len(set(cut)) != len(cut):
        return bases
    return cut


__all__ = ["short_names"]
