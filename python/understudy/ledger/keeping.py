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
from understudy.errors import ConfigError
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
    name: tuple[str, ...] = option(
        (),
        flags=("--name",),
        action="append",
        metavar="NAME",
        help="the name a system's records are kept under, one per -i in order (default: its file's"
        " name, or the path typed where two files share a name)",
    )
    testset_name: str | None = option(
        None,
        flags=("--testset-name",),
        metavar="NAME",
        help="the name records against reference files are kept under (default: the SHA-256 of the"
        " references as read); -l's pair is kept beside it",
    )

    def system_names(self, names: Sequence[str]) -> list[str]:
        """The names ``names`` (the files typed, or the systems' own) are kept under: ``--name``'s,
        else each file's name without its folders (the same bytes typed from two folders are one
        system), else the names as given where two would be alike.

        >>> Keeping().system_names(["runs/a/online-A.de", "uedin.de"])
        ['online-A.de', 'uedin.de']
        >>> Keeping().system_names(["a/out.txt", "b/out.txt"])
        ['a/out.txt', 'b/out.txt']
        >>> Keeping(name=("base", "cand")).system_names(["a/out.txt", "b/out.txt"])
        ['base', 'cand']
        """
        import os

        if self.name:
            if len(self.name) != len(names) or len(set(self.name)) != len(self.name):
                raise ConfigError(
                    f"--name names each system once, in -i order: {len(names)} systems, {len(self.name)}"
                    f" --name ({', '.join(self.name)})"
                )
            return [kept_name(n) for n in self.name]
        bases = [os.path.basename(n) or n for n in names]
        chosen = bases if len(set(bases)) == len(bases) else list(names)
        return [kept_name(n) for n in chosen]

    def testset(self, where: str, pair: str | None) -> str:
        """The name a test set of reference files is kept under: ``--testset-name``, else
        ``where`` (the references' SHA-256), with the language pair where one is given.

        >>> Keeping(testset_name="news-dev").testset("sha256:ab12", "en-de")
        'news-dev:en-de'
        >>> Keeping().testset("sha256:ab12", None)
        'sha256:ab12'
        """
        named = self.testset_name or where
        return f"{named}:{pair}" if pair else named

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
        kept = self.system_names(names)
        entries = [
            (system, kept[k], where, hashes[k]) for per_metric in stats for k, system in enumerate(per_metric)
        ]
        fields = {"tags": list(self.tag), "note": self.note, "command": kept_name(command)}
        with Ledger(self.ledger) as ledger:
            ids = ledger.append_many(entries, **fields, revision=self.revision, extras=list(extras))
            return ids, ledger.location
