"""``meldtour check``: is a proposed board a legal play? (JSON lines)."""

from __future__ import annotations

import argparse
from typing import Any

from meldtour.core.melds import parse_board
from meldtour.core.moves import check_play
from meldtour.core.rules import RuleSet
from meldtour.core.tiles import format_tiles, over_the_set, parse_tiles

from .jsonlines import RULES_HELP, rules_argument, serve

HELP = "check plays: {board, rack, melded, play} -> {legal, reason, placed}, one per line"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", type=rules_argument, default="standard", help=RULES_HELP)


def handle(data: dict[str, Any], rules: RuleSet) -> dict[str, Any]:
    for key in ("board", "rack", "play"):
        if key not in data:
            raise ValueError(f"missing field {key!r}")
    melded = data.get("melded", False)
    if not isinstance(melded, bool):
        raise ValueError(f"melded must be true or false, got {melded!r}")
    board = parse_board(data["board"])
    rack = parse_tiles(data["rack"])
    play = parse_board(data["play"])
    over = over_the_set([t for m in board for t in m.tiles] + list(rack))
    if over is not None:
        raise ValueError(f"board and rack: {over}")
    verdict = check_play(board, rack, play, melded, rules)
    return {"legal": verdict.legal, "reason": verdict.reason,
            "placed": format_tiles(verdict.placed)}


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules
    return serve(lambda data: handle(data, rules))
