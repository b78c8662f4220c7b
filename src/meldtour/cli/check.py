"""``meldtour check``: is a proposed board a legal play? (JSON lines)."""

from __future__ import annotations

import argparse
from typing import Any

from meldtour.core.melds import parse_board
from meldtour.core.moves import check_play
from meldtour.core.refusal import Refused
from meldtour.core.rules import RuleSet
from meldtour.core.tiles import beyond_the_set, format_tiles, parse_tiles

from .jsonlines import RULES_HELP, rules_argument, serve

HELP = "check plays: {board, rack, melded, play} -> {legal, reason, placed}, one per line"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", type=rules_argument, default="standard", help=RULES_HELP)


def handle(data: dict[str, Any], rules: RuleSet) -> dict[str, Any]:
    for key in ("board", "rack", "play"):
        if key not in data:
            raise Refused("input.missing_field", field=key)
    melded = data.get("melded", False)
    if not isinstance(melded, bool):
        raise Refused("input.not_bool", field="melded", value=melded)
    board = parse_board(data["board"])
    rack = parse_tiles(data["rack"])
    play = parse_board(data["play"])
    over = beyond_the_set([t for m in board for t in m.tiles] + list(rack))
    if over is not None:
        raise Refused("input.board_and_rack", why=over)
    verdict = check_play(board, rack, play, melded, rules)
    answer: dict[str, Any] = {"legal": verdict.legal, "reason": verdict.reason}
    if verdict.refusal is not None:
        answer["code"] = verdict.refusal.code
    answer["placed"] = format_tiles(verdict.placed)
    return answer


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules
    return serve(lambda data: handle(data, rules))
