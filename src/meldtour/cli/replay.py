"""``meldtour replay RECORD.json``: replay a game record and print where it stands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from meldtour.core.record import RecordError, read_record, replay
from meldtour.core.rules import RulesError
from meldtour.core.search import PlayFinder

from .jsonlines import dumps, load_rules

HELP = "replay a game record (JSON): prints board, racks, pool_left, penalties, scores, winner, end"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="the game record, a JSON file ('-' for standard input)")


def play_finder() -> PlayFinder | None:
    """The fast exact solver when installed, else the core's own search."""
    try:
        from meldtour.solver import finder
    except ImportError:
        return None
    return finder


def run(args: argparse.Namespace) -> int:
    try:
        if args.record == "-":
            text = sys.stdin.read()
            base = Path.cwd()
        else:
            path = Path(args.record)
            text = path.read_text(encoding="utf-8")
            base = path.parent
        data = json.loads(text)
        record = read_record(data, resolve=lambda spec: load_rules(str(base / spec)))
        state = replay(record, finder=play_finder())
    except OSError as exc:
        return _fail(f"cannot read {args.record}: {exc.strerror}", None)
    except json.JSONDecodeError as exc:
        return _fail(f"{args.record} is not valid JSON: {exc}", None)
    except RecordError as exc:
        return _fail(str(exc), exc.index)
    except RulesError as exc:
        return _fail(str(exc), None)
    print(dumps(state.summary()))
    return 0


def _fail(message: str, index: int | None) -> int:
    print(dumps({"error": message, "move": index}))
    print(f"meldtour replay: {message}", file=sys.stderr)
    return 1
