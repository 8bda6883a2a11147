"""The systems of ``-i`` named as a human (or metric) score file names them: what ``correlate``
and ``report --human`` share.

>>> import argparse
>>> args = argparse.Namespace(names=None, input=["out/sysA.de", "out/sysB.de"])
>>> system_names(args, {"sysA": -1.0, "sysB": -2.0}, "human.tsv")
['sysA', 'sysB']
"""

from __future__ import annotations

import argparse
from collections.abc import Collection

from understudy.cli.messages import CliError
from understudy.errors import InputFileError
from understudy.inputs.score_files import match_systems


def system_names(args: argparse.Namespace, table: Collection[str], what: str) -> list[str]:
    """The systems' names in a human (or metric) file ``table``, in the order of -i: ``--names``
    as given, else each -i path matched to the file's systems by the rule of ``--scores``
    (:func:`understudy.inputs.score_files.match_systems`): a name two systems claim is refused."""
    if not args.names:
        try:
            return match_systems(table, args.input, what)
        except InputFileError as err:
            raise CliError(f"{err} (give the systems' names with --names)") from None
    names: list[str] = args.names
    if len(names) != len(args.input):
        raise CliError(f"--names gives {len(names)} names for {len(args.input)} systems")
    if len(set(names)) != len(names):
        raise CliError(
            f"two systems have the same name: {', '.join(sorted({n for n in names if names.count(n) > 1}))}"
        )
    missing = [n for n in names if n not in table]
    if missing:
        raise CliError(f"{what} has no score for {', '.join(missing)}; it scores {', '.join(sorted(table))}")
    return names
