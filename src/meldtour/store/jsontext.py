"""JSON text as the server writes it, for the sockets, the processes' channels and the
live log's batches alike: compact, UTF-8 as is, with orjson (a move's frames are most of
the server's JSON, and its encoder takes a tenth of the standard library's time); the
standard library for what orjson does not take (an integer past 64 bits, which a client
may send)."""

from __future__ import annotations

import json
from typing import Any

import orjson

_STANDARD = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dumps(value: Any) -> str:
    """``value``'s JSON text."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return _STANDARD(value)


__all__ = ["dumps"]
