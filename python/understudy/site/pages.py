"""The site's pages as HTML: the package's Jinja2 templates, autoescaped, each page with its CSS
inline and the test-set page's one script allowed by its hash, so that a page asks for nothing
and no text a ledger holds (a system's name, a note) can run as code."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from understudy._version import __version__
from understudy.errors import import_extra
from understudy.signature import Signature
from understudy.site.history import Plot, gate_verdict, history_plot, report_written

if TYPE_CHECKING:
    from understudy.ledger import Record
    from understudy.site.model import Column, Settings, TestSet

EXTRA = "the site needs Jinja2: pip install 'understudy-mt[report]'"
"""What the site needs installed (Jinja2, the report's and the site's templates), and how."""


@cache
def _environment() -> Any:
    jinja2: Any = import_extra("jinja2", EXTRA)
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("understudy.site", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # Texts of the ledger shown with their control characters; markup (the script) as it is.
        finalize=lambda value: shown(value) if type(value) is str else value,
    )
    environment.filters["keyed"] = keyed
    return environment


def keyed(signature: str) -> Any:
    """A signature as the pages show it: escaped, and able to wrap only after a ``|``, never
    inside a key or its value (``<wbr>``; the page's ``code.signature`` wraps nowhere else).

    >>> str(keyed("nrefs:1|tok:<13a>"))
    'nrefs:1|<wbr>tok:&lt;13a&gt;'
    """
    from markupsafe import Markup, escape

    return Markup("|<wbr>").join(escape(shown(part)) for part in signature.split("|"))


def ledger_name(location: str) -> str:
    """What the index says of the ledger: a file's name (not its folder, which is the machine's),
    or a database URL's scheme, host and database (its user and password never).

    >>> ledger_name("/home/ana/results/team.sqlite"), ledger_name("postgresql://u:p@db.lab:5432/mt?x=1")
    ('team.sqlite', 'postgresql://db.lab:5432/mt')
    """
    if "://" not in location:
        return Path(location).name
    from urllib.parse import urlsplit

    parts = urlsplit(location)
    host = parts.hostname or ""
    return f"{parts.scheme}://{host}{f':{parts.port}' if parts.port else ''}{parts.path}"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    r"""``text`` with its control characters written out (``\x1b``), as every page shows the
    ledger's texts: a terminal's colour codes or a stray NUL in a name are seen, not swallowed.

    >>> shown("sys\x1b[31m-A")
    'sys\\x1b[31m-A'
    """
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _script() -> tuple[str, str]:
    environment = _environment()
    script: str = environment.loader.get_source(environment, "site.js")[0]
    return script, base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")


def index_page(testsets: list[TestSet], location: str, settings: Settings) -> str:
    """The index: a row per test set, linking to its page; saying so when there is none."""
    return str(
        _environment()
        .get_template("index.html.j2")
        .render(
            testsets=testsets,
            location=ledger_name(location),
            selected=selected(settings),
            version=__version__,
        )
    )


def testset_page(testset: TestSet, settings: Settings) -> str:
    """A test set's page: the ranking table (sortable, filtered by system and tag in the page)
    and each system's history."""
    script, digest = _script()
    from understudy.report.names import short_names

    first = testset.columns[0]
    order = [*first.ranking, *(s for s in testset.systems if s not in first.cells)]
    return str(
        _environment()
        .get_template("testset.html.j2")
        .render(
            testset=testset,
            order=order,
            short=dict(zip(testset.systems, short_names(testset.systems), strict=True)),
            row_tags={s: json.dumps(_tags_of(testset, s)) for s in testset.systems},
            histories=_histories(testset),
            gated=any(gate_verdict(r) for r in testset.records),
            settings=settings,
            script=script,
            script_hash=digest,
            version=__version__,
        )
    )


def record_page(record: Record, testset: str, slug: str) -> str:
    """A record's page: what it holds, its signature key by key, the command that kept it and the
    report written beside it."""
    report = report_written(record)
    link = Path(report).as_uri() if report and Path(report).is_absolute() else ""
    return str(
        _environment()
        .get_template("record.html.j2")
        .render(
            record=record,
            testset=testset,
            slug=slug,
            signature=_signature_items(record.signature),
            decimals=Signature.parse(record.signature).config.decimals(2),
            report=report,
            report_link=link,
            gate=gate_verdict(record),
            version=__version__,
        )
    )


def selected(settings: Settings) -> str:
    """Which records the site shows, in words (empty: all of them).

    >>> from understudy.site import Settings
    >>> selected(Settings(tags=("release", "nightly"), since="2026-11-01"))
    'tagged release or nightly, kept since 2026-11-01'
    """
    parts = []
    if settings.tags:
        parts.append("tagged " + " or ".join(settings.tags))
    if settings.since:
        parts.append(f"kept since {settings.since}")
    return ", ".join(parts)


def _tags_of(testset: TestSet, system: str) -> list[str]:
    """The tags of a system's records in the table: what the page's tag filter matches."""
    tags = {t for c in testset.columns if system in c.cells for t in c.cells[system].record.tags}
    return sorted(shown(t) for t in tags)  # as the tag filter's choices show them


def _histories(testset: TestSet) -> dict[str, list[tuple[Column, Plot]]]:
    """Each system's history plots, a column each where it has records (in the records' order):
    the records grouped in one pass, not scanned again for every system and column."""
    grouped: dict[tuple[str, str], list[Record]] = {}
    for record in testset.records:
        grouped.setdefault((record.system, record.signature), []).append(record)
    return {
        system: [
            (column, history_plot(grouped[system, column.signature], column.decimals))
            for column in testset.columns
            if (system, column.signature) in grouped
        ]
        for system in testset.systems
    }


@cache
def _signature_items(signature: str) -> tuple[tuple[str, str], ...]:
    """A signature's keys and values, parsed once for all the records that share it."""
    return tuple(Signature.parse(signature).items())


__all__ = ["EXTRA", "index_page", "record_page", "selected", "shown", "testset_page"]


def autorank_page(tables: list[dict[str, Any]], notes: list[str]) -> str:
    """AutoRank's tables as one self-contained page in the site's style: ``tables`` each a
    ``pair``, ``title``, ``header`` and ``rows`` of cells (:mod:`understudy.autorank.ranking`)."""
    page = _environment().get_template("autorank.html.j2")
    return str(page.render(tables=tables, notes=notes, version=__version__))
