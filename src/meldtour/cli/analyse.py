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
from typing import Any

from meldtour.core.analysis import analyse
from meldtour.core.record import read_record
from meldtour.solver import finder, solve

from .jsonlines import RecordFailure, dumps, with_record

HELP = "analyse a game record: each turn's move against the solver's best, missed plays marked"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="the game record, a JSON file ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")


def analyse_record(data: Any, resolve: Any = None) -> dict[str, Any]:
    """The analysis of one record (see the module's docstring and
    :mod:`meldtour.core.analysis`, which does the work)."""
    return analyse(read_record(data, resolve=resolve), solve, finder).to_json()


def run(args: argparse.Namespace) -> int:
    try:
        result = with_record(
            args.record, lambda data, resolve: analyse_record(data, resolve=resolve)
        )
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
        print(
            f"seat {p['seat']} {p['name']}: {p['turns']} turns, {p['missed']} missed plays, "
            f"{p['tiles_left']} tiles and {p['points_left']} points left"
        )
