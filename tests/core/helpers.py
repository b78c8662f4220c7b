"""Small builders for readable tests: ``board("r4 r5 r6", "k8 r8 o8")``, ``rack("r4 J")``."""

from __future__ import annotations

from meldtour.core.game import new_game
from meldtour.core.melds import Board, Meld
from meldtour.core.rules import RuleSet, find_rules
from meldtour.core.state import Deal, GameState
from meldtour.core.tiles import Tile, parse_tiles


def rack(text: str) -> tuple[Tile, ...]:
    return parse_tiles(text.split())


def board(*melds: str) -> Board:
    return tuple(Meld(parse_tiles(m.split())) for m in melds)


def dealt(
    rules: str | RuleSet,
    *racks: str,
    pool: str = "",
    first: int = 0,
    board_melds: Board = (),
    melded: tuple[bool, ...] | None = None,
) -> GameState:
    """A game from a hand-made deal (optionally with melds already on the table)."""
    rs = find_rules(rules) if isinstance(rules, str) else rules
    deal = Deal(tuple(rack(r) for r in racks), rack(pool), first)
    state = new_game(rs, [f"P{i + 1}" for i in range(len(racks))], seed=1, deal=deal).state
    if board_melds or melded is not None:
        import dataclasses

        state = dataclasses.replace(
            state,
            board=board_melds,
            melded=melded if melded is not None else state.melded,
        )
    return state
