"""Helpers shared by the JSON-lines commands: one answer line per input line.

A refusal (:class:`~meldtour.core.refusal.Refused`) answers with its English sentence
and, beside it, its ``code``; the commands' own refusals of their input are declared
here."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, TypeVar

from meldtour.core import jsontext
from meldtour.core.refusal import Refused, register
from meldtour.core.rules import RulesError, RuleSet, find_rules

register(
    {
        "rules.unreadable": "cannot read house rules %(path)r: %(error)s",
        "input.missing_field": "missing field %(field)r",
        "input.not_bool": "%(field)s must be true or false, got %(value)r",
        "input.board_and_rack": "board and rack: %(why)s",
        "input.racks": "racks: %(why)s",
        "input.racks_not_lists": "racks must be a list of racks (lists of tiles)",
        "input.bools": "%(field)s must be a list of true/false, one per rack",
        "input.seat": "%(field)s must be a seat number, got %(value)r",
        "input.seat_or_null": "%(field)s must be a seat number or null, got %(value)r",
        "input.missing_winner": "missing field 'winner' (a seat, or null when the pool ran out)",
        "input.first_null": "first must be the starting seat's number, not null",
        "input.unknown_fields": "unknown field(s): %(fields)s",
        "input.not_utf8": "not UTF-8 text",
    }
)

RULES_HELP = "a preset (krc-2015, korea-official, standard, japan) or a house-rules TOML file"


def load_rules(spec: str) -> RuleSet:
    """A preset name, or a path to a house-rules TOML file."""
    path = Path(spec)
    if spec.endswith(".toml") or path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise RulesError("rules.unreadable", path=spec, error=exc.strerror) from None
        return RuleSet.from_toml(text)
    return find_rules(spec)


def rules_argument(spec: str) -> RuleSet:
    """argparse ``type=`` for ``--rules``: errors become usage errors."""
    import argparse

    try:
        return load_rules(spec)
    except RulesError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# Characters some readers take for line breaks (NEL, the Unicode line and paragraph
# separators) and the other C1 controls: written as escapes, so one answer stays one line.
_ESCAPE = {c: f"\\u{c:04x}" for c in [*range(0x80, 0xA0), 0x2028, 0x2029]}


def dumps(obj: Any) -> str:
    """One line of JSON, readable (not ASCII-only), with no character that breaks lines."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")).translate(_ESCAPE)


def serve(
    handle: Callable[[dict[str, Any]], dict[str, Any]],
    inp: IO[str] | None = None,
    out: IO[str] | None = None,
) -> int:
    """Read JSON objects line by line; write one answer line for each.

    A line that is not a JSON object, or that ``handle`` rejects with ``ValueError``
    (or ``KeyError``/``TypeError`` from a malformed field), gets ``{"error": ...}``
    (with ``"code"`` when the error is a refusal); the run goes on. Blank lines are
    skipped.
    """
    out = out or sys.stdout
    for lineno, line in enumerate(_lines(inp), 1):
        if line is None:
            answer: dict[str, Any] = {
                "error": f"line {lineno}: not UTF-8 text",
                "code": "input.not_utf8",
            }
            out.write(dumps(answer) + "\n")
            out.flush()
            continue
        if not line.strip():
            continue
        try:
            data = jsontext.loads(line)
        except json.JSONDecodeError as exc:
            answer = {"error": f"line {lineno}: not valid JSON: {exc.msg}"}
        except Refused as exc:
            answer = {"error": f"line {lineno}: {exc}", "code": exc.code}
        else:
            if not isinstance(data, dict):
                answer = {"error": f"line {lineno}: expected a JSON object"}
            else:
                try:
                    answer = handle(data)
                except (ValueError, KeyError, TypeError, RecursionError) as exc:
                    msg = str(exc) if not isinstance(exc, KeyError) else f"missing field {exc}"
                    answer = {"error": f"line {lineno}: {msg}"}
                    if isinstance(exc, Refused):
                        answer["code"] = exc.code
                    elif isinstance(exc, KeyError):
                        answer["code"] = "input.missing_field"
        out.write(dumps(answer) + "\n")
        out.flush()
    return 0


def _lines(inp: IO[str] | None) -> Iterator[str | None]:
    """The input's lines as text; None for a line that is not UTF-8 (standard input is
    read as bytes, so one bad line does not end the run)."""
    buffer = getattr(sys.stdin, "buffer", None) if inp is None else None
    if buffer is None:
        yield from inp if inp is not None else sys.stdin
        return
    for raw in buffer:
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            yield None


class RecordFailure(Exception):
    """A game record that could not be read or replayed: the message, where one move
    is to blame its index, and the refusal's code when it is one."""

    def __init__(self, message: str, index: int | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.index = index
        self.code = code

    def report(self, command: str) -> int:
        """``{"error", "move"}`` (and ``"code"`` for a refusal) on standard output, the
        message on standard error; 1."""
        answer: dict[str, Any] = {"error": self.message, "move": self.index}
        if self.code is not None:
            answer["code"] = self.code
        print(dumps(answer))
        print(f"meldtour {command}: {self.message}", file=sys.stderr)
        return 1


T = TypeVar("T")


def with_record(spec: str, use: Callable[[Any, Callable[[str], RuleSet]], T]) -> T:
    """Read the game record ``spec`` (a path, or ``-`` for standard input) and call
    ``use(data, resolve)``, where ``resolve`` reads a house-rules path named in the
    record relative to the record's folder. Every failure becomes a RecordFailure."""
    from meldtour.core.record import RecordError

    try:
        if spec == "-":
            stdin = getattr(sys.stdin, "buffer", None)
            raw = stdin.read() if stdin is not None else sys.stdin.read().encode()
            base = Path.cwd()
        else:
            path = Path(spec)
            raw, base = path.read_bytes(), path.parent
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordFailure(
                f"{spec} is not UTF-8 text (byte {exc.start})", code="input.not_utf8"
            ) from None
        data = jsontext.loads(text)
        return use(data, lambda rules: load_rules(str(base / rules)))
    except OSError as exc:
        raise RecordFailure(f"cannot read {spec}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise RecordFailure(f"{spec} is not valid JSON: {exc}") from None
    except RecordError as exc:
        raise RecordFailure(str(exc), exc.index, exc.code) from None
    except RulesError as exc:
        raise RecordFailure(str(exc), None, exc.code) from None
    except Refused as exc:  # nested too deep, a number too long
        raise RecordFailure(f"{spec}: {exc}", None, exc.code) from None
    except RecursionError:
        raise RecordFailure(
            f"{spec}: the record nests too deeply", None, "input.too_deep"
        ) from None
