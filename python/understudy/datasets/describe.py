"""What ``understudy testset`` prints of the built-in test sets: the list with descriptions, a
set's downloads (and whether each is cached), its language pairs and a pair's fields, and a
pair's fields as TAB-separated rows.

>>> print(listing("en-de").splitlines()[0])  # doctest: +ELLIPSIS
iwslt17...
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from understudy.errors import DatasetError

if TYPE_CHECKING:
    from understudy.datasets import Cache, DatasetFields


def listing(langpair: str | None = None) -> str:
    """Every set (with ``langpair``: those with the pair, either way), a line each with its
    description, by name."""
    from understudy.datasets import dataset, names, names_for_langpair

    chosen = names_for_langpair(langpair) if langpair else names()
    if langpair and not chosen:
        raise DatasetError(f"no test set has {langpair} in either direction")
    width = max(len(n) for n in chosen)
    return "\n".join(f"{n:<{width}}  {dataset(n).description}" for n in sorted(chosen))


def pair_lines(langpair: str, fields: DatasetFields) -> list[str]:
    """A pair's segment count, fields and scored references."""
    return [
        f"{langpair}: {len(fields)} segments; fields: {', '.join(fields.fields)}",
        f"scored references: {', '.join(fields.ref_fields) or 'none'}",
    ]


def set_lines(name: str, cache: Cache) -> list[str]:
    """A registry set's description, format, downloads (each cached or not in ``cache``) and
    language pairs.

    >>> from understudy.datasets import Cache
    >>> import tempfile
    >>> set_lines("wmt17", Cache(tempfile.mkdtemp(), offline=True))[0]  # sacrebleu's description
    'wmt17: Official evaluation data.'
    """
    from understudy.datasets import dataset

    info = dataset(name)
    lines = [f"{info.name}: {info.description}", f"format: {info.format}", "downloads:"]
    for d in info.downloads:
        state = "cached" if cache.download_path(d).is_file() else "not cached"
        lines.append(f"  {d.url}  md5 {d.md5 or 'unpinned'}  ({state})")
    lines.append(f"language pairs: {' '.join(info.langpairs)}")
    return lines


def echo_rows(names: Sequence[str], wanted: Sequence[str], load: Callable[[str], DatasetFields]) -> list[str]:
    """The ``wanted`` fields (``["all"]``: every one) of each segment of each set of ``names``
    (read by ``load``, in order), TAB-separated."""
    if "all" in wanted and len(wanted) > 1:
        raise DatasetError("'all' cannot be combined with other fields")
    rows: list[str] = []
    for name in names:
        fields = load(name)
        chosen = list(fields.fields) if list(wanted) == ["all"] else list(wanted)
        columns = [fields.field(f) for f in chosen]
        rows += ["\t".join(values) for values in zip(*columns, strict=True)]
    return rows


__all__ = ["echo_rows", "listing", "pair_lines", "set_lines"]
