"""Tables written for a spreadsheet (the CSV and XLSX exports of the director's pages,
the public ranking and the command line): the one function that neutralises a cell a
spreadsheet would run as a formula.

A spreadsheet runs a cell as a formula when it starts with ``=``, ``+``, ``-`` or
``@`` (and some when it starts with a tab or a carriage return). A CSV opened in a
locale whose separator is ``;`` (German, French) or split on another separator cuts
one field into several cells, so a starter *after* a separator begins a cell too: a
public name ``x;=1+2`` became the cell ``=1+2``. Each such starter gets a ``'`` before
it (the spreadsheets' own mark of "text"), wherever it begins a cell however the line
is split; numbers stay numbers.

>>> safe_cell("=1+2"), safe_cell("x;=1+2"), safe_cell("a, @SUM(A1)"), safe_cell(-3)
("'=1+2", "x;'=1+2", "a, '@SUM(A1)", -3)
>>> safe_cell("Jean-Luc"), safe_cell("김민지"), safe_cell("x|\\t-1")
('Jean-Luc', '김민지', "x|\\t'-1")
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

#: A cell starts at the start of the text or after any separator a spreadsheet may
#: split on (comma, semicolon, tab, bar, a line end), after spaces it may trim.
_STARTER = re.compile(r"(^|[,;\t|\r\n])([ \u00a0\u3000]*)([=+\-@\uff1d\uff0b\uff0d\uff20])")


def safe_cell(value: object) -> object:
    """``value`` with ``'`` before every formula starter that may begin a cell (text
    only; a number, ``None`` or a date is returned as it is)."""
    if not isinstance(value, str):
        return value
    return _STARTER.sub(lambda m: f"{m[1]}{m[2]}'{m[3]}", value)


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """The rows as CSV text, every cell through :func:`safe_cell` (``None`` is empty)."""
    buf = io.StringIO()
    write_csv(buf, rows)
    return buf.getvalue()


def write_csv(out: Any, rows: Iterable[Sequence[Any]]) -> None:
    """Write the rows as CSV to ``out`` (a text file), every cell through
    :func:`safe_cell`."""
    writer = csv.writer(out)
    for row in rows:
        writer.writerow(["" if v is None else safe_cell(v) for v in row])


__all__ = ["csv_text", "safe_cell", "write_csv"]
