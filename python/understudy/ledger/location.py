"""Where the ledger is unless a command is told another: light (the standard library only), so
that a command's help can name it without loading the ledger.

>>> LEDGER_ENV
'UNDERSTUDY_LEDGER'
"""

from __future__ import annotations

import os
from pathlib import Path

LEDGER_ENV = "UNDERSTUDY_LEDGER"
"""The environment variable naming the ledger every command uses unless told another."""


def default_location() -> str:
    """``$UNDERSTUDY_LEDGER``, else ``ledger.sqlite`` in understudy's folder of the user's data
    directory (platformdirs: ``$XDG_DATA_HOME``, else ``~/.local/share``, on Linux)."""
    named = os.environ.get(LEDGER_ENV)
    if named:
        return named
    import platformdirs

    return str(Path(platformdirs.user_data_dir("understudy", appauthor=False)) / "ledger.sqlite")
