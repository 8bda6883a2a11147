"""Resegmentation: a hypothesis text cut into its references' lines."""

from collections.abc import Callable

__all__ = ["resegment", "resegment_methods"]

def resegment(
    refs: list[list[str]],
    hyps: list[str],
    sizes: list[int],
    how: tuple[str, str, str],
    progress: Callable[[int, int], object] | None = None,
) -> list[str]: ...
def resegment_methods() -> list[str]: ...
