"""The package version, in one place: the workspace's Cargo.toml, which gives the wheel its
version too (maturin reads it) and the compiled core its ``VERSION``.

>>> __version__.count(".") >= 2
True
"""

from understudy._core import VERSION

__version__: str = VERSION

__all__ = ["__version__"]
