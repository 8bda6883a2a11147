"""Write a :class:`~understudy.files.tables.Table` to standard output in the format ``-f`` asks for."""

from __future__ import annotations

from understudy.cli.output import encode, stdout, write
from understudy.files.tables import Table


def emit(table: Table, form: str) -> None:
    """Write ``table`` to standard output as ``form``: CSV as its own CRLF lines, the others
    followed by a newline."""
    if form == "csv":
        out = stdout()
        out.write(encode(table.render(form)))
        out.flush()
    else:
        write(table.render(form))


__all__ = ["emit"]
