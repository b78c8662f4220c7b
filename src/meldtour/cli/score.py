"""``meldtour score``: score one finished game from the racks left (JSON lines)."""

from __future__ import annotations

import argparse
from typing import Any

from meldtour.core.rules import RuleSet
from meldtour.core.scoring import score_game
from meldtour.core.tiles import over_the_set, parse_tiles

from .jsonlines import RULES_HELP, rules_argument, serve

HELP = "score games: {racks, winner, melded, could_meld, first} -> {scores, winner}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", type=rules_argument, default="standard", help=RULES_HELP)


def _bools(data: dict[str, Any], key: str, n: int, default: bool) -> list[bool]:
    value = data.get(key, [default] * n)
    if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
        raise ValueError(f"{key} must be a list of true/false, one per rack")
    if len(value) != n:
        raise ValueError(f"{key} has {len(value)} entries for {n} racks")
    return value


def _int_or_none(data: dict[str, Any], key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise ValueError(f"{key} must be a seat number{' or null' if key == 'winner' else ''}, "
                         f"got {value!r}")
    return value


def handle(data: dict[str, Any], rules: RuleSet) -> dict[str, Any]:
    raw = data.get("racks")
    if not isinstance(raw, list):
        raise ValueError("racks must be a list of racks (lists of tiles)")
    racks = [parse_tiles(r) for r in raw]
    over = over_the_set([t for r in racks for t in r])
    if over is not None:
        raise ValueError(f"racks: {over}")
    n = len(racks)
    if "winner" not in data:
        raise ValueError("missing field 'winner' (a seat, or null when the pool ran out)")
    winner = _int_or_none(data, "winner", None)
    first = _int_or_none(data, "first", 0)
    if first is None:
        raise ValueError("first must be the starting seat's number, not null")
    result = score_game(racks, winner, _bools(data, "melded", n, True),
                        _bools(data, "could_meld", n, False), first, rules)
    return {"scores": list(result.scores), "winner": result.winner}


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules
    return serve(lambda data: handle(data, rules))
