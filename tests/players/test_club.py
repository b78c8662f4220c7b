"""The club level on hand-made positions: it lays and rearranges like greedy, and holds
back while another player is close to going out."""

from __future__ import annotations

import dataclasses

from meldtour.core.game import apply, new_game
from meldtour.core.melds import parse_board
from meldtour.core.moves import Draw, Play
from meldtour.core.rules import find_rules
from meldtour.core.state import GameState
from meldtour.core.tiles import parse_tiles
from meldtour.core.views import player_view
from meldtour.players.club import ClubPlayer
from meldtour.solver import finder

KRC = find_rules("krc-2015")
CLUB = ClubPlayer()


def _position(rack: list[str], other: int) -> GameState:
    state = new_game(KRC, ["club", "other"], 0).state
    return dataclasses.replace(
        state,
        board=parse_board([["r4", "r5", "r6"], ["k9", "r9", "b9"]]),
        melded=(True, True),
        turn=state.order.index(0),
        racks=(parse_tiles(rack), state.racks[1][:other]),
    )


def test_lays_and_rearranges_while_nobody_is_close() -> None:
    # r7 goes on the run, o9 on the group, k1-k3 as a meld: all five.
    state = _position(["r7", "o9", "k1", "k2", "k3", "b13"], other=10)
    move = CLUB.decide(player_view(state, 0))
    assert isinstance(move, Play)
    after = apply(state, move, finder=finder).state
    assert [str(t) for t in after.racks[0]] == ["b13"]


def test_holds_back_while_another_player_is_close_unless_it_goes_out() -> None:
    state = _position(["r7", "o9", "k1", "k2", "k3", "b13"], other=6)
    assert isinstance(CLUB.decide(player_view(state, 0)), Draw)
    out = _position(["r7", "o9", "k1", "k2", "k3"], other=2)
    move = CLUB.decide(player_view(out, 0))
    assert isinstance(move, Play)
    assert apply(out, move, finder=finder).state.winner == 0
