"""The ``beginner`` player: it makes its initial meld as soon as it can, then lays new
melds from its rack and adds single tiles to the ends of melds on the table — it never
takes a meld apart or moves a tile that is already down."""

from __future__ import annotations

from dataclasses import dataclass

from meldtour.core.melds import Meld, valid_tiles
from meldtour.core.moves import Move, Play
from meldtour.core.tiles import JOKER_CODE, Tile
from meldtour.core.views import PlayerView
from meldtour.solver import solve

from .base import no_play, seat_of


def extend_melds(
    board: tuple[Meld, ...], rack: list[Tile], wrap: bool
) -> tuple[tuple[Meld, ...], list[Tile]]:
    """Add rack tiles one at a time to either end of a meld while the meld stays valid.

    Tiles are tried in rack order and melds in board order, so the result depends on
    the inputs only. Returns the new board and the tiles left on the rack.
    """
    melds = list(board)
    left = list(rack)
    changed = True
    while changed and left:
        changed = False
        for t in list(left):
            for i, m in enumerate(melds):
                if not _may_join(m, t):
                    continue
                for tiles in ((*m.tiles, t), (t, *m.tiles)):
                    if valid_tiles(tiles, wrap):
                        melds[i] = Meld(tiles)
                        left.remove(t)
                        changed = True
                        break
                else:
                    continue
                break
    return tuple(melds), left


def _may_join(meld: Meld, t: Tile) -> bool:
    """False when ``t`` can make no valid meld with ``meld``'s tiles: a group needs its
    number and a run its colour, so a tile that shares neither with any tile of the meld
    that is not a joker fits neither end (a cheap test before the meld's readings)."""
    if t == JOKER_CODE:
        return True
    colour, number = divmod(int(t), 13)
    real = False
    for u in meld.tiles:
        if u != JOKER_CODE:
            real = True
            if u // 13 == colour or u % 13 == number:
                return True
    return not real


@dataclass
class BeginnerPlayer:
    name: str = "beginner"

    def decide(self, view: PlayerView) -> Move:
        seat = seat_of(view)
        rules = view.rules
        if not view.melded[seat]:
            found = solve(view.board, view.rack, rules, False)
            return Play(seat, found.board) if found.placed else no_play(view)
        own = solve((), view.rack, rules, True)
        board = (*view.board, *own.board)
        board, left = extend_melds(board, list(own.rack_left), rules.wrap_runs)
        if len(left) < len(view.rack):
            return Play(seat, board)
        return no_play(view)
