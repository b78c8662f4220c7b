"""``meldtour solve --rules PRESET``: the best play for each JSON line.

Input, one object a line: ``{"board": [[tiles]...], "rack": [tiles], "melded": bool}``.
Output, one line each: ``{"placed": int, "value": int, "board": [[tiles]...],
"rack_left": [tiles], "ms": float}`` — ``placed`` 0 and the board unchanged when
nothing can be played; ``ms`` is the time spent solving that line, measured here.
A line that cannot be read gets ``{"error": ...}`` and the run goes on.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from meldtour.core.melds import format_board, parse_board
from meldtour.core.refusal import Refused
from meldtour.core.rules import RuleSet
from meldtour.core.tiles import format_tiles, parse_tiles
from meldtour.solver import solve

from .jsonlines import rules_argument, serve

HELP = "best play for each board and rack (JSON lines in, JSON lines out)"
_FIELDS = {"board", "rack", "melded"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        type=rules_argument,
        default="standard",
        metavar="PRESET",
        help="a rules preset (krc-2015, korea-official, standard, japan) or a "
        "house-rules TOML file (default: standard)",
    )


def answer(data: dict[str, Any], rules: RuleSet) -> dict[str, Any]:
    """The answer to one input object."""
    unknown = set(data) - _FIELDS
    if unknown:
        raise Refused("input.unknown_fields", fields=", ".join(sorted(unknown)))
    board = parse_board(data.get("board", []))
    rack = parse_tiles(data["rack"])
    melded = data.get("melded", True)
    if not isinstance(melded, bool):
        raise Refused("input.not_bool", field="melded", value=melded)
    started = time.perf_counter()
    solution = solve(board, rack, rules, melded)
    ms = (time.perf_counter() - started) * 1000
    return {
        "placed": solution.placed,
        "value": solution.value,
        "board": format_board(solution.board),
        "rack_left": format_tiles(solution.rack_left),
        "ms": round(ms, 3),
    }


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules if isinstance(args.rules, RuleSet) else rules_argument(args.rules)
    return serve(lambda data: answer(data, rules))
