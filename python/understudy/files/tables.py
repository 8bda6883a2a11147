"""One table, four formats: what ``score``, ``compare`` and ``correlate`` print.

A command builds a :class:`Table` (formatted cells for text and LaTeX, the values in full for
CSV, the JSON document, the notes) and renders it in the format ``-f`` asks for.
The aligned text table, the booktabs LaTeX and the RFC 4180 CSV are each written here once.

>>> table = Table(["System", "BLEU"], [["a", "20.5"]], notes=["BLEU signature: nrefs:1"],
...               csv_header=["system", "BLEU"], csv_rows=[["a", 20.512]], record={"a": 20.512})
>>> print(table.render("text"))
System  BLEU
------  ----
a       20.5
<BLANKLINE>
BLEU signature: nrefs:1
>>> table.render("csv")
'system,BLEU\\r\\na,20.512\\r\\n'
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from understudy.errors import ConfigError, OutputError

MAX_WIDTH = 50
"""The most decimal places ``-w`` takes (float64 holds 17 significant digits; sacrebleu's users
ask for 1 to 4)."""


SCORE_WIDTH_HELP = (
    "decimal places of a 0-100 score such as BLEU's (default: 1); a metric on a smaller scale keeps"
    " that precision with more: 2 more on 0-1 (COMET, xCOMET, CometKiwi), 1 more on 0-25 (MetricX)"
)
"""``-w``'s help where scores are printed: what :meth:`MetricConfig.decimals` does with it."""


def width_value(text: str) -> int:
    """A ``-w``: decimal places, 0 to :data:`MAX_WIDTH`, checked as the command line is read.

    >>> width_value("2")
    2
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"decimal places are a whole number, not {text!r}") from None
    if not 0 <= value <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(f"takes 0 to {MAX_WIDTH} decimal places, got {value}")
    return value


def check_width(width: int | None) -> None:
    """A ``ConfigError`` unless ``width`` (``-w``) is None or 0 to :data:`MAX_WIDTH`."""
    if width is not None and not 0 <= width <= MAX_WIDTH:
        raise ConfigError(f"--width takes 0 to {MAX_WIDTH} decimal places, got {width}")


@dataclass(frozen=True)
class Table:
    """One table as every format shows it.

    ``header`` and ``rows`` are the formatted cells of the text and LaTeX tables; ``notes``
    follow the text table after a blank line (``between``: further blocks before them, a second
    table say) and make the LaTeX comment, joined by ``latex_join``. ``csv_header`` and
    ``csv_rows`` hold the values in full, ``record`` the JSON document. ``text`` replaces the
    text table when a command prints more than a table (correlate's report).
    """

    header: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    csv_header: list[str] = field(default_factory=list)
    csv_rows: list[list[Any]] = field(default_factory=list)
    record: Any = None
    between: list[str] = field(default_factory=list)
    latex_join: str = " "
    text: str | None = None

    def render(self, form: str) -> str:
        """The table as ``form`` (``text``, ``json``, ``latex`` or ``csv``) writes it."""
        if form == "json":
            return json.dumps(self.record, indent=1, ensure_ascii=False)
        if form == "csv":
            return csv_text(self.csv_header, self.csv_rows)
        if form == "latex":
            return latex_table(self.header, self.rows, self.latex_join.join(self.notes))
        if self.text is not None:
            return self.text
        return "\n\n".join([text_table(self.header, self.rows), *self.between, "\n".join(self.notes)])


def csv_text(header: list[str], rows: list[list[Any]]) -> str:
    """An RFC 4180 table: comma-separated, quoted where needed, CRLF line ends. Numbers are
    written in full (``repr``), so a reader gets them exactly; ``None`` is empty.

    >>> csv_text(["a", "b"], [[0.1, None], ["x,y", 2]])
    'a,b\\r\\n0.1,\\r\\n"x,y",2\\r\\n'
    """
    buffer = io.StringIO()
    table = csv.writer(buffer, lineterminator="\r\n")
    table.writerow(header)
    for row in rows:
        table.writerow(["" if v is None else repr(v) if isinstance(v, float) else v for v in row])
    return buffer.getvalue()


def text_table(header: list[str], rows: list[list[str]]) -> str:
    """A plain aligned table: first column left-aligned, the others right-aligned.

    >>> print(text_table(["System", "BLEU"], [["a", "1.0"], ["bbb", "22.5"]]))
    System  BLEU
    ------  ----
    a        1.0
    bbb     22.5
    """
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=True)]
        return "  ".join([first, *rest])

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


_LATEX_ESCAPES = {c: "\\" + c for c in "&%$#_{}"} | {
    "~": r"\textasciitilde{}",
    "^": r"\^{}",
    "\\": r"\textbackslash{}",
}


def latex_escape(text: str) -> str:
    r"""Escape LaTeX's special characters.

    >>> latex_escape("sys_1 & 50%")
    'sys\\_1 \\& 50\\%'
    """
    return "".join(_LATEX_ESCAPES.get(c, c) for c in text)


def latex_table(header: list[str], rows: list[list[str]], comment: str) -> str:
    """A booktabs tabular, followed by ``comment`` as a LaTeX comment line."""
    spec = "l" + "r" * (len(header) - 1)
    body = [" & ".join(latex_escape(c) for c in r) + r" \\" for r in rows]
    return "\n".join(
        [
            rf"\begin{{tabular}}{{{spec}}}",
            r"\toprule",
            " & ".join(header) + r" \\",
            r"\midrule",
            *body,
            r"\bottomrule",
            r"\end{tabular}",
            f"% {comment}",
        ]
    )


__all__ = ["Table", "csv_text", "latex_escape", "latex_table", "text_table"]


def check_matrix_path(path: str) -> None:
    """Refuse a matrix file that is neither ``.npy`` nor ``.tsv`` (before the work, not after)."""
    if not path.endswith((".npy", ".tsv")):
        raise ConfigError(f"{path}: the matrix file must end in .npy or .tsv")


def write_tsv(matrix: Any, width: int | None, out: BinaryIO) -> None:
    """Each row of ``matrix`` (a NumPy array) a line of TAB-separated numbers: every digit (an
    exact round trip), or ``width`` decimal places.

    >>> import io
    >>> import numpy as np
    >>> out = io.BytesIO()
    >>> write_tsv(np.array([[0.5, 1 / 3]]), 2, out)
    >>> out.getvalue()
    b'0.50\\t0.33\\n'
    """
    cell: Any = repr if width is None else (lambda v: f"{v:.{width}f}")
    for row in matrix.tolist():
        out.write(("\t".join(cell(v) for v in row) + "\n").encode("utf-8"))


def save_matrix(matrix: Any, path: str, width: int | None = None) -> None:
    """``matrix`` written to ``path``, whole or not at all: ``.npy`` (float64, for ``numpy.load``)
    or ``.tsv`` (:func:`write_tsv`)."""
    from understudy.files.atomic import atomic_write

    check_matrix_path(path)
    try:
        with atomic_write(path) as fh:
            if path.endswith(".npy"):
                import numpy as np

                np.save(fh, matrix)
            else:
                write_tsv(matrix, width, fh)
    except OutputError:
        raise
    except OSError as err:
        raise OutputError(f"{path}: cannot write: {err.strerror or err}") from err
