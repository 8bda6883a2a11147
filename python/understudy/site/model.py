"""What the results site shows, read from a ledger: its test sets, each a table of the latest
record of every system under every signature, ranked into significance clusters from the kept
statistics, and each system's history.

A column is one signature, never one metric: records of BLEU with another tokenizer, a COMET of
another checkpoint or document-level scores are another column, so no two numbers a column holds
were made differently.

>>> from understudy import BLEU
>>> from understudy.ledger import Ledger
>>> ledger = Ledger(":memory:")
>>> refs = [["the cat sat on the mat", "a dog barked", "it rains"]]
>>> for name, hyps in (("A", refs[0]), ("B", ["the cat sat on a mat", "a dog barked", "it rains"])):
...     _ = ledger.append(BLEU().segment_stats(hyps, refs), name, "toy:en-de")
>>> (toy,) = gather(ledger, Settings(n=100))
>>> toy.name, toy.pair, toy.systems
('toy:en-de', 'en-de', ['A', 'B'])
>>> (column,) = toy.columns
>>> column.title, column.ranking, round(column.cells["B"].record.score, 2)  # sacrebleu: 60.77
('BLEU', ['A', 'B'], 60.77)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from understudy.config import Declared, option
from understudy.errors import ConfigError
from understudy.seeding import DEFAULT_SEED, seed_value
from understudy.signature import Signature
from understudy.wording import counted

if TYPE_CHECKING:
    from understudy.ledger import Ledger, Record


@dataclass(frozen=True)
class Settings(Declared):
    """Which records the site shows (those with any of ``tags``, kept ``since`` a date or time)
    and how its clusters are made: paired bootstrap resampling, ``n`` resamples from ``seed``,
    significance level ``alpha`` (as ``understudy compare``); declared as the families declare
    their options (``understudy site``'s flags are derived from it)."""

    tags: tuple[str, ...] = option(
        (),
        flags=("--tag",),
        into="tag",
        action="extend",
        nargs="+",
        metavar="TAG",
        help="only records with any of these tags (--tag a b, or --tag a --tag b)",
    )
    since: str | None = option(
        None, flags=("--since",), metavar="DATE", help="only records kept since DATE (ISO: 2026-11-01, UTC)"
    )
    n: int = option(
        1000,
        flags=("-n",),
        into="n",
        type=int,
        metavar="N",
        help="bootstrap resamples for the clusters (1000)",
    )
    seed: int = option(
        DEFAULT_SEED, flags=("--seed",), type=seed_value, help=f"random seed (default: {DEFAULT_SEED})"
    )
    alpha: float = option(0.05, flags=("--alpha",), type=float, help="significance level for clusters (0.05)")
    processes: int | None = option(
        None,
        flags=("--processes",),
        type=int,
        metavar="N",
        help="worker processes ranking the columns (default: one a core for a site of 12 columns or more)",
    )
    """Worker processes that rank the columns (None: one a core, for a site of many columns)."""

    def __post_init__(self) -> None:
        # Checked here, not where the first column is ranked: a site without clusters would
        # otherwise take a wrong value without a word.
        for name, value, least in (
            ("n", self.n, 1),
            ("seed", self.seed, 0),
            ("processes", self.processes, 1),
        ):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < least):
                raise ConfigError(
                    f"the site's {name} must be a whole number of at least {least}, got {value!r}"
                )
        alpha = self.alpha
        if isinstance(alpha, bool) or not isinstance(alpha, int | float) or not 0 < alpha < 1:
            raise ConfigError(f"the site's alpha must be a number between 0 and 1, got {alpha!r}")


@dataclass(frozen=True)
class Cell:
    """One system's latest record under a column's signature, and its cluster (1 the best; None
    when the column has none)."""

    record: Record
    cluster: int | None = None


@dataclass(frozen=True)
class Column:
    """One signature's records on a test set: its metric's name, whether higher is better, the
    decimals its scores print with, each system's latest record, the ranking (best first), and
    how the clusters were made, or why there are none."""

    signature: str
    title: str
    higher_is_better: bool
    decimals: int
    cells: dict[str, Cell]
    ranking: list[str]
    clusters: str
    clustered: bool


@dataclass(frozen=True)
class TestSet:
    """A test set's page: its name as kept (``wmt17:en-de``, or the references' ``sha256:``), its
    language pair when its signatures say it, systems, columns, and every record, oldest first."""

    name: str
    slug: str
    pair: str
    systems: list[str]
    columns: list[Column]
    records: list[Record]
    updated: str
    tags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Planned:
    """A test set before its clusters: its records and each signature's latest record by system."""

    name: str
    records: list[Record]
    latest: dict[str, dict[str, Record]]

    @property
    def slug(self) -> str:
        """Its page's file name, without ``.html``."""
        return slug(self.name)

    def to_cluster(self) -> list[str]:
        """The signatures whose records can be ranked into clusters."""
        return [s for s, latest in self.latest.items() if not _unclustered(list(latest.values()))]

    def columns_to_rank(self, ledger: Ledger) -> Iterator[tuple[str, list[bytes], list[str]]]:
        """Each column to rank: its signature, its systems' kept statistics and their names, read
        one column at a time (what :func:`rank` takes, in this process or a worker)."""
        for signature in self.to_cluster():
            latest = self.latest[signature]
            yield signature, [ledger.stats_bytes(record.id) for record in latest.values()], list(latest)


@dataclass(frozen=True)
class Ranked:
    """A column's ranking (best first) and clusters, and how they were made."""

    ranking: list[str]
    clusters: list[list[str]]
    n: int
    seed: int
    alpha: float


def plan(ledger: Ledger, settings: Settings) -> list[Planned]:
    """Every test set of the records ``settings`` selects, by name, before its clusters."""
    records = ledger.records(since=settings.since)
    if settings.tags:
        wanted = set(settings.tags)
        records = [r for r in records if wanted & set(r.tags)]
    by_testset: dict[str, list[Record]] = {}
    for record in records:
        by_testset.setdefault(record.testset, []).append(record)
    planned = []
    for name in sorted(by_testset):
        mine = by_testset[name]
        latest: dict[str, dict[str, Record]] = {}
        for record in mine:  # oldest first: the last one kept wins
            latest.setdefault(record.signature, {})[record.system] = record
        metrics = list(dict.fromkeys(r.metric for r in mine))
        first_metric = {sig: metrics.index(next(iter(by.values())).metric) for sig, by in latest.items()}
        order = sorted(latest, key=lambda sig: (first_metric[sig], sig))
        planned.append(Planned(name, mine, {sig: latest[sig] for sig in order}))
    return planned


def rank(blobs: list[bytes], names: list[str], settings: Settings) -> Ranked:
    """The systems ``names`` ranked into clusters from their kept statistics (``blobs``, as the
    ledger keeps them): what a worker process runs for a column."""
    from understudy.significance import all_pairs
    from understudy.stats import Stats

    stats = [
        Stats.from_bytes(blob, f"the statistics of {name}") for blob, name in zip(blobs, names, strict=True)
    ]
    result = all_pairs(stats, names, "bs", settings.n, settings.seed, alpha=settings.alpha)
    clusters = [list(members) for members in result.clusters]
    return Ranked([s.name for s in result.ranking], clusters, result.n, result.seed, result.alpha)


def finish(planned: Planned, ranked: dict[str, Ranked]) -> TestSet:
    """The test set's page, given its columns' clusters by signature."""
    records = planned.records
    systems = list(dict.fromkeys(r.system for r in records))
    columns = [_column(sig, latest, ranked.get(sig)) for sig, latest in planned.latest.items()]
    tags = sorted({tag for r in records for tag in r.tags})
    name = planned.name
    return TestSet(name, planned.slug, _pair(name), systems, columns, records, records[-1].created, tags)


def gather(ledger: Ledger, settings: Settings) -> list[TestSet]:
    """Every test set of the records ``settings`` selects, by name, with its clusters (here, in
    this process; :func:`understudy.site.build.build_site` ranks columns in parallel)."""
    done = []
    for planned in plan(ledger, settings):
        ranked = {sig: rank(blobs, names, settings) for sig, blobs, names in planned.columns_to_rank(ledger)}
        done.append(finish(planned, ranked))
    return done


def slug(name: str) -> str:
    """A file name for a test set's page: its name's plain characters and a hash of it all, so that
    two names never share a page.

    >>> slug("wmt17:en-de")
    'wmt17-en-de-8c01c08e'
    """
    plain = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:48] or "testset"
    return f"{plain}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def _pair(name: str) -> str:
    """The language pair of a test set kept as ``NAME:PAIR`` (``-t``'s records: ``wmt17:en-de``,
    then any ``origlang`` or ``subset``); none for reference files (``sha256:``)."""
    parts = name.split(":")[1:] if not name.startswith("sha256:") else name.split(":")[2:]
    return parts[0] if parts else ""


def _column(signature: str, latest: dict[str, Record], ranked: Ranked | None) -> Column:
    parsed = Signature.parse(signature)
    higher = bool(parsed.config.higher_is_better)
    decimals = parsed.config.decimals(2)
    if ranked is None:
        order = sorted(latest, key=lambda s: -latest[s].score if higher else latest[s].score)
        cells = {system: Cell(record) for system, record in latest.items()}
        why = _unclustered(list(latest.values()))
        return Column(signature, parsed.config.name, higher, decimals, cells, order, why, False)
    cluster_of = {s: k + 1 for k, members in enumerate(ranked.clusters) for s in members}
    cells = {system: Cell(record, cluster_of[system]) for system, record in latest.items()}
    how = (
        f"Clusters by paired bootstrap resampling of the kept statistics: {ranked.n} resamples, seed "
        f"{ranked.seed}, p <= {ranked.alpha} against a cluster's best system starts a new one."
    )
    return Column(signature, parsed.config.name, higher, decimals, cells, ranked.ranking, how, True)


def _unclustered(records: Sequence[Record]) -> str:
    """Why a column's records cannot be ranked into clusters; empty when they can."""
    if len(records) < 2:
        return "One system: no clusters."
    if len({r.segments for r in records}) > 1:
        counts = ", ".join(sorted({str(r.segments) for r in records}, key=int))
        return f"No clusters: the records hold different numbers of segments ({counts})."
    if records[0].segments < 2:
        return (
            f"No clusters: each record holds {counted(records[0].segments, 'segment')}"
            " (a corpus score alone), which cannot be resampled."
        )
    return ""


__all__ = [
    "Cell",
    "Column",
    "Planned",
    "Ranked",
    "Settings",
    "TestSet",
    "finish",
    "gather",
    "plan",
    "rank",
    "slug",
]
