"""What a command keeps in the ledger and where, declared as the families declare their options
(the command line's flags are derived from it): ``--log``, ``--ledger`` and what every record
carries (tags, a note, a revision). Light: a command's help names the ledger without loading it.

>>> from understudy import BLEU
>>> from understudy.ledger import Ledger
>>> stats = BLEU().segment_stats(["a b c"], [["a b c"]])
>>> keeping = Keeping(log=True, ledger=":memory:", tag=("nightly",))
>>> keeping.keep([[stats]], ["A"], "toy", "understudy score ref -i A --log")
([1], ':memory:')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from understudy.config import Declared, option
from understudy.ledger.location import LEDGER_ENV
from understudy.wording import kept_name

if TYPE_CHECKING:
    from understudy.stats import Stats


@dataclass(frozen=True)
class Keeping(Declared):
    """Whether to append a run's results (``log``), to which ledger (``None``: the default
    one), and the tags, note and revision kept with every record."""

    cli_group: ClassVar[str | None] = "keeping the results (understudy ledger)"

    log: bool = option(
        False, flags=("--log",), help="append each system's statistics per metric to the ledger"
    )
    ledger: str | None = option(
        None,
        flags=("--ledger",),
        metavar="PATH-or-URL",
        # Named, not resolved: resolving loads platformdirs, which every command would pay for.
        help=f"the ledger: a SQLite file, or a postgresql://USER:PASSWORD@HOST/DB URL (the 'ledger' "
        f"extra); default: ${LEDGER_ENV}, else understudy/ledger.sqlite in the user's data directory"
        " ($XDG_DATA_HOME, else ~/.local/share, on Linux)",
    )
    tag: tuple[str, ...] = option(
        (), flags=("--tag",), action="append", metavar="TAG", help="a tag of the records (repeatable)"
    )
    note: str = option("", flags=("--note",), help="a note kept with the records")
    revision: str = option(
        "", flags=("--revision",), metavar="ID", help="a revision (a commit id) kept with the records"
    )

    def keep(
        self,
        stats: Sequence[Sequence[Stats[Any, Any]]],
        names: Sequence[str],
        where: str,
        command: str,
        hashes: Sequence[str] | None = None,
        extras: Sequence[tuple[str, str]] = (),
    ) -> tuple[list[int], str]:
        """Append every metric's statistics of every system (``stats[metric][system]``) in one
        transaction, all or none, as system ``names`` on test set ``where`` (its name and pair,
        or the references' SHA-256), the systems' files' ``hashes`` and how the inputs were
        reshaped (``extras``: ``gran:document``); the ids, and where the ledger is."""
        from understudy.ledger import Ledger

        hashes = list(hashes) if hashes is not None else [""] * len(names)
        entries = [
            (system, kept_name(name), where, hashes[k])
            for per_metric in stats
            for k, (name, system) in enumerate(zip(names, per_metric, strict=True))
        ]
        fields = {"tags": list(self.tag), "note": self.note, "command": kept_name(command)}
        with Ledger(self.ledger) as ledger:
            ids = ledger.append_many(entries, **fields, revision=self.revision, extras=list(extras))
            return ids, ledger.location
