"""The report as one HTML page: the package's Jinja2 template, autoescaped, with the plots inline
as SVG and the diff's one script allowed by its hash."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from understudy.errors import import_extra
from understudy.report import figures
from understudy.report.bands import interpretation
from understudy.report.edits import FOLD_CHARS
from understudy.report.model import CUT_CHARS, Report


def render(report: Report) -> str:
    """The report as one HTML page: inline CSS, SVG and one small script for the diff's filters.

    The page's Content-Security-Policy allows no request at all and only that script (by
    its SHA-256), so even text that escaped escaping could not run or fetch anything.
    """
    jinja2: Any = import_extra("jinja2", figures.EXTRA)
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("understudy.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.filters["band"] = interpretation
    script = environment.loader.get_source(environment, "report.js")[0]
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    template = environment.get_template("report.html.j2")
    html: str = template.render(
        report=report, fold=FOLD_CHARS, cut=CUT_CHARS, script=script, script_hash=digest
    )
    return html
