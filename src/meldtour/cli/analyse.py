"""``meldtour analyse RECORD.json``: each turn's move against the solver's best play.

For every turn of the record: who moved, what the move put down (tiles and the value
it added to the board), and the solver's best play from the same board and rack (most
tiles, then most value). A turn is a *missed play* when the best play would have put
down more tiles, or as many tiles worth more points; ``tiles_left`` and ``points_left``
say how many tiles, and how many points, the move left on the rack compared with it.

Output: a table, or with ``--json`` one object ``{"turns": [...], "players": [...]}``
where each turn is ``{"turn", "seat", "player", "action", "placed", "value", "best":
{"placed", "value", "tiles"}, "missed", "tiles_left", "points_left"}`` and each player
``{"seat", "name", "turns", "missed", "tiles_left", "points_left"}``.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from meldtour.core.game import IllegalMove, apply, new_game
from meldtour.core.melds import Board
from meldtour.core.moves import Redeal
from meldtour.core.record import RecordError, read_record
from meldtour.core.rules import RuleSet
from meldtour.core.tiles import Tile, format_tiles
from meldtour.solver import finder, solve

from .jsonlines import RecordFailure, dumps, with_record

HELP = "analyse a game record: each turn's move against the solver's best, missed plays marked"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="the game record, a JSON file ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")


def _board_tiles(board: Board) -> Counter[Tile]:
    return Counter(t for m in board for t in m.tiles)


def _value(board: Board, rules: RuleSet) -> int:
    return sum(m.value(rules.wrap_runs) for m in board if m.is_valid(rules.wrap_runs))


def analyse_record(data: Any, resolve: Any = None) -> dict[str, Any]:
    """The analysis of one record (see the module's docstring)."""
    record = read_record(data, resolve=resolve)
    rules = record.rules
    try:
        state = new_game(rules, record.players, record.seed, deal=record.deal).state
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    turns: list[dict[str, Any]] = []
    for i, move in enumerate(record.moves):
        before = state
        seat = move.seat
        best = None
        if not isinstance(move, Redeal) and 0 <= seat < before.seats and seat == before.current:
            best = solve(before.board, before.racks[seat], rules, before.melded[seat])
        try:
            state = apply(state, move, finder=finder).state
        except IllegalMove as exc:
            raise RecordError(f"move {i} ({move.action} by seat {seat}): {exc.reason}",
                              i) from None
        if best is None:
            turns.append({"turn": i, "seat": seat, "player": before.players[seat],
                          "action": move.action, "placed": [], "value": 0, "best": None,
                          "missed": False, "tiles_left": 0, "points_left": 0})
            continue
        placed = sorted((_board_tiles(state.board) - _board_tiles(before.board)).elements())
        value = _value(state.board, rules) - _value(before.board, rules)
        tiles_left = best.placed - len(placed)
        points_left = best.value - value
        missed = tiles_left > 0 or (tiles_left == 0 and points_left > 0)
        turns.append({
            "turn": i,
            "seat": seat,
            "player": before.players[seat],
            "action": move.action,
            "placed": format_tiles(placed),
            "value": value,
            "best": {"placed": best.placed, "value": best.value,
                     "tiles": format_tiles(best.tiles)},
            "missed": missed,
            "tiles_left": max(tiles_left, 0) if missed else 0,
            "points_left": max(points_left, 0) if missed else 0,
        })
    players = []
    for seat, name in enumerate(record.players):
        mine = [t for t in turns if t["seat"] == seat]
        players.append({
            "seat": seat,
            "name": name,
            "turns": len(mine),
            "missed": sum(1 for t in mine if t["missed"]),
            "tiles_left": sum(t["tiles_left"] for t in mine),
            "points_left": sum(t["points_left"] for t in mine),
        })
    return {"turns": turns, "players": players}


def run(args: argparse.Namespace) -> int:
    try:
        result = with_record(args.record, lambda data, resolve: analyse_record(
            data, resolve=resolve))
    except RecordFailure as exc:
        return exc.report("analyse")
    if args.json:
        print(dumps(result))
    else:
        _table(result)
    return 0


def _table(result: dict[str, Any]) -> None:
    for t in result["turns"]:
        played = " ".join(t["placed"]) or "-"
        line = f"{t['turn']:>4}  seat {t['seat']} {t['player']:<12} {t['action']:<7} {played}"
        if t["best"] is not None:
            best = " ".join(t["best"]["tiles"]) or "-"
            line += f"  | best: {best} ({t['best']['placed']} tiles, {t['best']['value']} pts)"
        if t["missed"]:
            line += f"  MISSED: {t['tiles_left']} tiles, {t['points_left']} pts left"
        print(line)
    for p in result["players"]:
        print(f"seat {p['seat']} {p['name']}: {p['turns']} turns, {p['missed']} missed plays, "
              f"{p['tiles_left']} tiles and {p['points_left']} points left")


