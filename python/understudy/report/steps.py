"""The report's steps: a counter that tells the progress bar, and a metric's ranking as one step."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from understudy.significance import AllPairsResult, all_pairs
from understudy.stats import Stats


def ranked(
    stats: list[Stats[Any, Any]],
    names: Sequence[str],
    n: int,
    seed: int,
    tell: Callable[[], None],
    extras: Sequence[tuple[str, str]] = (),
) -> AllPairsResult:
    """One metric's ranking with clusters (then one more step told done); its signature with
    ``extras`` (what was done to the inputs: ``reseg``, ``gran``)."""
    ranking = all_pairs(stats, names, "bs", n, seed)
    tell()
    return replace(ranking, signature=ranking.signature.with_extras(list(extras))) if extras else ranking


def step_counter(steps: int, progress: Callable[[int, int], None] | None) -> Callable[[], None]:
    """A function that tells ``progress`` one more step of ``steps`` is done, each time it is called."""
    done = iter(range(1, steps + 1))

    def tell() -> None:
        if progress is not None:
            progress(next(done), steps)

    return tell
