"""Typing for the Rust extension module ``understudy._core``: one submodule per concern."""

from understudy._core import analysis as analysis
from understudy._core import arithmetic as arithmetic
from understudy._core import families as families
from understudy._core import metaeval as metaeval
from understudy._core import segmentation as segmentation
from understudy._core import text as text

__all__ = [
    "VERSION",
    "analysis",
    "arithmetic",
    "families",
    "heartbeat",
    "metaeval",
    "pool_threads",
    "segmentation",
    "text",
    "watch_heartbeat",
]

VERSION: str
"""The package's version (the workspace's Cargo.toml)."""

def pool_threads(threads: int) -> int: ...
def heartbeat() -> None: ...
def watch_heartbeat(seconds: int) -> bool: ...
