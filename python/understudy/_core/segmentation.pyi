"""Resegmentation: a hypothesis text cut into its references' lines."""

__all__ = ["resegment", "resegment_methods"]

def resegment(
    refs: list[list[str]], hyps: list[str], sizes: list[int], split: str, case: str, method: str
) -> list[str]: ...
def resegment_methods() -> list[str]: ...
