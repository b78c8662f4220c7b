"""JSON from outside, read safely: nesting bounded before the recursive parser sees
it, numbers of more digits than Python converts refused as such, so that a hostile line
gets a refusal and never a traceback.

>>> loads('{"board": [["r1", "r2", "r3"]]}')
{'board': [['r1', 'r2', 'r3']]}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
meldtour.core.refusal.Refused: the JSON nests deeper than 64 levels
>>> loads("1" * 5000)
Traceback (most recent call last):
...
meldtour.core.refusal.Refused: a number of the JSON has more than 4300 digits
"""

from __future__ import annotations

import json
import re
from typing import Any

from .refusal import Refused, register

register(
    {
        "input.too_deep": "the JSON nests deeper than %(limit)d levels",
        "input.huge_number": "a number of the JSON has more than %(digits)d digits",
    }
)

#: How deep outside JSON may nest (a record's move is 4 deep, a board 3).
MAX_DEPTH = 64
#: Python refuses to convert longer decimal strings to int (sys.get_int_max_str_digits).
MAX_DIGITS = 4300

_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Refuse ``text`` when its brackets nest deeper than ``limit`` (strings skipped)."""
    if text.count("[") + text.count("{") <= limit:
        return  # fewer brackets than the limit, strings and all: nothing to scan
    depth = 0
    for m in _STRUCTURE.finditer(text):
        ch = m.group()
        if ch in "[{":
            depth += 1
            if depth > limit:
                raise Refused("input.too_deep", limit=limit)
        elif ch in "]}":
            depth -= 1


def loads(text: str | bytes, limit: int = MAX_DEPTH) -> Any:
    """``json.loads`` with the bounds above (``json.JSONDecodeError`` and
    ``UnicodeDecodeError`` for text that is not JSON, as ``json.loads`` gives)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    check_depth(text, limit)
    try:
        return json.loads(text)
    except ValueError as exc:
        if isinstance(exc, json.JSONDecodeError) or "digits" not in str(exc):
            raise
        raise Refused("input.huge_number", digits=MAX_DIGITS) from None


def is_control(ch: str, *, line_ends: bool = True) -> bool:
    r"""A character no name, login or address holds: C0 controls (tab and line ends
    allowed unless ``line_ends`` is false), DEL and C1 controls; NUL among them, which
    PostgreSQL refuses in text.

    >>> is_control("\x00"), is_control("\t"), is_control("\n", line_ends=False)
    (True, False, True)
    >>> is_control("김")
    False
    """
    o = ord(ch)
    return (o < 32 and not (line_ends and ch in "\t\n\r")) or 0x7F <= o <= 0x9F


__all__ = ["MAX_DEPTH", "check_depth", "is_control", "loads"]
