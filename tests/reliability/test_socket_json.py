"""A socket's message (and a JSON body) is read by orjson where it reads JSON as the
standard library does, and by the standard library where it would not: the value is
the same — types too, a huge integer an ``int`` — and what is refused is refused alike,
for any text (``meldtour.web.limits.parse_json`` against ``meldtour.core.jsontext``)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from meldtour.core import jsontext
from meldtour.core.refusal import Refused
from meldtour.web.limits import JSON_MAX_DEPTH, TooLarge, parse_json

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()  # past 64 bits too
    | st.integers(min_value=10**17, max_value=10**21)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()  # lone surrogates among them
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


def verdict(read: Any, text: str | bytes) -> tuple[str, Any]:
    try:
        value = read(text)
    except (Refused, TooLarge) as exc:
        return "too large", str(exc)
    except UnicodeDecodeError:
        return "not utf-8", None
    except ValueError:
        return "not json", None
    return "read", json.dumps(value, allow_nan=True) + repr(_types(value))


def _types(value: Any) -> Any:
    if isinstance(value, list):
        return [_types(v) for v in value]
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    return type(value).__name__


def agree(text: str | bytes) -> None:
    mine = verdict(parse_json, text)
    standard = verdict(lambda t: jsontext.loads(t, JSON_MAX_DEPTH), text)
    assert mine[0] == standard[0], (text, mine, standard)
    if mine[0] == "read":
        assert mine == standard, text


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_any_json_value_reads_as_the_standard_library_reads_it(value: Any) -> None:
    text = json.dumps(value, allow_nan=True, ensure_ascii=False)
    agree(text)
    agree(json.dumps(value, allow_nan=True))  # lone surrogates as escapes
    with contextlib.suppress(UnicodeEncodeError):  # a lone surrogate has no UTF-8
        agree(text.encode())


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet='[]{}",:0123456789.eE+-ntrufalsNIiy\\\\u \x00') | st.binary())
def test_any_text_is_read_or_refused_as_the_standard_library_would(text: str | bytes) -> None:
    agree(text)


def test_the_cases_orjson_reads_otherwise() -> None:
    for text in (
        "12345678901234567890123",  # an int past 64 bits, not a float
        "[NaN, Infinity]",
        '"\\ud800"',
        "1e400",
        "[" * (JSON_MAX_DEPTH + 1) + "]" * (JSON_MAX_DEPTH + 1),
        "1" * 5000,
        b"\xff",
    ):
        agree(text)
    assert parse_json("12345678901234567890123") == 12345678901234567890123
