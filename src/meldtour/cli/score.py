"""``meldtour score``: score one finished game from the racks left (JSON lines)."""

from __future__ import annotations

import argparse
from typing import Any

from meldtour.core.refusal import Refused
from meldtour.core.rules import RuleSet
from meldtour.core.scoring import score_game
from meldtour.core.tiles import beyond_the_set, parse_tiles

from .jsonlines import RULES_HELP, rules_argument, serve

HELP = "score games: {racks, winner, melded, could_meld, first} -> {scores, winner}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", type=rules_argument, default="standard", help=RULES_HELP)


def _bools(data: dict[str, Any], key: str, n: int, default: bool) -> list[bool]:
    value = data.get(key, [default] * n)
    if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
        raise Refused("input.bools", field=key)
    if len(value) != n:
        raise Refused("score.entries", name=key, got=len(value), n=n)
    return value


def _int_or_none(data: dict[str, Any], key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
        raise Refused(
            "input.seat_or_null" if key == "winner" else "input.seat", field=key, value=value
        )
    return value


def handle(data: dict[str, Any], rules: RuleSet) -> dict[str, Any]:
    raw = data.get("racks")
    if not isinstance(raw, list):
        raise Refused("input.racks_not_lists")
    racks = [parse_tiles(r) for r in raw]
    over = beyond_the_set([t for r in racks for t in r])
    if over is not None:
        raise Refused("input.racks", why=over)
    n = len(racks)
    if "winner" not in data:
        raise Refused("input.missing_winner")
    winner = _int_or_none(data, "winner", None)
    first = _int_or_none(data, "first", 0)
    if first is None:
        raise Refused("input.first_null")
    result = score_game(
        racks,
        winner,
        _bools(data, "melded", n, True),
        _bools(data, "could_meld", n, False),
        first,
        rules,
    )
    return {"scores": list(result.scores), "winner": result.winner}


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules
    return serve(lambda data: handle(data, rules))
